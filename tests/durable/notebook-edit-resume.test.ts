/**
 * NotebookEdit calls interrupted by a crash, resumed through a registry
 * built by `buildBuiltinToolRegistry` with a call ledger (as
 * edit-write-resume.test.ts does for Edit): the first host reads the
 * notebook, runs the call with a ledger whose `finish` fails (the call
 * stays `started`), and a second host (no file state) runs the same call
 * with the same run id.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type ToolCall, type ToolResult, toolResultText } from "@agent-tools/core";
import type { CallLedger } from "@agent-tools/core/durable";
import { InMemoryCallLedger } from "@agent-tools/durable";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { FinishFailingLedger } from "./__fixtures__/finish-failing-ledger.js";

const NOTEBOOK = fs.readFileSync(fileURLToPath(new URL("../../packages/tools-fs/src/notebook-edit/__fixtures__/nbformat-test4.5.ipynb", import.meta.url)));
const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-notebook-resume-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

let counter = 0;
function fresh(): { workdir: string; dataDir: string; file: string } {
  counter += 1;
  const workdir = path.join(temporary, `work-${counter}`);
  fs.mkdirSync(workdir, { recursive: true });
  const file = path.join(workdir, "nb.ipynb");
  fs.writeFileSync(file, NOTEBOOK);
  return { workdir, dataDir: path.join(temporary, `data-${counter}`), file };
}

/** One host's life: optionally a Read first, then `call` durably. */
async function runOnce(host: { workdir: string; dataDir: string }, ledger: CallLedger, call: ToolCall, runId: string, readFirst: boolean): Promise<ToolResult> {
  const registry = await buildBuiltinToolRegistry({ workdir: host.workdir, dataDir: host.dataDir, memory: false, ledger });
  try {
    if (readFirst) await registry.executeToolCall({ id: `read-${call.id}`, name: "Read", arguments: { path: "nb.ipynb" } });
    return await registry.executeToolCall(call, { durable: { runId } });
  } finally {
    await registry.close();
  }
}

async function crashAfterRun(host: { workdir: string; dataDir: string }, ledger: InMemoryCallLedger, call: ToolCall, runId: string): Promise<void> {
  const result = await runOnce(host, new FinishFailingLedger(ledger), call, runId, true);
  expect(result.isError, toolResultText(result, "")).toBe(false);
  expect((await ledger.get({ runId, callId: call.id }))?.state).toBe("started");
}

const cells = () => (JSON.parse(NOTEBOOK.toString("utf8")) as { cells: Array<{ id: string }> }).cells;

describe("NotebookEdit resumed after a crash", () => {
  it("insert: answers done without inserting a second cell when the crash came after the write", async () => {
    const host = fresh();
    const ledger = new InMemoryCallLedger();
    const call = {
      id: "nb1",
      name: "NotebookEdit",
      arguments: { path: "nb.ipynb", cell_id: cells()[1]!.id, edit_mode: "insert", cell_type: "markdown", new_source: "## Added" },
    };
    await crashAfterRun(host, ledger, call, "run-nb1");
    const written = fs.readFileSync(host.file);
    const resumed = await runOnce(host, ledger, call, "run-nb1", false);
    expect(resumed.isError, toolResultText(resumed, "")).toBe(false);
    expect(toolResultText(resumed, "")).toContain("already applied");
    expect(fs.readFileSync(host.file)).toEqual(written);
    expect(JSON.parse(written.toString("utf8")).cells).toHaveLength(cells().length + 1);
    expect(await ledger.get({ runId: "run-nb1", callId: "nb1" })).toMatchObject({ state: "completed", effects: "idempotent" });
  });

  it("insert: runs again when the crash came before the write (and asks for a Read in the new host)", async () => {
    const host = fresh();
    const ledger = new InMemoryCallLedger();
    const call = {
      id: "nb2",
      name: "NotebookEdit",
      arguments: { path: "nb.ipynb", cell_index: 0, edit_mode: "insert", cell_type: "code", new_source: "x = 1" },
    };
    await crashAfterRun(host, ledger, call, "run-nb2");
    fs.writeFileSync(host.file, NOTEBOOK); // the write never happened
    const resumed = await runOnce(host, ledger, call, "run-nb2", false);
    expect(resumed.error?.code).toBe("requires_full_read");
    expect(fs.readFileSync(host.file)).toEqual(NOTEBOOK);
  });

  it("delete by cell_id: done when the id is gone; delete by cell_index: outcome unknown", async () => {
    const host = fresh();
    const ledger = new InMemoryCallLedger();
    const byId = { id: "nb3", name: "NotebookEdit", arguments: { path: "nb.ipynb", cell_id: cells()[2]!.id, edit_mode: "delete", new_source: "" } };
    await crashAfterRun(host, ledger, byId, "run-nb3");
    const resumed = await runOnce(host, ledger, byId, "run-nb3", false);
    expect(toolResultText(resumed, "")).toContain(`deleted the cell id=${cells()[2]!.id}`);
    const byIndex = { id: "nb4", name: "NotebookEdit", arguments: { path: "nb.ipynb", cell_index: 1, edit_mode: "delete", new_source: "" } };
    await crashAfterRun(host, ledger, byIndex, "run-nb4");
    const before = fs.readFileSync(host.file);
    const unknown = await runOnce(host, ledger, byIndex, "run-nb4", false);
    expect(unknown.error?.code).toBe("outcome_unknown");
    expect(fs.readFileSync(host.file)).toEqual(before);
  });
});
