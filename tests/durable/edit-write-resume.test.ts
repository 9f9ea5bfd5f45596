/**
 * Write and Edit calls interrupted by a crash, resumed through a registry
 * built by `buildBuiltinToolRegistry` with a call ledger. The crash is the
 * honest one the executor meets: the first registry runs the call with a
 * ledger whose `finish` fails, so the call stays `started` with no outcome
 * (as when the host dies right after the tool returned); for a crash before
 * the write, the file is then put back as it was. A second registry (a new
 * host: no file state) runs the same call with the same run id.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ToolCall, type ToolResult, toolResultText } from "@agent-tools/core";
import type { CallLedger } from "@agent-tools/core/durable";
import { type MemoryWorkspace, createMemoryWorkspace } from "@agent-tools/core/workspace";
import { InMemoryCallLedger } from "@agent-tools/durable";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { FinishFailingLedger } from "./__fixtures__/finish-failing-ledger.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-durable-resume-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

let counter = 0;
function fresh(name: string): string {
  counter += 1;
  const directory = path.join(temporary, `${name}-${counter}`);
  fs.mkdirSync(directory, { recursive: true });
  return directory;
}

interface Host {
  readonly workdir?: string;
  readonly workspace?: MemoryWorkspace;
  readonly dataDir: string;
}

/** Runs `call` durably on a registry of its own (one host process's life). */
async function runOnce(host: Host, ledger: CallLedger, call: ToolCall, runId: string): Promise<ToolResult> {
  const registry = await buildBuiltinToolRegistry({ ...host, memory: false, ledger });
  try {
    return await registry.executeToolCall(call, { durable: { runId } });
  } finally {
    await registry.close();
  }
}

/** The first host runs `call` and dies before its outcome is recorded. */
async function crashAfterRun(host: Host, ledger: InMemoryCallLedger, call: ToolCall, runId: string): Promise<void> {
  const result = await runOnce(host, new FinishFailingLedger(ledger), call, runId);
  expect(result.isError, toolResultText(result, "")).toBe(false);
  const entry = await ledger.get({ runId, callId: call.id });
  expect(entry?.state).toBe("started");
  expect(entry?.attempts).toBe(1);
}

function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

describe("Write resumed after a crash", () => {
  it("runs again when the crash came before the write", async () => {
    const workdir = fresh("write-before");
    const host = { workdir, dataDir: fresh("data") };
    const file = path.join(workdir, "notes.md");
    fs.writeFileSync(file, "old\n");
    const ledger = new InMemoryCallLedger();
    const call = { id: "call_w1", name: "Write", arguments: { path: "notes.md", content: "new\n" } };
    await crashAfterRun(host, ledger, call, "run-w1");
    fs.writeFileSync(file, "old\n"); // the write never happened

    const resumed = await runOnce(host, ledger, call, "run-w1");
    expect(resumed.isError, toolResultText(resumed, "")).toBe(false);
    expect(toolResultText(resumed, "")).toContain("File updated successfully");
    expect(fs.readFileSync(file, "utf8")).toBe("new\n");
    const entry = await ledger.get({ runId: "run-w1", callId: "call_w1" });
    expect(entry).toMatchObject({ state: "completed", attempts: 2, effects: "idempotent" });
  });

  it("answers done without writing again when the crash came after the write", async () => {
    const workdir = fresh("write-after");
    const host = { workdir, dataDir: fresh("data") };
    const file = path.join(workdir, "notes.md");
    fs.writeFileSync(file, "old\n");
    const ledger = new InMemoryCallLedger();
    const call = { id: "call_w2", name: "Write", arguments: { path: "notes.md", content: "new\n" } };
    await crashAfterRun(host, ledger, call, "run-w2");
    const before = fs.statSync(file);

    const resumed = await runOnce(host, ledger, call, "run-w2");
    expect(resumed.isError, toolResultText(resumed, "")).toBe(false);
    expect(toolResultText(resumed, "")).toContain("File already written at: notes.md");
    expect(resumed.details).toMatchObject({ kind: "write", path: "notes.md", bytesWritten: 4, totalLines: 1 });
    const after = fs.statSync(file);
    expect([after.mtimeMs, after.ino]).toEqual([before.mtimeMs, before.ino]);
    expect(fs.readFileSync(file, "utf8")).toBe("new\n");
    const entry = await ledger.get({ runId: "run-w2", callId: "call_w2" });
    expect(entry).toMatchObject({ state: "completed", attempts: 1 });
    // Recorded: a third host gets the same answer from the ledger, the tool not asked.
    expect(await runOnce(host, ledger, call, "run-w2")).toEqual(resumed);
  });

  it("records the file as written, so a later Write of a long file needs no Read", async () => {
    const workdir = fresh("write-state");
    const host = { workdir, dataDir: fresh("data") };
    const file = path.join(workdir, "long.txt");
    // Past the automatic full read of a Write (5000 lines): an unread file this long needs a Read first.
    const content = `${Array.from({ length: 6000 }, (_, index) => `line ${index}`).join("\n")}\n`;
    const ledger = new InMemoryCallLedger();
    const call = { id: "call_w3", name: "Write", arguments: { path: "long.txt", content } };
    await crashAfterRun(host, ledger, call, "run-w3");

    const second = await buildBuiltinToolRegistry({ ...host, memory: false, ledger });
    try {
      const resumed = await second.executeToolCall(call, { durable: { runId: "run-w3" } });
      expect(toolResultText(resumed, "")).toContain("File already written");
      const next = await second.executeToolCall({ id: "call_w4", name: "Write", arguments: { path: "long.txt", content: "short\n" } });
      expect(next.isError, toolResultText(next, "")).toBe(false);
      expect(fs.readFileSync(file, "utf8")).toBe("short\n");
    } finally {
      await second.close();
    }
  });

  it("reports outcome_unknown when the path is now a symlink leading out of the workspace", async () => {
    const workdir = fresh("write-link");
    const outside = fresh("outside");
    fs.writeFileSync(path.join(outside, "secret.txt"), "new\n");
    const host = { workdir, dataDir: fresh("data") };
    const ledger = new InMemoryCallLedger();
    const call = { id: "call_w5", name: "Write", arguments: { path: "notes.md", content: "new\n" } };
    await crashAfterRun(host, ledger, call, "run-w5");
    fs.rmSync(path.join(workdir, "notes.md"));
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(workdir, "notes.md"));

    const resumed = await runOnce(host, ledger, call, "run-w5");
    expect(resumed.isError).toBe(true);
    expect(resumed.error?.code).toBe("outcome_unknown");
    expect(toolResultText(resumed, "")).toContain("Write could not check notes.md");
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("new\n");
  });
});

