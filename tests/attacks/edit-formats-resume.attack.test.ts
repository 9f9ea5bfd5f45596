/**
 * Attacks on the durable resume of ApplyPatch and of Edit's multi-edit form
 * (the check an interrupted call makes before it runs again), and on
 * ApplyPatch's own reads: a file the model made huge (sparse, no disk used)
 * after the crash must not be read whole by the check (as Write's and
 * Edit's checks were bounded in issue 36), and `*** Delete File:` of a huge
 * file reads no more than the Delete tool does. Reads are counted with the
 * process's `rchar` (/proc/self/io), never timed.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import type { CallLedger } from "@agent-tools/core/durable";
import { InMemoryCallLedger } from "@agent-tools/durable";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-edit-formats-resume-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

/** Bigger than any bound a check may read (64 MiB), small enough that reading it whole does not end the test process. */
const HUGE = 256 * 1024 * 1024;
/** What a bounded check may read of it. */
const BOUND = 96 * 1024 * 1024;

let cases = 0;
function project(files: Record<string, string>): string {
  const workdir = path.join(temporary, `case-${(cases += 1)}`);
  fs.mkdirSync(workdir);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(workdir, name), text);
  return workdir;
}

/** Bytes this process has read so far (all threads). */
function bytesRead(): number {
  return Number(/rchar:\s*(\d+)/.exec(fs.readFileSync("/proc/self/io", "utf8"))?.[1] ?? Number.NaN);
}

