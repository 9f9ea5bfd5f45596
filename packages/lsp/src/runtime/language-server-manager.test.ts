import { readFileSync } from "node:fs";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ExecaProcessRunner } from "@agent-tools/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLanguageServerManager, type LanguageServerManager, managerInternals } from "./language-server-manager.js";

interface Location {
  uri: string;
  range: { start: { line: number; character: number } };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("language server manager (typescript-language-server, real)", () => {
  let root: string;
  let runner: ExecaProcessRunner;
  let manager: LanguageServerManager;
  const pidsSeen = new Set<number>();

  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), "lsp-manager-")));
    await writeFile(
      join(root, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { strict: true, target: "ES2022", module: "ESNext", moduleResolution: "Bundler" }, include: ["*.ts"] }),
    );
    await writeFile(join(root, "math.ts"), "export function add(a: number, b: number): number {\n  return a + b;\n}\n");
    await writeFile(join(root, "main.ts"), 'import { add } from "./math";\n\nexport const total: number = add(1, 2);\nexport const again = add(total, 3);\n');
    runner = new ExecaProcessRunner();
    manager = createLanguageServerManager({ workspaceRoot: root, processes: runner, readFile: (path) => readFile(path), maxOpenDocuments: 2 });
  });

  afterAll(async () => {
    await manager.close();
    await runner.close();
    await rm(root, { recursive: true, force: true });
  });

  const collectPids = () => {
    for (const entry of manager.status()) if (entry.pid) pidsSeen.add(entry.pid);
    // The whole tree: typescript-language-server and the tsserver it forks.
    for (const pid of managerInternals(manager)?.runningInstanceFor(join(root, "main.ts"))?.livePids() ?? []) pidsSeen.add(pid);
  };

  it("starts on demand and answers definition, hover and references", async () => {
    expect(manager.status()).toEqual([]);
    const main = join(root, "main.ts");
    const definition = await manager.request<Location[] | Location>(main, "textDocument/definition", ({ uri }) => ({
      textDocument: { uri },
      position: { line: 2, character: 30 },
    }));
    collectPids();
    const first = Array.isArray(definition) ? definition[0] : definition;
    expect(manager.pathOfUri(first?.uri ?? "")).toBe(join(root, "math.ts"));
    expect(first?.range.start.line).toBe(0);

    const hover = await manager.request<{ contents: { value?: string } | string }>(main, "textDocument/hover", ({ uri }) => ({
      textDocument: { uri },
      position: { line: 2, character: 30 },
    }));
    expect(JSON.stringify(hover.contents)).toContain("add(a: number, b: number): number");

    const references = await manager.request<Location[]>(join(root, "math.ts"), "textDocument/references", ({ uri }) => ({
      textDocument: { uri },
      position: { line: 0, character: 17 },
      context: { includeDeclaration: false },
    }));
    const lines = references.map((reference) => `${manager.pathOfUri(reference.uri)?.slice(root.length + 1)}:${reference.range.start.line}`).sort();
    expect(lines).toEqual(["main.ts:0", "main.ts:2", "main.ts:3"]);
    const [status] = manager.status();
    expect(status).toMatchObject({ serverId: "typescript", root, state: "running", restarts: 0, openDocuments: 2 });
  });

  it("publishes a type error after the file changes on disk", async () => {
    const main = join(root, "main.ts");
    const clean = await manager.diagnostics(main, { waitMs: 20_000 });
    expect(clean.diagnostics.filter((d) => d.severity === 1)).toEqual([]);
    await writeFile(main, 'import { add } from "./math";\n\nexport const total: number = add(1, 2);\nexport const broken: number = "text";\n');
    const broken = await manager.diagnostics(main, { waitMs: 20_000 });
    expect(broken.status).toBe("ready");
    expect(broken.diagnostics.map((d) => [d.range.start.line, d.code, d.severity])).toEqual([[3, 2322, 1]]);
  });

  it("closes the least recently used document past maxOpenDocuments", async () => {
    await writeFile(join(root, "third.ts"), "export const three = 3;\n");
    await manager.request(join(root, "third.ts"), "textDocument/hover", ({ uri }) => ({ textDocument: { uri }, position: { line: 0, character: 14 } }));
    expect(manager.status()[0]?.openDocuments).toBe(2);
  });

  it("restarts a server killed with SIGKILL on the next request (restarts = 1)", async () => {
    const pid = manager.status()[0]?.pid as number;
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, "SIGKILL");
    await until(() => manager.status()[0]?.state === "crashed");
    const hover = await manager.request<{ contents: unknown }>(join(root, "math.ts"), "textDocument/hover", ({ uri }) => ({
      textDocument: { uri },
      position: { line: 0, character: 17 },
    }));
    expect(JSON.stringify(hover.contents)).toContain("add");
    collectPids();
    const [status] = manager.status();
    expect(status).toMatchObject({ state: "running", restarts: 1 });
    expect(status?.pid).not.toBe(pid);
  });

  it("an aborted request rejects at once and the server keeps serving", async () => {
    const controller = new AbortController();
    const pending = manager.request(
      join(root, "main.ts"),
      "textDocument/references",
      ({ uri }) => ({ textDocument: { uri }, position: { line: 0, character: 10 }, context: { includeDeclaration: true } }),
      {
        signal: controller.signal,
      },
    );
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
    const hover = await manager.request<{ contents: unknown }>(join(root, "math.ts"), "textDocument/hover", ({ uri }) => ({
      textDocument: { uri },
      position: { line: 0, character: 17 },
    }));
    expect(JSON.stringify(hover.contents)).toContain("add");
  });

  it("close() leaves no server process", async () => {
    collectPids();
    expect(pidsSeen.size).toBeGreaterThanOrEqual(3);
    await manager.close();
    expect([...pidsSeen].filter(isAlive)).toEqual([]);
    expect(manager.status().every((entry) => entry.state === "stopped")).toBe(true);
    await expect(manager.request(join(root, "main.ts"), "textDocument/hover", () => ({}))).rejects.toThrow(/closed/);
  });
});
