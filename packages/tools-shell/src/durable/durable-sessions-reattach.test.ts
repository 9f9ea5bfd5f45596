import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { isProcessAlive } from "@agent-tools/node/internal";
import { processTreeScript, waitForPidFiles } from "@agent-tools/node/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolRegistry } from "@agent-tools/core";
import { type HostLine, burstCommand, burstOutput, startHost } from "../__fixtures__/durable-hosts.js";
import { createNodeToolRegistry } from "../__fixtures__/node-tool-registry.js";
import { createShellToolBundle } from "../shell-tool-bundle.js";

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

const registries: ToolRegistry[] = [];
afterEach(async () => {
  for (const registry of registries.splice(0)) await registry.close();
});

/** A registry of this process on the same directories: a host started after the killed one. */
function newHost(): ToolRegistry {
  const registry = createNodeToolRegistry({ workdir, dataDir: workdir, bundles: [createShellToolBundle({ durableSessions: { dir } })], loopBreaker: false });
  registries.push(registry);
  return registry;
}

async function wait(registry: ToolRegistry, args: Record<string, unknown>): Promise<Record<string, any>> {
  const result = await registry.executeToolCall({ id: `wait-${Math.random()}`, name: "ProcessWait", arguments: { ...args, yield_time_ms: 5_000 } });
  return result.details as Record<string, any>;
}

function outputOf(details: Record<string, any>): string {
  return (details.output as { text: string }[]).map((fragment) => fragment.text).join("");
}

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
    // The next host here is a registry of this process (the one above is a real second host process).
    const registry = newHost();
    let details = await wait(registry, { session_id: model.session_id, cursor: model.cursor });
    let after = outputOf(details);
    while (details.status === "running" || details.has_more) {
      details = await wait(registry, { session_id: model.session_id, cursor: details.cursor });
      after += outputOf(details);
    }
    expect(details).toMatchObject({ status: "completed" });
    expect(received(before) + after).toBe(burstOutput(count));
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
    const stopped = await newHost().executeToolCall({ id: "stop-1", name: "ProcessStop", arguments: { session_id: started.session_id } });
    expect(stopped.details).toMatchObject({ status: "cancelled" });
    expect(await waitDead(pids)).toEqual([]);
  }, 60_000);
});
