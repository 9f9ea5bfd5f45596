/**
 * Subagents on an SSH workspace (the real OpenSSH server of
 * @agent-tools/ssh/testing, as root only): a worktree child's worktree is
 * made by the remote's git through the workspace's processes, inside the
 * workspace root, and its changes are applied through the workspace's
 * file system: a write applied, a conflicting parent change (nothing
 * written), a link leaving the root (refused), a read-only child.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ModelRequest } from "@agent-tools/core";
import { ScriptedModelClient, type ScriptedModelResponse } from "@agent-tools/core/testing";
import type { Workspace } from "@agent-tools/core/workspace";
import { createSshWorkspace } from "@agent-tools/ssh";
import { type TestSshd, startTestSshd } from "@agent-tools/ssh/testing";
import type { SubagentBatchDetails, SubagentReportDetails } from "@agent-tools/subagents";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import { openFileCheckpoints } from "./checkpoint-wiring.js";

const asRoot = process.getuid?.() === 0;
const localTemporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-subagents-ssh-")));
let sshd: TestSshd | undefined;
const cleanups: Array<() => Promise<unknown> | unknown> = [];

beforeAll(async () => {
  if (asRoot) sshd = await startTestSshd();
}, 60_000);
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
  await sshd?.stop();
  fs.rmSync(localTemporary, { recursive: true, force: true });
}, 60_000);

function server(): TestSshd {
  if (sshd === undefined) throw new Error("the test sshd did not start");
  return sshd;
}

/** Runs `script` as the SSH account (what the remote user does). */
function asUser(script: string, cwd = "/"): string {
  return execFileSync("runuser", ["-u", server().username, "--", "/bin/sh", "-c", script], { encoding: "utf8", cwd });
}

/** A committed repository under the server's root, the SSH account's, with `files`; returns its path. */
function remoteRepository(name: string, files: Record<string, string>): string {
  const root = path.join(server().root, name);
  fs.mkdirSync(root, { recursive: true });
  for (const [relative, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
  }
  execFileSync("chown", ["-R", `${server().uid}`, root]);
  asUser("git init -q -b main && git config core.autocrlf false && git add -A && git -c user.name=t -c user.email=t@e commit -q -m init", root);
  return root;
}

async function openWorkspace(root: string): Promise<Workspace> {
  const workspace = await createSshWorkspace({ ...server().connectOptions, root });
  cleanups.push(() => workspace.close());
  return workspace;
}

const agentOf = (request: ModelRequest) => /\(agent id: ([^)]+)\)/.exec(String(request.messages[0]?.content))?.[1] ?? "?";
const turnOf = (request: ModelRequest) => request.messages.filter((message) => message.role === "assistant").length;

/** Runs one Agent call of `agents` on a registry over `workspace` at `workdir`; returns each agent's report. */
async function runAgents(
  workspace: Workspace,
  workdir: string,
  respond: (request: ModelRequest) => ScriptedModelResponse | string,
  agents: readonly Record<string, unknown>[],
): Promise<readonly SubagentReportDetails[]> {
  const model = new ScriptedModelClient({ respond });
  const dataDir = fs.mkdtempSync(path.join(localTemporary, "data-"));
  const registry = await buildBuiltinToolRegistry({ workspace, workdir, dataDir, memory: false, subagents: { model, conversationId: "chat-ssh" } });
  try {
    const result = await registry.executeToolCall({ id: "call_1", name: "Agent", arguments: { agents } });
    return (result.details as SubagentBatchDetails).agents;
  } finally {
    await registry.close();
  }
}

/** The worktree folders of `repository` (a `.agent-tools-subagents` folder beside it or in `base`). */
function worktreeFolders(base: string, repository: string): string[] {
  const folder = path.join(base, ".agent-tools-subagents", path.basename(repository));
  return fs.existsSync(folder) ? fs.readdirSync(folder).filter((name) => !name.startsWith(".")) : [];
}