describe("Edit resumed after a crash", () => {
  const source = "function greet() {\n  return 'hi';\n}\n";
  const edit = { path: "greet.ts", old_string: "return 'hi';", new_string: "return 'hello';" };

  it("runs again when the crash came before the edit", async () => {
    const workdir = fresh("edit-before");
    const host = { workdir, dataDir: fresh("data") };
    const file = path.join(workdir, "greet.ts");
    fs.writeFileSync(file, source);
    const ledger = new InMemoryCallLedger();
    const call = { id: "call_e1", name: "Edit", arguments: edit };
    await crashAfterRun(host, ledger, call, "run-e1");
    fs.writeFileSync(file, source);

    const resumed = await runOnce(host, ledger, call, "run-e1");
    expect(resumed.isError, toolResultText(resumed, "")).toBe(false);
    expect(toolResultText(resumed, "")).toContain("replacements=1");
    expect(fs.readFileSync(file, "utf8")).toBe("function greet() {\n  return 'hello';\n}\n");
    expect(await ledger.get({ runId: "run-e1", callId: "call_e1" })).toMatchObject({ state: "completed", attempts: 2, effects: "idempotent" });
  });

  it("answers already applied without changing the file when the crash came after the edit", async () => {
    const workdir = fresh("edit-after");
    const host = { workdir, dataDir: fresh("data") };
    const file = path.join(workdir, "greet.ts");
    fs.writeFileSync(file, source);
    const ledger = new InMemoryCallLedger();
    const call = { id: "call_e2", name: "Edit", arguments: edit };
    await crashAfterRun(host, ledger, call, "run-e2");
    const before = fs.statSync(file);

    const resumed = await runOnce(host, ledger, call, "run-e2");
    expect(resumed.isError, toolResultText(resumed, "")).toBe(false);
    expect(toolResultText(resumed, "")).toContain("already applied");
    expect(resumed.details).toMatchObject({ kind: "edit", path: "greet.ts", replacements: 0, totalLines: 3 });
    const text = fs.readFileSync(file, "utf8");
    expect(occurrences(text, "return 'hello';")).toBe(1);
    expect(text).toBe("function greet() {\n  return 'hello';\n}\n");
    expect(fs.statSync(file).mtimeMs).toBe(before.mtimeMs);
    expect(await ledger.get({ runId: "run-e2", callId: "call_e2" })).toMatchObject({ state: "completed", attempts: 1 });
  });

  it("applies replace_all again only when old_string is still there", async () => {
    const workdir = fresh("edit-all");
    const host = { workdir, dataDir: fresh("data") };
    const file = path.join(workdir, "list.txt");
    fs.writeFileSync(file, "a1\nb\na1\n");
    const ledger = new InMemoryCallLedger();
    const call = { id: "call_e3", name: "Edit", arguments: { path: "list.txt", old_string: "a1", new_string: "c2", replace_all: true } };
    await crashAfterRun(host, ledger, call, "run-e3");
    const resumed = await runOnce(host, ledger, call, "run-e3");
    expect(toolResultText(resumed, "")).toContain("already applied");
    expect(fs.readFileSync(file, "utf8")).toBe("c2\nb\nc2\n");
  });

  it("reports outcome_unknown when new_string contains old_string (the file cannot tell)", async () => {
    const workdir = fresh("edit-contains");
    const host = { workdir, dataDir: fresh("data") };
    const file = path.join(workdir, "greet.ts");
    fs.writeFileSync(file, source);
    const ledger = new InMemoryCallLedger();
    const call = { id: "call_e4", name: "Edit", arguments: { path: "greet.ts", old_string: "return 'hi';", new_string: "return 'hi'; // greeting" } };
    await crashAfterRun(host, ledger, call, "run-e4");

    const resumed = await runOnce(host, ledger, call, "run-e4");
    expect(resumed.isError).toBe(true);
    expect(resumed.error?.code).toBe("outcome_unknown");
    expect(toolResultText(resumed, "")).toContain("new_string contains old_string");
    expect(occurrences(fs.readFileSync(file, "utf8"), "// greeting")).toBe(1);
    expect(await ledger.get({ runId: "run-e4", callId: "call_e4" })).toMatchObject({ state: "failed", attempts: 1 });
  });

  it("reports outcome_unknown when an edit's result reads as old_string again", async () => {
    const workdir = fresh("edit-overlap");
    const host = { workdir, dataDir: fresh("data") };
    const file = path.join(workdir, "word.txt");
    fs.writeFileSync(file, "abb\n");
    const ledger = new InMemoryCallLedger();
    const call = { id: "call_e5", name: "Edit", arguments: { path: "word.txt", old_string: "ab", new_string: "a" } };
    await crashAfterRun(host, ledger, call, "run-e5");
    expect(fs.readFileSync(file, "utf8")).toBe("ab\n");

    const resumed = await runOnce(host, ledger, call, "run-e5");
    expect(resumed.error?.code).toBe("outcome_unknown");
    expect(fs.readFileSync(file, "utf8")).toBe("ab\n");
  });

  it("reports outcome_unknown when the path is now a directory", async () => {
    const workdir = fresh("edit-dir");
    const host = { workdir, dataDir: fresh("data") };
    const file = path.join(workdir, "greet.ts");
    fs.writeFileSync(file, source);
    const ledger = new InMemoryCallLedger();
    const call = { id: "call_e6", name: "Edit", arguments: edit };
    await crashAfterRun(host, ledger, call, "run-e6");
    fs.rmSync(file);
    fs.mkdirSync(file);

    const resumed = await runOnce(host, ledger, call, "run-e6");
    expect(resumed.error?.code).toBe("outcome_unknown");
    expect(toolResultText(resumed, "")).toContain("Edit could not check greet.ts");
  });

  it("resumes on a memory workspace too: after the edit done, before it run", async () => {
    const workspace = createMemoryWorkspace({ root: "/ws", files: { "greet.ts": source } });
    const host = { workspace, dataDir: fresh("data") };
    const ledger = new InMemoryCallLedger();
    const call = { id: "call_e7", name: "Edit", arguments: edit };
    await crashAfterRun(host, ledger, call, "run-e7");
    const before = await workspace.fs.stat("/ws/greet.ts");

    const done = await runOnce(host, ledger, call, "run-e7");
    expect(done.isError, toolResultText(done, "")).toBe(false);
    expect(toolResultText(done, "")).toContain("already applied");
    expect((await workspace.fs.readFile("/ws/greet.ts")).toString("utf8")).toBe("function greet() {\n  return 'hello';\n}\n");
    expect((await workspace.fs.stat("/ws/greet.ts")).mtimeMs).toBe(before.mtimeMs);

    const again = { id: "call_e8", name: "Edit", arguments: edit };
    await workspace.fs.writeFileAtomic("/ws/greet.ts", Buffer.from(source));
    await crashAfterRun(host, ledger, again, "run-e8");
    await workspace.fs.writeFileAtomic("/ws/greet.ts", Buffer.from(source)); // the edit never happened
    const rerun = await runOnce(host, ledger, again, "run-e8");
    expect(toolResultText(rerun, "")).toContain("replacements=1");
    expect(await ledger.get({ runId: "run-e8", callId: "call_e8" })).toMatchObject({ state: "completed", attempts: 2 });
  });

  it("resumes a Write on a memory workspace: done when the content is there", async () => {
    const workspace = createMemoryWorkspace({ root: "/ws" });
    const host = { workspace, dataDir: fresh("data") };
    const ledger = new InMemoryCallLedger();
    const call = { id: "call_w9", name: "Write", arguments: { path: "dir/new.txt", content: "fresh\n" } };
    await crashAfterRun(host, ledger, call, "run-w9");
    const resumed = await runOnce(host, ledger, call, "run-w9");
    expect(toolResultText(resumed, "")).toContain("File already written at: dir/new.txt");
    expect(await ledger.get({ runId: "run-w9", callId: "call_w9" })).toMatchObject({ state: "completed", attempts: 1 });
  });
});
