/**
 * Glob and Grep on an SSH workspace with `rg` on the remote PATH run ripgrep
 * there (one `rg --files` for Glob; the local Grep's ripgrep runs for Grep)
 * instead of walking the tree and reading the files through SFTP (with the
 * anchored helper there, Grep's rg only names the files with a match, and
 * each of those alone is read once through the helper and matched here, so
 * a folder swapped for a symlink during the run is refused): counted by
 * a proxy around the workspace's file system, the answers compared with the
 * local disk's (a registry without a workspace on a copy of the same tree).
 * Patterns and file names with quotes, `$()`, newlines and a leading dash go
 * through as arguments (nothing runs). When `rg` does not start there, both
 * fall back to the walk with the same answers.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type ToolRegistry, toolResultText } from "@agent-tools/core";
import type { Workspace } from "@agent-tools/core/workspace";
import { createSshWorkspace } from "@agent-tools/ssh";
import type { TestSshd } from "@agent-tools/ssh/testing";
import { describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import { rgSshServers } from "./__fixtures__/rg-ssh-servers.js";

const { temporary, servers } = rgSshServers("agent-tools-sdk-search-rg-ssh-");

/** A name no shell line may carry unquoted. */
const HOSTILE = "-x 'q\"$(touch PWNED)`touch PWNED2`\nnext";

const FILES: Record<string, string> = {
  ".gitignore": "ignored/\n*.log\n",
  "src/a.ts": "export function alpha() {\n  return 1;\n}\n",
  "src/b.ts": "export function beta() {\n  return 'needle';\n}\n",
  "src/deep/c.ts": "// needle\nconst gamma = () => 3;\n",
  "src/d.js": "function delta() { return 4; }\n",
  "docs/readme.md": "A needle in docs.\n",
  "ignored/e.ts": "export function hidden() {}\n",
  "debug.log": "needle\n",
  ".hidden/f.ts": "export function dotted() { return 'needle'; }\n",
  [`odd/${HOSTILE}.ts`]: `const odd = "${HOSTILE}";\n`,
};

