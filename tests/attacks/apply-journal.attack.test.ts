/**
 * Attacks on the crash journal of worktree subagent applies (issue 29): a
 * journal is rolled back by the host without the apply's checks, so a model
 * that can write one makes the host create what the apply itself refuses
 * (a symlink to outside the workspace, a `.git` entry whose config and hooks
 * the host's git then obeys).
 *
 * - A journal Written where an older version kept it (the state folder
 *   `.agent-tools-subagents/<name>` of a registry opened on a subfolder of
 *   the workspace) is never acted on by that registry's start.
 * - The journal's folder (`.git/agent-tools`) is refused to the file tools
 *   and read-only to a sandboxed Bash.
 * - A journal in that folder holding an entry the apply would refuse is set
 *   aside untouched, by the next worktree apply as by a registry's start.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ModelRequest, toolResultText } from "@agent-tools/core";
import { ScriptedModelClient, type ScriptedModelResponse } from "@agent-tools/core/testing";
import { type BuiltinToolRegistry, buildBuiltinToolRegistry } from "@agent-tools/sdk";
import type { SubagentBatchDetails } from "@agent-tools/subagents";
import { afterAll, describe, expect, it } from "vitest";
import { initRepository } from "./apply-repository.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-apply-journal-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const answered = (request: ModelRequest) => request.messages.some((message) => message.role === "assistant");

/** A model whose worktree children run `command` with Bash once, then finish. */
function bashModel(command: string): ScriptedModelClient {
  return new ScriptedModelClient({
    respond: (request: ModelRequest): ScriptedModelResponse | string =>
      answered(request) ? "done" : { toolCalls: [{ name: "Bash", arguments: { command } }] },
  });
}

function scene(name: string) {
  const base = path.join(temporary, name);
  const workdir = path.join(base, "project");
  const outside = path.join(base, "outside");
  fs.mkdirSync(outside, { recursive: true });
  fs.writeFileSync(path.join(outside, "secret.txt"), "secret\n");
  initRepository(workdir, { "README.md": "# demo\n", "app/index.ts": "export {};\n" });
  const planted = path.join(base, "planted-git");
  return { workdir, outside, planted, dataDir: path.join(base, "data") };
}

/** A journal that "restores" a symlink to outside, a gitfile into a planted git directory and a file under `.git`. */
function forgedJournal(repositoryRoot: string, outside: string, planted: string): string {
  const file = (text: string) => ({ kind: "file", mode: 0o644, base64: Buffer.from(text).toString("base64") });
  return JSON.stringify({
    version: 1,
    pid: 1,
    repositoryRoot,
    startedAt: 0,
    createdDirectories: [],
    entries: [
      { path: "escape", pre: { kind: "link", target: outside }, post: { kind: "missing" } },
      { path: "sub/.git", pre: file(`gitdir: ${planted}\n`), post: { kind: "missing" } },
      { path: "sub/.GIT./config", pre: file("[core]\n\tfsmonitor = touch pwned\n"), post: { kind: "missing" } },
    ],
  });
}

/** What the forged journal would have made under `root`. */
function forgedLeftovers(root: string): string[] {
  return ["escape", "sub/.git", "sub/.GIT.", "sub"].filter((relative) => fs.lstatSync(path.join(root, relative), { throwIfNoEntry: false }) !== undefined);
}

async function call(registry: BuiltinToolRegistry, name: string, args: Record<string, unknown>) {
  return registry.executeToolCall({ id: `${name}-${Math.random()}`, name, arguments: args });
}

describe("attack: a forged apply journal", () => {
  it("a journal Written into the workspace where the state folder of a subfolder's registry is: that registry's start acts on none of it", async () => {
    const { workdir, outside, planted, dataDir } = scene("state-folder");
    const app = path.join(workdir, "app");
    const model = bashModel("true");
    const parent = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, subagents: { model } });
    try {
      const journal = forgedJournal(app, outside, planted);
      const written = await call(parent, "Write", { path: ".agent-tools-subagents/app/apply-journal.json", content: journal });
      expect(written.isError, toolResultText(written)).toBe(false);
      const refused = await call(parent, "Write", { path: ".git/agent-tools/apply-journal.json", content: forgedJournal(workdir, outside, planted) });
      expect(refused.isError).toBe(true);
    } finally {
      await parent.close();
    }
    // A host (or the next session) opens a registry on the package.
    const child = await buildBuiltinToolRegistry({ workdir: app, dataDir, memory: false, subagents: { model } });
    await child.close();
    expect(forgedLeftovers(app)).toEqual([]);
    expect(forgedLeftovers(workdir)).toEqual([]);
  }, 60_000);

  it("a sandboxed Bash cannot write the journal folder in .git", async () => {
    const { workdir, outside, planted, dataDir } = scene("sandbox");
    const model = bashModel("true");
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, sandbox: { enabled: true }, subagents: { model } });
    const journalFolder = path.join(workdir, ".git", "agent-tools");
    try {
      expect(fs.statSync(journalFolder).isDirectory()).toBe(true);
      const journal = forgedJournal(workdir, outside, planted).replaceAll("'", "");
      await call(registry, "Bash", { command: `printf '%s' '${journal}' > .git/agent-tools/apply-journal.json` });
      await call(registry, "Bash", { command: "rm -rf .git/agent-tools; mkdir -p .git/agent-tools && touch .git/agent-tools/apply-journal.json" });
      await call(registry, "Bash", { command: "mv .git/agent-tools .git/old-agent-tools" });
    } finally {
      await registry.close();
    }
    expect(fs.readdirSync(journalFolder)).toEqual([]);
  }, 60_000);

  it("a journal in .git/agent-tools holding what the apply refuses is set aside by the next worktree apply, which then applies", async () => {
    const { workdir, outside, planted, dataDir } = scene("next-apply");
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, subagents: { model: bashModel("printf 'child\\n' > child.txt") } });
    try {
      // What a bypass of the file tools and the sandbox would leave (written by the test, as the host's user).
      const journalFolder = path.join(workdir, ".git", "agent-tools");
      fs.writeFileSync(path.join(journalFolder, "apply-journal.json"), forgedJournal(workdir, outside, planted));
      const result = await call(registry, "Agent", { agents: [{ id: "writer", prompt: "Write child.txt.", mode: "worktree", apply_policy: "auto" }] });
      expect(result.isError, toolResultText(result)).toBe(false);
      const [report] = (result.details as SubagentBatchDetails).agents;
      expect(report).toMatchObject({ status: "completed", applyStatus: "applied" });
      expect(fs.readFileSync(path.join(workdir, "child.txt"), "utf8")).toBe("child\n");
      expect(forgedLeftovers(workdir)).toEqual([]);
      const names = fs.readdirSync(journalFolder);
      expect(names.filter((name) => name.startsWith("apply-journal.json.unreadable-"))).toHaveLength(1);
      expect(names).not.toContain("apply-journal.json");
    } finally {
      await registry.close();
    }
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("secret\n");
  }, 60_000);
});
