/**
 * ApplyPatch calls interrupted by a crash, resumed through a registry with a
 * call ledger (as tests/durable/edit-write-resume.test.ts does for Write and
 * Edit): the first host runs the patch with a ledger whose `finish` fails,
 * so the call stays `started`; a second host runs the same call with the
 * same run id. Done when every operation's result is there, run when every
 * operation still applies, outcome_unknown otherwise.
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
import { FinishFailingLedger } from "../durable/__fixtures__/finish-failing-ledger.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "apply-patch-resume-")));
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

async function runOnce(host: Host, ledger: CallLedger, call: ToolCall, runId: string): Promise<ToolResult> {
  const registry = await buildBuiltinToolRegistry({ ...host, memory: false, ledger, editSurface: "both" });
  try {
    return await registry.executeToolCall(call, { durable: { runId } });
  } finally {
    await registry.close();
  }
}

async function crashAfterRun(host: Host, ledger: InMemoryCallLedger, call: ToolCall, runId: string): Promise<void> {
  const result = await runOnce(host, new FinishFailingLedger(ledger), call, runId);
  expect(result.isError, toolResultText(result, "")).toBe(false);
  expect((await ledger.get({ runId, callId: call.id }))?.state).toBe("started");
}

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");
const PATCH = patch(
  "*** Update File: app.ts",
  "@@",
  " const a = 1;",
  "-const b = 2;",
  "+const b = 20;",
  "*** Add File: notes.md",
  "+# notes",
  "*** Delete File: old.txt",
  "*** Update File: run.sh",
  "*** Move to: bin/run.sh",
  "@@",
  "-echo one",
  "+echo two",
);

function seed(workdir: string): void {
  fs.writeFileSync(path.join(workdir, "app.ts"), "const a = 1;\nconst b = 2;\n");
  fs.writeFileSync(path.join(workdir, "old.txt"), "bye\n");
  fs.writeFileSync(path.join(workdir, "run.sh"), "#!/bin/sh\necho one\n");
  fs.rmSync(path.join(workdir, "notes.md"), { force: true });
  fs.rmSync(path.join(workdir, "bin"), { recursive: true, force: true });
}

describe("ApplyPatch resumed after a crash", () => {
  it("answers done without writing again when the crash came after the patch", async () => {
    const workdir = fresh("after");
    seed(workdir);
    const host = { workdir, dataDir: fresh("data") };
    const ledger = new InMemoryCallLedger();
    const call = { id: "call_p1", name: "ApplyPatch", arguments: { patch: PATCH } };
    await crashAfterRun(host, ledger, call, "run-p1");
    const mtime = fs.statSync(path.join(workdir, "app.ts")).mtimeMs;

    const resumed = await runOnce(host, ledger, call, "run-p1");
    expect(resumed.isError, toolResultText(resumed, "")).toBe(false);
    expect(toolResultText(resumed, "")).toContain("already applied");
    expect(fs.readFileSync(path.join(workdir, "app.ts"), "utf8")).toBe("const a = 1;\nconst b = 20;\n");
    expect(fs.statSync(path.join(workdir, "app.ts")).mtimeMs).toBe(mtime);
    expect(await ledger.get({ runId: "run-p1", callId: "call_p1" })).toMatchObject({ state: "completed", attempts: 1, effects: "idempotent" });
  });

  it("runs again when the crash came before the patch", async () => {
    const workdir = fresh("before");
    seed(workdir);
    const host = { workdir, dataDir: fresh("data") };
    const ledger = new InMemoryCallLedger();
    const call = { id: "call_p2", name: "ApplyPatch", arguments: { patch: PATCH } };
    await crashAfterRun(host, ledger, call, "run-p2");
    seed(workdir); // the patch never happened

    const resumed = await runOnce(host, ledger, call, "run-p2");
    expect(resumed.isError, toolResultText(resumed, "")).toBe(false);
    expect(toolResultText(resumed, "")).toContain("ApplyPatch: 4 files changed");
    expect(fs.readFileSync(path.join(workdir, "bin/run.sh"), "utf8")).toBe("#!/bin/sh\necho two\n");
    expect(await ledger.get({ runId: "run-p2", callId: "call_p2" })).toMatchObject({ state: "completed", attempts: 2 });
  });

  it("reports outcome_unknown when a hunk only adds lines after context that is still there (it would apply twice)", async () => {
    const workdir = fresh("adds");
    fs.writeFileSync(path.join(workdir, "list.txt"), "a\nb\n");
    const host = { workdir, dataDir: fresh("data") };
    const ledger = new InMemoryCallLedger();
    const call = { id: "call_p3", name: "ApplyPatch", arguments: { patch: patch("*** Update File: list.txt", "@@", " a", "+a2") } };
    await crashAfterRun(host, ledger, call, "run-p3");

    const resumed = await runOnce(host, ledger, call, "run-p3");
    expect(resumed.isError).toBe(true);
    expect(resumed.error?.code).toBe("outcome_unknown");
    expect(fs.readFileSync(path.join(workdir, "list.txt"), "utf8")).toBe("a\na2\nb\n");
  });

  it("reports outcome_unknown when some operations are applied and others are not", async () => {
    const workdir = fresh("mixed");
    seed(workdir);
    const host = { workdir, dataDir: fresh("data") };
    const ledger = new InMemoryCallLedger();
    const call = { id: "call_p4", name: "ApplyPatch", arguments: { patch: PATCH } };
    await crashAfterRun(host, ledger, call, "run-p4");
    fs.writeFileSync(path.join(workdir, "old.txt"), "bye\n"); // someone made old.txt again

    const resumed = await runOnce(host, ledger, call, "run-p4");
    expect(resumed.error?.code).toBe("outcome_unknown");
    expect(toolResultText(resumed, "")).toContain("old.txt: not applied");
  });

  it("resumes on a memory workspace: done after the patch, run before it", async () => {
    const files = { "app.ts": "const a = 1;\nconst b = 2;\n", "old.txt": "bye\n", "run.sh": "#!/bin/sh\necho one\n" };
    const workspace = createMemoryWorkspace({ root: "/ws", files });
    const host = { workspace, dataDir: fresh("data") };
    const ledger = new InMemoryCallLedger();
    const call = { id: "call_p5", name: "ApplyPatch", arguments: { patch: PATCH } };
    await crashAfterRun(host, ledger, call, "run-p5");
    const done = await runOnce(host, ledger, call, "run-p5");
    expect(toolResultText(done, "")).toContain("already applied");

    const fresh2 = createMemoryWorkspace({ root: "/ws", files });
    const again = { id: "call_p6", name: "ApplyPatch", arguments: { patch: PATCH } };
    await crashAfterRun({ workspace: fresh2, dataDir: fresh("data") }, ledger, again, "run-p6");
    for (const [name, content] of Object.entries(files)) await fresh2.fs.writeFileAtomic(`/ws/${name}`, Buffer.from(content));
    await fresh2.fs.unlink("/ws/notes.md");
    await fresh2.fs.unlink("/ws/bin/run.sh");
    const rerun = await runOnce({ workspace: fresh2, dataDir: fresh("data") }, ledger, again, "run-p6");
    expect(toolResultText(rerun, "")).toContain("ApplyPatch: 4 files changed");
  });
});
