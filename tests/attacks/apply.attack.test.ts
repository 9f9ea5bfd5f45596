/**
 * Attacks on the apply of worktree subagents (issue 29, items 3 and 9), as a
 * model would make them: Agent calls through `executeToolCall` on registries
 * of `buildBuiltinToolRegistry`, with scripted children that change their
 * worktree with Bash, real git and real processes.
 *
 * - A symlink in the workspace (made by the parent's own Bash) never
 *   redirects an apply: a child's `evil/x` under `evil -> /outside`, or a
 *   child's edit of a file the workspace turned into a symlink, writes
 *   nothing outside; the apply is a reported conflict and the workspace's
 *   symlink stays.
 * - A parent change the apply did not see is never overwritten: 16 worktree
 *   children (two registries at once, so two apply queues) append one line
 *   each to the same file; every child that reports `applied` has its line
 *   in the file, the others report a conflict naming the file and keep their
 *   worktree, and the file holds exactly the lines of the applied ones.
 *
 * The SIGKILL attacks (an apply killed half-way) are in
 * apply-crash.attack.test.ts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ModelRequest, toolResultText } from "@agent-tools/core";
import { ScriptedModelClient, type ScriptedModelResponse } from "@agent-tools/core/testing";
import { type BuiltinToolRegistry, buildBuiltinToolRegistry } from "@agent-tools/sdk";
import type { SubagentBatchDetails, SubagentReportDetails } from "@agent-tools/subagents";
import { afterAll, describe, expect, it } from "vitest";
import { git, initRepository } from "./apply-repository.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-apply-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const agentOf = (request: ModelRequest) => /\(agent id: ([^)]+)\)/.exec(String(request.messages[0]?.content))?.[1] ?? "?";
const answered = (request: ModelRequest) => request.messages.some((message) => message.role === "assistant");

/** A model whose worktree children each run one Bash command (`commands[agent id]`), then finish. */
function bashModel(commands: Record<string, string>): ScriptedModelClient {
  return new ScriptedModelClient({
    respond: (request: ModelRequest): ScriptedModelResponse | string => {
      if (answered(request)) return "done";
      const command = commands[agentOf(request)];
      return command === undefined ? "nothing to do" : { toolCalls: [{ name: "Bash", arguments: { command } }] };
    },
  });
}

function scene(name: string, files: Record<string, string>) {
  const base = path.join(temporary, name);
  const workdir = path.join(base, "project");
  const outside = path.join(base, "outside");
  fs.mkdirSync(outside, { recursive: true });
  initRepository(workdir, files);
  return { workdir, outside, dataDir: path.join(base, "data") };
}

async function runAgents(registry: BuiltinToolRegistry, ids: readonly string[], callId: string): Promise<readonly SubagentReportDetails[]> {
  const result = await registry.executeToolCall({
    id: callId,
    name: "Agent",
    arguments: { agents: ids.map((id) => ({ id, prompt: `Task of ${id}.`, mode: "worktree", apply_policy: "auto" })) },
  });
  expect(result.isError, toolResultText(result)).toBe(false);
  return (result.details as SubagentBatchDetails).agents;
}

async function bash(registry: BuiltinToolRegistry, command: string): Promise<void> {
  const result = await registry.executeToolCall({ id: `bash-${Math.random()}`, name: "Bash", arguments: { command } });
  expect(result.isError, toolResultText(result)).toBe(false);
}

function tree(directory: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const name of fs.readdirSync(folder).sort()) {
      const full = path.join(folder, name);
      const info = fs.lstatSync(full);
      if (info.isDirectory()) walk(full);
      else out[path.relative(directory, full)] = info.isSymbolicLink() ? `-> ${fs.readlinkSync(full)}` : fs.readFileSync(full, "utf8");
    }
  };
  walk(directory);
  return out;
}

