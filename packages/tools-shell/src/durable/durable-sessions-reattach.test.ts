import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { isProcessAlive } from "@agent-tools/node/internal";
import { processTreeScript, waitForPidFiles } from "@agent-tools/node/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type HostLine, burstCommand, burstOutput, runHost, startHost } from "../__fixtures__/durable-hosts.js";

let scratch: string;
let workdir: string;
let dir: string;
const leftovers: number[] = [];

beforeEach(() => {
  scratch = realpathSync(mkdtempSync(path.join(os.tmpdir(), "shell-durable-")));
  workdir = path.join(scratch, "work");
  dir = path.join(scratch, "sessions");
  mkdirSync(workdir);
});
afterEach(() => {
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  rmSync(scratch, { recursive: true, force: true });
});

/** The text of every page a host handed to the model, in order. */
function received(lines: readonly HostLine[]): string {
  return lines
    .filter((line) => line.call !== undefined)
    .map((line) => line.text ?? "")
    .join("");
}

async function waitDead(pids: readonly number[], timeoutMs = 5_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && pids.some((pid) => isProcessAlive(pid))) await new Promise((resolve) => setTimeout(resolve, 50));
  return pids.filter((pid) => isProcessAlive(pid));
}

describe("durable Bash sessions across a host SIGKILL", () => {
  it("a new host reattaches with the persisted cursor and reads on: every byte of the output exactly once", async () => {
    const count = 400;
    const gate = path.join(scratch, "go");
    // Half the output, then the command waits for the gate: the session still runs when the new host reattaches.
    const first = startHost({ mode: "start", workdir, dir, command: burstCommand(count, { after: 200, file: gate }), waits: 1, idle: true });
    await first.until((line) => line.ready === true);
    const before = first.lines.filter((line) => line.call !== undefined);
    expect(before.map((line) => line.call)).toEqual(["Bash", "ProcessWait"]);
    expect(before[0]!.details).toMatchObject({ durable: true });
    const sessionId = before[0]!.session_id!;
    first.child.kill("SIGKILL");
    await first.exited;
    // No cursor: the new host continues from the cursor persisted before the last page was handed out.
    const second = startHost({ mode: "continue", workdir, dir, sessionId });
    const reattached = await second.until((line) => line.call === "ProcessWait");
    expect(reattached).toMatchObject({ status: "running", session_id: sessionId });
    expect(reattached.details?.cursor).toBeGreaterThan(before[1]!.cursor!);
    writeFileSync(gate, "");
    const after = await second.exited;
    expect(second.child.exitCode).toBe(0);
    const last = after[after.length - 1]!;
    expect(last).toMatchObject({ status: "completed", session_id: sessionId, has_more: false });
    expect(last.details).toMatchObject({ exit_code: 0, durable: true });
    const all = received(before) + received(after);
    expect(all.length).toBe(burstOutput(count).length);
    expect(all).toBe(burstOutput(count));
  }, 60_000);

  it("a host killed in the middle of its waits: the next host goes on from the last cursor the model got, nothing lost or repeated", async () => {
    const count = 400;
    const first = startHost({ mode: "start", workdir, dir, command: burstCommand(count), waits: 100, idle: true });
    await first.until((line) => line.call === "ProcessWait");
    first.child.kill("SIGKILL");
    await first.exited;
    const before = first.lines.filter((line) => line.call !== undefined);
    const model = before[before.length - 1]!;
    const after = await runHost({ mode: "continue", workdir, dir, sessionId: model.session_id, cursor: model.cursor });
    expect(after[after.length - 1]).toMatchObject({ status: "completed" });
    expect(received(before) + received(after)).toBe(burstOutput(count));
  }, 60_000);

  it("ProcessStop from a new host kills the whole tree, also processes that left the group (setsid, double fork)", async () => {
    const pidDir = path.join(scratch, "pids");
    mkdirSync(pidDir);
    writeFileSync(path.join(workdir, "tree.sh"), processTreeScript(pidDir, 6));
    const first = startHost({ mode: "start", workdir, dir, command: "sh tree.sh", idle: true });
    const started = await first.until((line) => line.call === "Bash");
    const pids = await waitForPidFiles(pidDir, 6);
    leftovers.push(...pids);
    first.child.kill("SIGKILL");
    await first.exited;
    // The host is gone; its durable session is not (no watchdog of the host reaches it).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(pids.filter((pid) => !isProcessAlive(pid))).toEqual([]);
    const stopped = await runHost({ mode: "stop", workdir, dir, sessionId: started.session_id });
    expect(stopped[0]).toMatchObject({ call: "ProcessStop", status: "cancelled" });
    expect(await waitDead(pids)).toEqual([]);
  }, 60_000);
});
