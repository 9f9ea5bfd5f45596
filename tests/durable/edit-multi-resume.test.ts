/**
 * Edit's multi-edit form interrupted by a crash and resumed (issue 37), as
 * edit-write-resume.test.ts does for the single form: the first registry
 * runs the call with a ledger whose `finish` fails, so the call stays
 * `started`; a second registry (a new host) runs the same call again.
 * done: every new_string there and no old_string; run: the first old_string
 * still matches (and nothing the edits write could have made it match);
 * unknown otherwise.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ToolCall, type ToolResult, toolResultText } from "@agent-tools/core";
import type { CallLedger } from "@agent-tools/core/durable";
import { InMemoryCallLedger } from "@agent-tools/durable";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { FinishFailingLedger } from "./__fixtures__/finish-failing-ledger.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-multi-edit-resume-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

let counter = 0;
function fresh(name: string): string {
  counter += 1;
  const directory = path.join(temporary, `${name}-${counter}`);
  fs.mkdirSync(directory, { recursive: true });
  return directory;
}

async function runOnce(host: { workdir: string; dataDir: string }, ledger: CallLedger, call: ToolCall, runId: string): Promise<ToolResult> {
  const registry = await buildBuiltinToolRegistry({ ...host, memory: false, ledger });
  try {
    return await registry.executeToolCall(call, { durable: { runId } });
  } finally {
    await registry.close();
  }
}

async function crashAfterRun(host: { workdir: string; dataDir: string }, ledger: InMemoryCallLedger, call: ToolCall, runId: string): Promise<void> {
  const result = await runOnce(host, new FinishFailingLedger(ledger), call, runId);
  expect(result.isError, toolResultText(result, "")).toBe(false);
  expect(await ledger.get({ runId, callId: call.id })).toMatchObject({ state: "started", attempts: 1 });
}

const SOURCE = "const a = 1;\nconst b = 2;\nconst c = 3;\n";
const EDITED = "const a = 10;\nconst b = 20;\nconst c = 30;\n";
const edits = [
  { old_string: "a = 1;", new_string: "a = 10;" },
  { old_string: "b = 2;", new_string: "b = 20;" },
  { old_string: "c = 3;", new_string: "c = 30;" },
];

function setUp(name: string, content: string) {
  const workdir = fresh(name);
  const file = path.join(workdir, "vars.ts");
  fs.writeFileSync(file, content);
  return { host: { workdir, dataDir: fresh("data") }, file, ledger: new InMemoryCallLedger() };
}

describe("Edit with several edits resumed after a crash", () => {
  it("answers done without writing again when the crash came after the write", async () => {
    const { host, file, ledger } = setUp("after", SOURCE);
    const call = { id: "call_m1", name: "Edit", arguments: { path: "vars.ts", edits } };
    await crashAfterRun(host, ledger, call, "run-m1");
    expect(fs.readFileSync(file, "utf8")).toBe(EDITED);
    const before = fs.statSync(file);

    const resumed = await runOnce(host, ledger, call, "run-m1");
    expect(resumed.isError, toolResultText(resumed, "")).toBe(false);
    expect(toolResultText(resumed, "")).toBe(
      "Edit: vars.ts\nalready applied: this Edit was interrupted after it wrote; no old_string of its 3 edits is in the file and every new_string is, so nothing was changed again\nedits=3",
    );
    expect(resumed.details).toMatchObject({
      kind: "edit",
      replacements: 0,
      totalLines: 3,
      edits: [{ replacements: 0 }, { replacements: 0 }, { replacements: 0 }],
    });
    expect(fs.readFileSync(file, "utf8")).toBe(EDITED);
    expect([fs.statSync(file).mtimeMs, fs.statSync(file).ino]).toEqual([before.mtimeMs, before.ino]);
    expect(await ledger.get({ runId: "run-m1", callId: "call_m1" })).toMatchObject({ state: "completed", attempts: 1 });
  });

  it("runs again when the crash came before the write (the first old_string still matches)", async () => {
    const { host, file, ledger } = setUp("before", SOURCE);
    const call = { id: "call_m2", name: "Edit", arguments: { path: "vars.ts", edits } };
    await crashAfterRun(host, ledger, call, "run-m2");
    fs.writeFileSync(file, SOURCE); // the write never happened

    const resumed = await runOnce(host, ledger, call, "run-m2");
    expect(resumed.isError, toolResultText(resumed, "")).toBe(false);
    expect(toolResultText(resumed, "")).toContain("edits=3\nreplacements=3");
    expect(fs.readFileSync(file, "utf8")).toBe(EDITED);
    expect(await ledger.get({ runId: "run-m2", callId: "call_m2" })).toMatchObject({ state: "completed", attempts: 2 });
  });

  it("is unknown when a later edit wrote the first old_string again (running again would apply twice)", async () => {
    // Edit 2 writes "x = 1;" that edit 1 replaced: after the call the first old_string is there again.
    const { host, file, ledger } = setUp("rewritten", "x = 1;\ny = 2;\n");
    const call = {
      id: "call_m3",
      name: "Edit",
      arguments: {
        path: "vars.ts",
        edits: [
          { old_string: "x = 1;", new_string: "x = 5;" },
          { old_string: "y = 2;", new_string: "x = 1;" },
        ],
      },
    };
    await crashAfterRun(host, ledger, call, "run-m3");
    expect(fs.readFileSync(file, "utf8")).toBe("x = 5;\nx = 1;\n");

    const resumed = await runOnce(host, ledger, call, "run-m3");
    expect(resumed.error?.code).toBe("outcome_unknown");
    expect(toolResultText(resumed, "")).toContain("edit 2's new_string contains edit 1's old_string");
    expect(fs.readFileSync(file, "utf8")).toBe("x = 5;\nx = 1;\n");
  });

  it("is unknown when the first old_string is there and an edit deletes text, or when only some edits show", async () => {
    const deleting = setUp("deleting", "keep\nab\nmore\n");
    const call = {
      id: "call_m4",
      name: "Edit",
      arguments: {
        path: "vars.ts",
        edits: [
          { old_string: "keep", new_string: "kept" },
          { old_string: "more\n", new_string: "" },
        ],
      },
    };
    await crashAfterRun(deleting.host, deleting.ledger, call, "run-m4");
    fs.writeFileSync(deleting.file, "keep\nab\nmore\n");
    const resumed = await runOnce(deleting.host, deleting.ledger, call, "run-m4");
    expect(resumed.error?.code).toBe("outcome_unknown");
    expect(toolResultText(resumed, "")).toContain("edit 2 deletes text");
    expect(fs.readFileSync(deleting.file, "utf8")).toBe("keep\nab\nmore\n");

    const partial = setUp("partial", SOURCE);
    const second = { id: "call_m5", name: "Edit", arguments: { path: "vars.ts", edits } };
    await crashAfterRun(partial.host, partial.ledger, second, "run-m5");
    fs.writeFileSync(partial.file, "const a = 10;\nconst b = 2;\nconst c = 30;\n"); // changed since by someone else
    const unknown = await runOnce(partial.host, partial.ledger, second, "run-m5");
    expect(unknown.error?.code).toBe("outcome_unknown");
    expect(toolResultText(unknown, "")).toContain("edit 1's old_string is gone but edit 2's is in the file");
  });
});