describe.skipIf(!asRoot)("buildBuiltinToolRegistry({ workspace: ssh, subagents })", () => {
  it("makes a worktree child's worktree with the remote's git inside the root and applies its write through the workspace", async () => {
    const repository = remoteRepository("apply", { "README.md": "# demo\n", "src/a.ts": "export const a = 1;\n" });
    const workspace = await openWorkspace(server().root);
    const seen: { worktree?: string; owner?: number; tools?: string[] } = {};
    const agents = await runAgents(
      workspace,
      repository,
      (request) => {
        const agent = agentOf(request);
        if (turnOf(request) > 0) return `done ${agent}`;
        if (agent === "reader") return { toolCalls: [{ name: "Read", arguments: { path: "README.md" } }] };
        // The worktree exists now: made on the remote, by the SSH account (a local git would make it root's).
        const [name] = worktreeFolders(server().root, repository);
        seen.worktree = name;
        if (name !== undefined) seen.owner = fs.statSync(path.join(server().root, ".agent-tools-subagents", "apply", name, "src", "a.ts")).uid;
        seen.tools = (request.tools ?? []).map((tool) => tool.name);
        return { toolCalls: [{ name: "Write", arguments: { path: "src/a.ts", content: "export const a = 2;\n" } }] };
      },
      [
        { id: "reader", prompt: "Read the README." },
        { id: "writer", prompt: "Set a to 2.", mode: "worktree", apply_policy: "auto" },
      ],
    );
    expect(agents.map((agent) => [agent.id, agent.status])).toEqual([
      ["reader", "completed"],
      ["writer", "completed"],
    ]);
    expect(agents[1]).toMatchObject({ applyStatus: "applied", worktreeCleanupStatus: "removed", changedPaths: ["src/a.ts"] });
    expect(agents[1]?.worktreePath).toMatch(new RegExp(`^${server().root}/\\.agent-tools-subagents/apply/`));
    expect(seen.worktree).toBeDefined();
    expect(seen.owner).toBe(server().uid);
    expect(seen.tools).toEqual(expect.arrayContaining(["Bash", "Write", "Read"]));
    // On the remote (read through the workspace) and, the server being this machine, on its disk.
    expect((await workspace.fs.readFile(path.join(repository, "src/a.ts"))).toString("utf8")).toBe("export const a = 2;\n");
    expect(asUser("git status --porcelain", repository)).toBe(" M src/a.ts\n");
    expect(asUser("git branch --list 'agent-tools/*'", repository)).toBe("");
    expect(worktreeFolders(server().root, repository)).toEqual([]);
  }, 180_000);

  it("puts the worktree in an ignored folder inside the root when the root is the repository, and writes nothing on a conflict", async () => {
    const repository = remoteRepository("conflict", { "src/a.ts": "one\ntwo\nthree\n" });
    const workspace = await openWorkspace(repository);
    let inside: string[] = [];
    const agents = await runAgents(
      workspace,
      repository,
      (request) => {
        if (turnOf(request) > 0) return "done";
        inside = worktreeFolders(repository, repository);
        // The parent changes the same line after the worktree was made.
        asUser("printf 'ONE-PARENT\\ntwo\\nthree\\n' > src/a.ts", repository);
        return { toolCalls: [{ name: "Write", arguments: { path: "src/a.ts", content: "ONE-CHILD\ntwo\nthree\n" } }] };
      },
      [{ id: "writer", prompt: "Change line one.", mode: "worktree", apply_policy: "auto" }],
    );
    expect(inside).toHaveLength(1);
    expect(agents[0]).toMatchObject({ applyStatus: "failed", conflictFiles: ["src/a.ts"] });
    expect(agents[0]?.worktreePath).toMatch(new RegExp(`^${repository}/\\.agent-tools-subagents/conflict/`));
    expect(fs.readFileSync(path.join(repository, "src/a.ts"), "utf8")).toBe("ONE-PARENT\ntwo\nthree\n");
    // git ignores the worktree folder: only the parent's own change shows.
    expect(asUser("git status --porcelain --untracked-files=all", repository)).toBe(" M src/a.ts\n");
  }, 180_000);

  it("merges a parent change on other lines, and refuses a link the child made that leaves the root", async () => {
    const repository = remoteRepository("merge", { "src/a.ts": "one\ntwo\nthree\nfour\nfive\n" });
    const outside = path.join(path.dirname(server().root), `outside-merge-${process.pid}`);
    asUser(`mkdir -p '${outside}' && printf 'SECRET\\n' > '${outside}/secret.txt'`);
    cleanups.push(() => fs.rmSync(outside, { recursive: true, force: true }));
    const workspace = await openWorkspace(server().root);
    const agents = await runAgents(
      workspace,
      repository,
      (request) => {
        const agent = agentOf(request);
        if (turnOf(request) > 0) return `done ${agent}`;
        if (agent === "linker")
          return { toolCalls: [{ name: "Bash", arguments: { command: `ln -s '${outside}/secret.txt' leak.txt && printf 'x\\n' > b.ts` } }] };
        asUser("printf 'one\\ntwo\\nthree\\nfour\\nFIVE-PARENT\\n' > src/a.ts", repository);
        return { toolCalls: [{ name: "Write", arguments: { path: "src/a.ts", content: "ONE-CHILD\ntwo\nthree\nfour\nfive\n" } }] };
      },
      [
        { id: "merger", prompt: "Change line one.", mode: "worktree", apply_policy: "auto" },
        { id: "linker", prompt: "Link.", mode: "worktree", apply_policy: "auto" },
      ],
    );
    expect(agents[0]).toMatchObject({ applyStatus: "applied", applyMethod: "git_apply_3way" });
    expect(fs.readFileSync(path.join(repository, "src/a.ts"), "utf8")).toBe("ONE-CHILD\ntwo\nthree\nfour\nFIVE-PARENT\n");
    expect(agents[1]).toMatchObject({ applyStatus: "failed" });
    expect(agents[1]?.applyError).toMatch(/leak\.txt/);
    expect(fs.existsSync(path.join(repository, "leak.txt"))).toBe(false);
    expect(fs.existsSync(path.join(repository, "b.ts"))).toBe(false);
  }, 180_000);

  it("records the apply in the Agent call's checkpoint through the workspace, and a rewind through it restores the parent", async () => {
    const repository = remoteRepository("rewind", { "src/a.ts": "export const a = 1;\n", "src/gone.ts": "gone\n" });
    const workspace = await openWorkspace(server().root);
    const model = new ScriptedModelClient({
      respond: (request) =>
        turnOf(request) > 0
          ? "done"
          : {
              toolCalls: [
                { name: "Bash", arguments: { command: "printf 'export const a = 2;\\n' > src/a.ts && printf 'new\\n' > src/new.ts && rm src/gone.ts" } },
              ],
            },
    });
    const dataDir = fs.mkdtempSync(path.join(localTemporary, "data-"));
    const registry = await buildBuiltinToolRegistry({
      workspace,
      workdir: repository,
      dataDir,
      memory: false,
      checkpoints: { id: "t-1" },
      subagents: { model },
    });
    try {
      const result = await registry.executeToolCall({
        id: "call_agent",
        name: "Agent",
        arguments: { agents: [{ id: "writer", prompt: "Change.", mode: "worktree", apply_policy: "auto" }] },
      });
      expect((result.details as SubagentBatchDetails).agents[0]).toMatchObject({ applyStatus: "applied" });
    } finally {
      await registry.close();
    }
    const at = (relative: string) => path.join(repository, relative);
    const checkpoints = openFileCheckpoints({ dataDir });
    try {
      const entries = await checkpoints.listEntries("t-1");
      // Keyed by the workspace (its label) and the remote path.
      const key = (relative: string) => `workspace:${encodeURIComponent(workspace.label)}:${at(relative)}`;
      expect(entries.map((entry) => [entry.path, entry.toolName, entry.pre.kind, entry.post?.kind])).toEqual([
        [key("src/a.ts"), "Agent", "file", "file"],
        [key("src/gone.ts"), "Agent", "file", "absent"],
        [key("src/new.ts"), "Agent", "absent", "file"],
      ]);
      // Keyed by the workspace: a rewind of this host's files leaves them alone.
      const local = await checkpoints.rewindCheckpoint("t-1");
      expect([...local.restored, ...local.removed]).toEqual([]);
      const report = await checkpoints.rewindCheckpoint("t-1", { workspace });
      expect(report).toMatchObject({ restored: [at("src/a.ts"), at("src/gone.ts")], removed: [at("src/new.ts")], conflicts: [] });
      expect(asUser("git status --porcelain --untracked-files=all", repository)).toBe("");
    } finally {
      await checkpoints.close();
    }
  }, 180_000);

  it("waits for the repository's apply lock another client of the workspace holds, and works from a root that is a folder of the repository", async () => {
    const repository = remoteRepository("locked", { "app/a.txt": "one\n", "other.txt": "other\n" });
    const appRoot = path.join(repository, "app");
    const workspace = await openWorkspace(appRoot);
    const holder = await openWorkspace(appRoot);
    // The worktree folder is inside the root (app/.agent-tools-subagents/locked/), so is its apply lock.
    const folder = path.join(appRoot, ".agent-tools-subagents", "locked");
    let childDone!: () => void;
    const finished = new Promise<void>((resolve) => {
      childDone = resolve;
    });
    const call = runAgents(
      workspace,
      appRoot,
      (request) => {
        if (turnOf(request) > 0) {
          childDone();
          return "done";
        }
        return { toolCalls: [{ name: "Write", arguments: { path: "a.txt", content: "two\n" } }] };
      },
      [{ id: "writer", prompt: "Change a.", mode: "worktree", apply_policy: "auto" }],
    );
    // Taken while the child works (its worktree folder exists by then), before the apply starts.
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (fs.existsSync(folder) && worktreeFolders(appRoot, repository).length > 0) {
          clearInterval(poll);
          resolve();
        }
      }, 20);
    });
    const lock = await holder.fs.lock(path.join(folder, ".apply"));
    await finished;
    // A generous wait: the apply, were it not waiting for the lock, would have written by now.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(fs.readFileSync(path.join(appRoot, "a.txt"), "utf8")).toBe("one\n");
    await lock.release();
    const agents = await call;
    expect(agents[0]).toMatchObject({ applyStatus: "applied", changedPaths: ["app/a.txt"], worktreeCleanupStatus: "removed" });
    expect(fs.readFileSync(path.join(appRoot, "a.txt"), "utf8")).toBe("two\n");
    expect(asUser("git status --porcelain --untracked-files=all", repository)).toBe(" M app/a.txt\n");
    expect(fs.existsSync(path.join(appRoot, ".agent-tools-subagents"))).toBe(false);
  }, 180_000);
});