describe("attack: a worktree apply through a symlink in the workspace", () => {
  it("writes nothing under a folder the workspace has as a symlink to outside (evil/x under evil -> outside)", async () => {
    const { workdir, outside, dataDir } = scene("folder-link", { "README.md": "# demo\n" });
    fs.writeFileSync(path.join(outside, "x"), "victim\n");
    const outsideBefore = tree(outside);
    const model = bashModel({ writer: "mkdir -p evil && printf 'pwned\\n' > evil/x && printf 'pwned\\n' > evil/new" });
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, subagents: { model } });
    try {
      await bash(registry, `ln -s ${JSON.stringify(outside)} evil`);
      const [report] = await runAgents(registry, ["writer"], "call-folder-link");
      expect(tree(outside)).toEqual(outsideBefore);
      expect(report).toMatchObject({ status: "completed", applyStatus: "failed", worktreeCleanupStatus: "retained" });
      expect(report!.conflictFiles).toEqual(["evil/new", "evil/x"]);
      expect(report!.applyError).toMatch(/symlink/);
      expect(fs.readlinkSync(path.join(workdir, "evil"))).toBe(outside);
    } finally {
      await registry.close();
    }
  }, 60_000);

  it("a child's symlink to outside, then a later child's file under it: nothing is written outside", async () => {
    const { workdir, outside, dataDir } = scene("child-link", { "README.md": "# demo\n" });
    fs.writeFileSync(path.join(outside, "x"), "victim\n");
    const outsideBefore = tree(outside);
    const model = bashModel({
      linker: `ln -s ${JSON.stringify(outside)} evil`,
      writer: "mkdir -p evil && printf 'pwned\\n' > evil/x",
    });
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, subagents: { model } });
    try {
      await runAgents(registry, ["linker"], "call-linker");
      const [writer] = await runAgents(registry, ["writer"], "call-writer");
      expect(tree(outside)).toEqual(outsideBefore);
      const evil = fs.lstatSync(path.join(workdir, "evil"), { throwIfNoEntry: false });
      if (evil?.isSymbolicLink()) expect(writer).toMatchObject({ applyStatus: "failed", conflictFiles: ["evil/x"] });
    } finally {
      await registry.close();
    }
  }, 60_000);

  it("keeps a file the workspace turned into a symlink to outside: the child's edit of it is a conflict, not written through", async () => {
    const { workdir, outside, dataDir } = scene("leaf-link", { "notes.txt": "one\ntwo\n" });
    fs.writeFileSync(path.join(outside, "secret.txt"), "secret\n");
    const outsideBefore = tree(outside);
    const model = bashModel({ writer: "printf 'one\\nTWO\\n' > notes.txt" });
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, subagents: { model } });
    try {
      await bash(registry, `rm notes.txt && ln -s ${JSON.stringify(path.join(outside, "secret.txt"))} notes.txt`);
      const [report] = await runAgents(registry, ["writer"], "call-leaf-link");
      expect(tree(outside)).toEqual(outsideBefore);
      expect(report).toMatchObject({ applyStatus: "failed", conflictFiles: ["notes.txt"], worktreeCleanupStatus: "retained" });
      expect(fs.readlinkSync(path.join(workdir, "notes.txt"))).toBe(path.join(outside, "secret.txt"));
      expect(fs.readFileSync(path.join(report!.worktreePath!, "notes.txt"), "utf8")).toBe("one\nTWO\n");
    } finally {
      await registry.close();
    }
  }, 60_000);
});

