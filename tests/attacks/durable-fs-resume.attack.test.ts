/**
 * Attacks on Write's and Edit's `resume` (the check an interrupted call makes before it runs again):
 * an idempotent call must not apply twice, and the check must not read or write outside the workspace.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import type { CallLedger } from "@agent-tools/core/durable";
import { InMemoryCallLedger } from "@agent-tools/durable";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-durable-fs-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

let cases = 0;
function project(files: Record<string, string>): string {
  const workdir = path.join(temporary, `case-${(cases += 1)}`);
  fs.mkdirSync(workdir);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(workdir, name), text);
  return workdir;
}

/** A ledger whose `finish` of `callId` fails once: the call ran and stays `started`, as after a SIGKILL right after the tool. */
function crashingAfterTool(callId: string): CallLedger {
  const real = new InMemoryCallLedger();
  let failed = false;
  return Object.assign(Object.create(real) as CallLedger, {
    get: real.get.bind(real),
    approve: real.approve.bind(real),
    start: real.start.bind(real),
    list: real.list.bind(real),
    deleteRun: real.deleteRun.bind(real),
    finish: async (...args: Parameters<CallLedger["finish"]>) => {
      if (args[0].callId === callId && !failed) {
        failed = true;
        throw new Error("killed before the outcome was written");
      }
      return real.finish(...args);
    },
  });
}

describe("Edit's resume", () => {
  it("does not delete twice: an interrupted deletion whose result reads as old_string again is not run again", async () => {
    const workdir = project({ "a.txt": "xaabby\n" });
    const ledger = crashingAfterTool("edit-1");
    const registry = await buildBuiltinToolRegistry({ workdir, ledger });
    try {
      const durable = { durable: { runId: "run-1" } };
      await registry.executeToolCall({ id: "read-1", name: "Read", arguments: { path: "a.txt" } }, durable);
      const edit = { id: "edit-1", name: "Edit", arguments: { path: "a.txt", old_string: "ab", new_string: "" } };
      const first = await registry.executeToolCall(edit, durable);
      expect(first.isError, toolResultText(first, "")).toBe(false);
      expect(fs.readFileSync(path.join(workdir, "a.txt"), "utf8")).toBe("xaby\n");
      // The engine retries the step (same host): the ledger says started, no outcome.
      const retried = await registry.executeToolCall(edit, durable);
      expect(fs.readFileSync(path.join(workdir, "a.txt"), "utf8")).toBe("xaby\n");
      expect(retried.error?.code === undefined || retried.error?.code === "outcome_unknown", toolResultText(retried, "")).toBe(true);
    } finally {
      await registry.close();
    }
  });

  it("does not delete twice after a restart either (a new host on the same ledger)", async () => {
    const workdir = project({ "a.txt": "xaabby\n" });
    const ledger = crashingAfterTool("edit-1");
    const durable = { durable: { runId: "run-1" } };
    const edit = { id: "edit-1", name: "Edit", arguments: { path: "a.txt", old_string: "ab", new_string: "" } };
    const read = { id: "read-1", name: "Read", arguments: { path: "a.txt" } };
    const first = await buildBuiltinToolRegistry({ workdir, ledger });
    try {
      await first.executeToolCall(read, durable);
      await first.executeToolCall(edit, durable);
    } finally {
      await first.close();
    }
    expect(fs.readFileSync(path.join(workdir, "a.txt"), "utf8")).toBe("xaby\n");
    const second = await buildBuiltinToolRegistry({ workdir, ledger });
    try {
      // The resumed turn: the Read is answered from the ledger, then the Edit comes again.
      await second.executeToolCall(read, durable);
      const resumed = await second.executeToolCall(edit, durable);
      expect(fs.readFileSync(path.join(workdir, "a.txt"), "utf8"), toolResultText(resumed, "")).toBe("xaby\n");
    } finally {
      await second.close();
    }
  });
});
