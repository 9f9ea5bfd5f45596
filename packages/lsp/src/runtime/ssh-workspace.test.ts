import { chmod, cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path, { posix } from "node:path";
import { createSshWorkspace } from "@agent-tools/ssh";
import { startTestSshd, type TestSshd } from "@agent-tools/ssh/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSdkLanguageServers, typescriptServerConfig } from "./language-server-config.js";
import { createLanguageServerManager } from "./language-server-manager.js";
import { createLspEditDiagnostics } from "./lsp-edit-diagnostics.js";

/**
 * The TypeScript server over the real test sshd: spawned by the SSH
 * workspace's runner with stdin piped through the channel, files read over
 * SFTP. The command is this machine's node and the SDK's CLI by absolute
 * path (the remote machine is this one), as a host sets `command` for a
 * remote that has the servers installed.
 */
/**
 * The servers copied where the test account can read them: a checkout in a
 * private folder (a fresh clone under `mktemp -d`, mode 0700) is out of the
 * account's reach. Node resolves typescript-language-server's dependencies
 * from the copied `node_modules`.
 */
async function stageServersForAccount(): Promise<{ folder: string; paths: ReturnType<typeof resolveSdkLanguageServers> }> {
  const own = resolveSdkLanguageServers();
  if (!own.typescriptLanguageServer || !own.typescriptLib || !own.tsserverEntry) throw new Error("the SDK's TypeScript servers are installed for its tests");
  const folder = await mkdtemp(path.join(os.tmpdir(), "lsp-ssh-servers-"));
  await chmod(folder, 0o755);
  const tlsModules = path.resolve(own.typescriptLanguageServer, "../../..");
  await cp(tlsModules, path.join(folder, "node_modules"), { recursive: true, dereference: true });
  await cp(path.dirname(own.typescriptLib), path.join(folder, "node_modules", "typescript"), { recursive: true, dereference: true });
  await cp(path.resolve(own.tsserverEntry, "../.."), path.join(folder, "tsserver"), { recursive: true, dereference: true });
  return {
    folder,
    paths: {
      typescriptLanguageServer: path.join(folder, "node_modules", "typescript-language-server", "lib", "cli.mjs"),
      typescriptLib: path.join(folder, "node_modules", "typescript", "lib"),
      tsserverEntry: path.join(folder, "tsserver", "lib", "tsserver.js"),
    },
  };
}

describe("language servers over an SSH workspace (real sshd)", () => {
  let sshd: TestSshd;
  let staged: Awaited<ReturnType<typeof stageServersForAccount>>;
  beforeAll(async () => {
    sshd = await startTestSshd();
    staged = await stageServersForAccount();
  });
  afterAll(async () => {
    await sshd?.stop();
    if (staged) await rm(staged.folder, { recursive: true, force: true });
  });

  it("definition and diagnostics after a change, then close leaves no session process", async () => {
    const workspace = await createSshWorkspace(sshd.connectOptions);
    const root = workspace.root;
    const write = (name: string, text: string) => workspace.fs.writeFileAtomic(posix.join(root, name), Buffer.from(text));
    await write("tsconfig.json", JSON.stringify({ compilerOptions: { strict: true } }));
    await write("math.ts", "export function add(a: number, b: number): number {\n  return a + b;\n}\n");
    await write("main.ts", 'import { add } from "./math";\nexport const total: number = add(1, 2);\n');
    const processes = workspace.processes;
    if (!processes) throw new Error("the SSH workspace runs processes");
    const manager = createLanguageServerManager({
      workspaceRoot: root,
      processes,
      readFile: (path) => workspace.fs.readFile(path),
      servers: [typescriptServerConfig(staged.paths)],
    });
    try {
      const main = posix.join(root, "main.ts");
      const definition = await manager.request<Array<{ uri: string; range: { start: { line: number } } }>>(main, "textDocument/definition", ({ uri }) => ({
        textDocument: { uri },
        position: { line: 1, character: 30 },
      }));
      expect(definition.map((location) => [manager.pathOfUri(location.uri), location.range.start.line])).toEqual([[posix.join(root, "math.ts"), 0]]);
      expect(manager.status()[0]).toMatchObject({ serverId: "typescript", state: "running" });

      const diagnostics = createLspEditDiagnostics(manager, { budgetMs: 30_000, displayPath: (path) => posix.relative(root, path) });
      const baseline = await diagnostics.before([main]);
      await write("main.ts", 'import { add } from "./math";\nexport const total: string = add(1, 2);\n');
      const report = await diagnostics.after(baseline, [{ path: main, displayPath: "main.ts", change: "modified" }]);
      expect(report?.text).toBe("New problems after this change (TypeScript):\n main.ts:2:14 error TS2322 Type 'number' is not assignable to type 'string'.");
    } finally {
      await manager.close();
      await workspace.close();
    }
    expect(await sshd.sessionPids()).toEqual([]);
  });
});