/** Replaces `file` by a sparse file of `size` bytes. */
function sparse(file: string, size = HUGE): void {
  fs.rmSync(file, { force: true });
  const descriptor = fs.openSync(file, "w");
  fs.ftruncateSync(descriptor, size);
  fs.closeSync(descriptor);
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

/** Runs `call` on a registry whose ledger loses its outcome, lets `plant` act, then resumes it on a new registry; returns the answer and the bytes the resume read. */
async function resumeAfter(workdir: string, call: { id: string; name: string; arguments: Record<string, unknown> }, plant: () => void) {
  const ledger = crashingAfterTool(call.id);
  const durable = { durable: { runId: "run-1" } };
  const first = await buildBuiltinToolRegistry({ workdir, ledger, editSurface: "both", memory: false });
  try {
    const ran = await first.executeToolCall(call, durable);
    expect(ran.isError, toolResultText(ran, "")).toBe(false);
  } finally {
    await first.close();
  }
  plant();
  const second = await buildBuiltinToolRegistry({ workdir, ledger, editSurface: "both", memory: false });
  try {
    const start = bytesRead();
    const result = await second.executeToolCall(call, durable);
    return { result, text: toolResultText(result, ""), read: bytesRead() - start };
  } finally {
    await second.close();
  }
}

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

describe("ApplyPatch's resume on a file the model made huge", () => {
  it("Add File: a huge file at the added path is not read whole", async () => {
    const workdir = project({});
    const call = { id: "ap-add", name: "ApplyPatch", arguments: { patch: patch("*** Add File: a.txt", "+hello") } };
    const resumed = await resumeAfter(workdir, call, () => sparse(path.join(workdir, "a.txt")));
    expect(resumed.read, resumed.text).toBeLessThan(BOUND);
    expect(resumed.text).not.toMatch(/already applied/);
    expect(fs.statSync(path.join(workdir, "a.txt")).size).toBe(HUGE);
  });

  it("Update File: a huge file at the updated path is not read whole", async () => {
    const workdir = project({ "a.txt": "alpha\n" });
    const call = { id: "ap-update", name: "ApplyPatch", arguments: { patch: patch("*** Update File: a.txt", "@@", "-alpha", "+beta") } };
    const resumed = await resumeAfter(workdir, call, () => sparse(path.join(workdir, "a.txt")));
    expect(resumed.read, resumed.text).toBeLessThan(BOUND);
    expect(resumed.text).not.toMatch(/already applied/);
    expect(fs.statSync(path.join(workdir, "a.txt")).size).toBe(HUGE);
  });

  it("Move to: a huge file at the destination is not read whole", async () => {
    const workdir = project({ "a.txt": "alpha\n" });
    const call = { id: "ap-move", name: "ApplyPatch", arguments: { patch: patch("*** Update File: a.txt", "*** Move to: b.txt", "@@", "-alpha", "+beta") } };
    const resumed = await resumeAfter(workdir, call, () => sparse(path.join(workdir, "b.txt")));
    expect(resumed.read, resumed.text).toBeLessThan(BOUND);
    expect(resumed.text).not.toMatch(/already applied/);
  });
});

describe("Edit's multi-edit resume on a file the model made huge", () => {
  it("edits: a huge file is not read whole", async () => {
    const workdir = project({ "a.txt": "alpha\nbeta\n" });
    const edits = [
      { old_string: "alpha", new_string: "ALPHA" },
      { old_string: "beta", new_string: "BETA" },
    ];
    const call = { id: "me", name: "Edit", arguments: { path: "a.txt", edits } };
    const resumed = await resumeAfter(workdir, call, () => sparse(path.join(workdir, "a.txt")));
    expect(resumed.read, resumed.text).toBeLessThan(BOUND);
    expect(resumed.text).not.toMatch(/already applied/);
  });
});

describe("ApplyPatch's Delete File of a huge file", () => {
  it("reads no more of it than the Delete tool does (it read the whole file to keep an undo copy)", async () => {
    const workdir = project({});
    sparse(path.join(workdir, "big.log"));
    sparse(path.join(workdir, "big2.log"));
    const registry = await buildBuiltinToolRegistry({ workdir, editSurface: "both", memory: false });
    try {
      let start = bytesRead();
      const deleted = await registry.executeToolCall({ id: "d", name: "Delete", arguments: { path: "big.log" } });
      const byDelete = bytesRead() - start;
      expect(deleted.isError, toolResultText(deleted, "")).toBe(false);
      start = bytesRead();
      const patched = await registry.executeToolCall({ id: "p", name: "ApplyPatch", arguments: { patch: patch("*** Delete File: big2.log") } });
      const byPatch = bytesRead() - start;
      expect(byPatch, toolResultText(patched, "")).toBeLessThan(byDelete + BOUND);
      expect(patched.isError, toolResultText(patched, "")).toBe(false);
      expect(fs.existsSync(path.join(workdir, "big2.log"))).toBe(false);
    } finally {
      await registry.close();
    }
  });
});

describe("ApplyPatch's resume never applies a patch twice", () => {
  it("a hunk whose reverse is ambiguous after it applied, and whose removed line still matches elsewhere under a looser pass, is not run again", async () => {
    // Before: "x" once exactly (and "x " once), "y" twice: the hunk applies at line 1, its reverse is ambiguous (y twice): still to do.
    // After: "x" is gone but "x " matches it ignoring trailing whitespace, and "y" is there three times: read as still to do again.
    const workdir = project({ "a.txt": "x\nx \ny\ny\n" });
    const call = { id: "ap-twice", name: "ApplyPatch", arguments: { patch: patch("*** Update File: a.txt", "@@", "-x", "+y") } };
    const resumed = await resumeAfter(workdir, call, () => undefined);
    // Applied once: "y\nx \ny\ny\n". Run again, it changed the second line too.
    expect(fs.readFileSync(path.join(workdir, "a.txt"), "utf8"), resumed.text).toBe("y\nx \ny\ny\n");
  });
});

describe("Edit's resume never applies an edit twice", () => {
  it("edits: an old_string gone once applied but matched elsewhere ignoring trailing whitespace is not run again", async () => {
    const workdir = project({ "a.txt": "x\nx \nq\n" });
    const edits = [
      { old_string: "x\n", new_string: "y\n" },
      { old_string: "q", new_string: "r" },
    ];
    const call = { id: "me-twice", name: "Edit", arguments: { path: "a.txt", edits } };
    const resumed = await resumeAfter(workdir, call, () => undefined);
    expect(fs.readFileSync(path.join(workdir, "a.txt"), "utf8"), resumed.text).toBe("y\nx \nr\n");
  });

  it("edits with one edit: the same", async () => {
    const workdir = project({ "a.txt": "x\nx \nq\n" });
    const call = { id: "me-one", name: "Edit", arguments: { path: "a.txt", edits: [{ old_string: "x\n", new_string: "y\n" }] } };
    const resumed = await resumeAfter(workdir, call, () => undefined);
    expect(fs.readFileSync(path.join(workdir, "a.txt"), "utf8"), resumed.text).toBe("y\nx \nq\n");
  });

  it("old_string/new_string: the same", async () => {
    const workdir = project({ "a.txt": "x\nx \nq\n" });
    const call = { id: "e-twice", name: "Edit", arguments: { path: "a.txt", old_string: "x\n", new_string: "y\n" } };
    const resumed = await resumeAfter(workdir, call, () => undefined);
    expect(fs.readFileSync(path.join(workdir, "a.txt"), "utf8"), resumed.text).toBe("y\nx \nq\n");
  });
});