describe("attack: concurrent applies to one file", () => {
  it("16 worktree children appending to one file, two registries at once: no applied line is lost, every loser reports a conflict", async () => {
    const { workdir, dataDir } = scene("appenders", { "log.txt": "base\n", "other.txt": "other\n" });
    const ids = Array.from({ length: 16 }, (_, index) => `a${index}`);
    const commands = Object.fromEntries(ids.map((id) => [id, `printf 'line from ${id}\\n' >> log.txt`]));
    const open = () => buildBuiltinToolRegistry({ workdir, dataDir, memory: false, subagents: { model: bashModel(commands) } });
    const [first, second] = await Promise.all([open(), open()]);
    let reports: SubagentReportDetails[];
    try {
      const batches = await Promise.all([runAgents(first, ids.slice(0, 8), "call-first"), runAgents(second, ids.slice(8), "call-second")]);
      reports = batches.flat();
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
    const lines = fs.readFileSync(path.join(workdir, "log.txt"), "utf8").split("\n").slice(0, -1);
    const applied = reports.filter((report) => report.applyStatus === "applied").map((report) => report.id);
    expect(applied.length).toBeGreaterThan(0);
    for (const report of reports) {
      expect(report.status).toBe("completed");
      if (report.applyStatus === "applied") expect(lines).toContain(`line from ${report.id}`);
      else {
        expect(report).toMatchObject({ applyStatus: "failed", conflictFiles: ["log.txt"], worktreeCleanupStatus: "retained" });
        expect(lines).not.toContain(`line from ${report.id}`);
        expect(fs.readFileSync(path.join(report.worktreePath!, "log.txt"), "utf8")).toBe(`base\nline from ${report.id}\n`);
      }
    }
    expect(lines[0]).toBe("base");
    expect(lines.slice(1).sort()).toEqual(applied.map((id) => `line from ${id}`).sort());
    expect(fs.readFileSync(path.join(workdir, "other.txt"), "utf8")).toBe("other\n");
  }, 120_000);
});

/** A model whose worktree children make one Edit (`old_string` to `new_string` in `file`), then finish. */
function editModel(file: string, oldString: string, newString: string): ScriptedModelClient {
  return new ScriptedModelClient({
    respond: (request: ModelRequest): ScriptedModelResponse | string =>
      answered(request) ? "done" : { toolCalls: [{ name: "Edit", arguments: { path: file, old_string: oldString, new_string: newString } }] },
  });
}

describe("a repository whose .gitattributes converts files on checkout (line endings, $Id$)", () => {
  it.each([
    ["* text eol=crlf", "a.ts", "const a = 1;\nconst b = 2;\n", "const a = 1;\r\nconst b = 3;\r\n"],
    ["*.ts ident", "a.ts", "// $Id$\nconst b = 2;\n", null],
    ["* text eol=crlf\n*.ts ident", "a.ts", "// $Id$\nconst b = 2;\n", null],
  ])(
    "%j: a worktree child's one-line Edit applies, the rest of the file as checked out",
    async (attributes, file, committed, expected) => {
      const { workdir, dataDir } = scene(`convert-${attributes.length}-${committed.length}`, { ".gitattributes": `${attributes}\n` });
      fs.writeFileSync(path.join(workdir, file), committed);
      git(workdir, "add", "-A");
      git(workdir, "commit", "-q", "-m", "converted");
      // The checkout as git leaves it (CRLF, $Id: <blob> $).
      fs.rmSync(path.join(workdir, file));
      git(workdir, "checkout", "--", file);
      const checkedOut = fs.readFileSync(path.join(workdir, file), "latin1");
      expect(checkedOut).not.toBe(committed);
      const registry = await buildBuiltinToolRegistry({
        workdir,
        dataDir,
        memory: false,
        subagents: { model: editModel(file, "const b = 2;", "const b = 3;") },
      });
      try {
        const [report] = await runAgents(registry, ["editor"], `call-${attributes}`);
        expect(report, report?.applyError).toMatchObject({ status: "completed", applyStatus: "applied" });
      } finally {
        await registry.close();
      }
      const after = fs.readFileSync(path.join(workdir, file), "latin1");
      expect(after).toBe(expected ?? checkedOut.replace("const b = 2;", "const b = 3;"));
      expect(git(workdir, "diff", "--stat")).toMatch(/1 file changed, 1 insertion\(\+\), 1 deletion/);
    },
    60_000,
  );
});