/** Writes FILES under `root`. */
function writeTree(root: string): void {
  for (const [relative, content] of Object.entries(FILES)) {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

/** Gives `target` (and what is under it) to the server's account. */
function giveToAccount(sshd: TestSshd, target: string, gid: number): void {
  fs.lchownSync(target, sshd.uid, gid);
  if (fs.lstatSync(target).isDirectory()) for (const name of fs.readdirSync(target)) giveToAccount(sshd, path.join(target, name), gid);
}

/** Calls to the workspace's file system, by method. */
type Calls = Record<string, number>;

/** The workspace with its file system counted and, when asked, ripgrep claimed although it is not there. */
function counted(workspace: Workspace, calls: Calls, claimRipgrep: boolean): Workspace {
  const fsProxy = new Proxy(workspace.fs, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls[String(key)] = (calls[String(key)] ?? 0) + 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return {
    kind: workspace.kind,
    label: workspace.label,
    root: workspace.root,
    fs: fsProxy,
    processes: workspace.processes,
    capabilities: claimRipgrep ? { ...workspace.capabilities, ripgrep: true } : workspace.capabilities,
    close: () => workspace.close(),
  };
}

interface Side {
  registry: ToolRegistry;
  /** The workspace's opens are anchored (Grep reads the files rg named through the helper). */
  anchored: boolean;
  root: string;
  calls: Calls;
  close(): Promise<void>;
}

async function sshSide(which: "withRg" | "withoutRg", claimRipgrep = false): Promise<Side> {
  const sshd = servers[which]!;
  const base = path.join(sshd.root, `case-${randomBytes(5).toString("hex")}`);
  const root = path.join(base, "root");
  writeTree(root);
  giveToAccount(sshd, base, fs.statSync(sshd.root).gid);
  const calls: Calls = {};
  const ssh = await createSshWorkspace({ ...sshd.connectOptions, root });
  expect(ssh.capabilities.ripgrep).toBe(which === "withRg");
  const workspace = counted(ssh, calls, claimRipgrep);
  const dataDir = path.join(temporary, `data-${randomBytes(5).toString("hex")}`);
  const registry = await buildBuiltinToolRegistry({ workspace, dataDir, memory: false });
  return {
    registry,
    anchored: ssh.capabilities.anchoredOpens,
    root,
    calls,
    close: async () => {
      await registry.close();
      await workspace.close();
      fs.rmSync(base, { recursive: true, force: true });
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function localSide(): Promise<Side> {
  const base = fs.mkdtempSync(path.join(temporary, "local-"));
  const root = path.join(base, "root");
  writeTree(root);
  const registry = await buildBuiltinToolRegistry({ workdir: root, dataDir: path.join(base, "data"), memory: false });
  return { registry, anchored: false, root, calls: {}, close: async () => registry.close() };
}

let callId = 0;
async function call(side: Side, name: string, args: Record<string, unknown>) {
  const result = await side.registry.executeToolCall({ id: `c${(callId += 1)}`, name, arguments: args });
  return { text: toolResultText(result), details: result.details as Record<string, unknown> | undefined, isError: result.isError === true };
}

const GLOBS = [{ pattern: "**/*.ts" }, { pattern: "*.md" }, { pattern: "src/**", path: "src" }, { pattern: "**/*.ts", offset: 1, max_results: 2 }];
const GREPS: Record<string, unknown>[] = [
  { pattern: "needle" },
  { pattern: "needle", output_mode: "files" },
  { pattern: "needle", output_mode: "count" },
  { pattern: "function\\s+\\w+", context: 1 },
  { pattern: "NEEDLE", ignore_case: true, file_pattern: "*.ts" },
  { pattern: "return", head_limit: 2, offset: 1 },
  { pattern: "\\$\\(touch PWNED\\)" },
  { pattern: HOSTILE },
  { pattern: "-x 'q\"$(touch PWNED)", output_mode: "files" },
  { pattern: "needle", path: "src" },
  { pattern: "(unclosed" },
  // A page the output cap ends: counted first, then the page's files passed back to rg as arguments (the odd name among them).
  { pattern: "needle|odd|return", head_limit: 60000 },
  { pattern: "function alpha\\(\\) \\{\\n  return", multiline: true },
];

describe("Glob and Grep on an SSH workspace with rg there", () => {
  it("run ripgrep in the workspace with the local disk's answers (reads only to check what rg found, through the anchored helper)", async () => {
    const [local, remote] = await Promise.all([localSide(), sshSide("withRg")]);
    try {
      for (const args of GLOBS) {
        const before = { ...remote.calls };
        const [mine, theirs] = [await call(remote, "Glob", args), await call(local, "Glob", args)];
        expect(mine.text, JSON.stringify(args)).toBe(theirs.text);
        // Anchored: the folders holding what rg listed are listed through the helper (each name checked there); else no folder is read.
        const listed = mine.text
          .split("\n")
          .slice(1)
          .filter((line) => line !== "" && !line.startsWith("..."));
        const listings = (remote.calls.readdir ?? 0) - (before.readdir ?? 0);
        if (!remote.anchored || listed.length === 0) expect(listings, `readdir during Glob ${JSON.stringify(args)}`).toBe(0);
        else expect(listings, `readdir during Glob ${JSON.stringify(args)}`).toBeGreaterThan(0);
      }
      for (const args of GREPS) {
        const before = { ...remote.calls };
        const [mine, theirs] = [await call(remote, "Grep", args), await call(local, "Grep", args)];
        expect(mine.text, JSON.stringify(args)).toBe(theirs.text);
        expect(mine.isError, JSON.stringify(args)).toBe(theirs.isError);
        if (!mine.isError) expect(mine.details?.engine, JSON.stringify(args)).toBe("ripgrep");
        for (const method of ["readdir", "readStream"]) {
          expect(remote.calls[method] ?? 0, `${method} during Grep ${JSON.stringify(args)}`).toBe(before[method] ?? 0);
        }
        // Anchored: each file with a match (and only those) read once through the helper; else none.
        const reads = (remote.calls.readFile ?? 0) - (before.readFile ?? 0);
        const matched = typeof theirs.details?.fileCount === "number" ? theirs.details.fileCount : 0;
        expect(reads, `readFile during Grep ${JSON.stringify(args)}`).toBe(remote.anchored ? matched : 0);
      }
      // Nothing of the names or patterns ran as a command, neither in the searched folder nor in the account's home.
      for (const where of [remote.root, path.dirname(remote.root), servers.withRg!.root]) {
        expect(fs.existsSync(path.join(where, "PWNED"))).toBe(false);
        expect(fs.existsSync(path.join(where, "PWNED2"))).toBe(false);
      }
    } finally {
      await Promise.all([local.close(), remote.close()]);
    }
  });

  it("fall back to the walk through SFTP when rg does not start in the workspace, with the same answers", async () => {
    const [local, remote] = await Promise.all([localSide(), sshSide("withoutRg", true)]);
    try {
      const glob = await call(remote, "Glob", { pattern: "**/*.ts" });
      expect(glob.text).toBe((await call(local, "Glob", { pattern: "**/*.ts" })).text);
      expect(remote.calls.readdir ?? 0).toBeGreaterThan(0);
      for (const args of [{ pattern: "needle" }, { pattern: "needle", output_mode: "files" }]) {
        const grep = await call(remote, "Grep", args);
        expect(grep.text).toBe((await call(local, "Grep", args)).text);
        expect(grep.details?.engine).toBe("typescript");
      }
    } finally {
      await Promise.all([local.close(), remote.close()]);
    }
  });
});
