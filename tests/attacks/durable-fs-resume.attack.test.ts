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

/** A Write or Edit left `started` (run, outcome never recorded), then the model plants links before the resumed run. */
async function resumeAfter(workdir: string, call: { id: string; name: string; arguments: Record<string, unknown> }, plant: () => void) {
  const ledger = crashingAfterTool(call.id);
  const durable = { durable: { runId: "run-1" } };
  const first = await buildBuiltinToolRegistry({ workdir, ledger });
  try {
    await first.executeToolCall(call, durable);
  } finally {
    await first.close();
  }
  plant();
  const second = await buildBuiltinToolRegistry({ workdir, ledger });
  try {
    return await second.executeToolCall(call, durable);
  } finally {
    await second.close();
  }
}

describe("Write's and Edit's resume through links the model planted", () => {
  it("Write: a parent directory now a symlink out of the workspace is not read (no done answered from an outside file)", async () => {
    const workdir = project({});
    const outside = project({ "secret.txt": "TOPSECRET\n" });
    fs.mkdirSync(path.join(workdir, "dir"));
    const call = { id: "w-1", name: "Write", arguments: { path: "dir/secret.txt", content: "TOPSECRET\n" } };
    const resumed = await resumeAfter(workdir, call, () => {
      fs.rmSync(path.join(workdir, "dir"), { recursive: true });
      fs.symlinkSync(outside, path.join(workdir, "dir"));
    });
    expect(toolResultText(resumed, "")).not.toMatch(/already written/);
    expect(resumed.isError).toBe(true);
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("TOPSECRET\n");
  });

  it("Edit: a parent directory now a symlink out of the workspace is neither read nor written", async () => {
    const workdir = project({});
    const outside = project({ "conf.txt": "mode=open\n" });
    fs.mkdirSync(path.join(workdir, "dir"));
    fs.writeFileSync(path.join(workdir, "dir", "conf.txt"), "mode=closed\n");
    const call = { id: "e-1", name: "Edit", arguments: { path: "dir/conf.txt", old_string: "mode=closed", new_string: "mode=open" } };
    const resumed = await resumeAfter(workdir, call, () => {
      fs.rmSync(path.join(workdir, "dir"), { recursive: true });
      fs.symlinkSync(outside, path.join(workdir, "dir"));
    });
    expect(toolResultText(resumed, "")).not.toMatch(/already applied/);
    expect(resumed.isError).toBe(true);
    expect(fs.readFileSync(path.join(outside, "conf.txt"), "utf8")).toBe("mode=open\n");
  });

  it("Write: a leaf symlink to another workspace file holding the content is answered as Write itself would answer", async () => {
    const workdir = project({ "other.txt": "X\n" });
    const call = { id: "w-2", name: "Write", arguments: { path: "a.txt", content: "X\n" } };
    const resumed = await resumeAfter(workdir, call, () => {
      fs.rmSync(path.join(workdir, "a.txt"));
      fs.symlinkSync(path.join(workdir, "other.txt"), path.join(workdir, "a.txt"));
    });
    // Write itself writes through a leaf link inside the workspace, so the link's target holding the content is the Write done.
    expect(resumed.isError, toolResultText(resumed, "")).toBe(false);
    expect(toolResultText(resumed, "")).toMatch(/already written/);
    expect(fs.readFileSync(path.join(workdir, "other.txt"), "utf8")).toBe("X\n");
  });
});

describe("Write's and Edit's resume on a file the model made huge", () => {
  /** Replaces `file` by a sparse file of `size` bytes (no disk used). */
  const sparse = (file: string, size: number) => () => {
    fs.rmSync(file, { force: true });
    const descriptor = fs.openSync(file, "w");
    fs.ftruncateSync(descriptor, size);
    fs.closeSync(descriptor);
  };
  const HUGE = 3 * 1024 * 1024 * 1024;

  it("Write: a file of another size than the content is not read, the Write runs again (as Write answers it)", async () => {
    const workdir = project({});
    const file = path.join(workdir, "a.txt");
    const call = { id: "w-big", name: "Write", arguments: { path: "a.txt", content: "hello\n" } };
    const resumed = await resumeAfter(workdir, call, sparse(file, HUGE));
    // Reading it whole (the check did) failed past 2 GiB and reported outcome_unknown; below that it held gigabytes in memory.
    expect(resumed.error?.code, toolResultText(resumed, "")).not.toBe("outcome_unknown");
    expect(fs.statSync(file).size === HUGE || fs.readFileSync(file, "utf8") === "hello\n").toBe(true);
  });

  it("Edit: a file over the check's limit is reported unknown without being read", async () => {
    const workdir = project({ "a.txt": "alpha\n" });
    const file = path.join(workdir, "a.txt");
    const call = { id: "e-big", name: "Edit", arguments: { path: "a.txt", old_string: "alpha", new_string: "beta" } };
    const resumed = await resumeAfter(workdir, call, sparse(file, HUGE));
    expect(resumed.error?.code).toBe("outcome_unknown");
    expect(toolResultText(resumed, "")).toMatch(/more than the \d+ the check before running again reads/);
    expect(fs.statSync(file).size).toBe(HUGE);
  });
});
