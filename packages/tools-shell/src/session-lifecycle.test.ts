import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isProcessAlive } from "@agent-tools/node/internal";
import { processTreeScript, waitForPidFiles } from "@agent-tools/node/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, detailsOf, textOf } from "./__fixtures__/harness.js";

const TREE_SIZE = 52;
let harness: ReturnType<typeof createHarness>;
afterEach(async () => {
  await harness?.cleanup();
});

/** Writes a tree script (>= 50 processes, one ignoring SIGTERM, one double forked into its own session). */
function prepareTree(name: string): { pidDir: string; command: string } {
  const pidDir = path.join(harness.workdir, `${name}-pids`);
  mkdirSync(pidDir);
  writeFileSync(path.join(harness.workdir, `${name}.sh`), processTreeScript(pidDir, TREE_SIZE));
  return { pidDir, command: `sh ${name}.sh` };
}

describe("process trees", () => {
  it(`ProcessStop leaves no live process of a ${TREE_SIZE}-process tree; cancelled is not an error`, async () => {
    harness = createHarness();
    const { pidDir, command } = prepareTree("stop");
    const started = await harness.call("Bash", { command, yield_time_ms: 250 });
    expect(detailsOf(started).status).toBe("running");
    const pids = await waitForPidFiles(pidDir, TREE_SIZE);
    expect(pids.filter((pid) => isProcessAlive(pid))).toHaveLength(TREE_SIZE);
    const stopped = await harness.call("ProcessStop", { session_id: detailsOf(started).session_id, cursor: detailsOf(started).cursor });
    expect(stopped.isError).toBe(false);
    expect(detailsOf(stopped)).toMatchObject({ status: "cancelled", exit_code: -1 });
    expect(textOf(stopped)).toContain("status: cancelled");
    expect(pids.filter((pid) => isProcessAlive(pid))).toEqual([]);
  });

  it(`a hard timeout leaves no live process of a ${TREE_SIZE}-process tree`, async () => {
    harness = createHarness();
    const { pidDir, command } = prepareTree("timeout");
    const started = await harness.call("Bash", { command, yield_time_ms: 250, timeout_ms: 4_000 });
    const pids = await waitForPidFiles(pidDir, TREE_SIZE);
    let result = started;
    while (detailsOf(result).status === "running") {
      result = await harness.call("ProcessWait", { session_id: detailsOf(started).session_id, cursor: detailsOf(result).cursor });
    }
    expect(detailsOf(result).status).toBe("timed_out");
    expect(result.isError).toBe(true);
    expect(pids.filter((pid) => isProcessAlive(pid))).toEqual([]);
  });

  it("registry.close() ends running sessions and the leftovers of finished ones", async () => {
    harness = createHarness();
    const { pidDir, command } = prepareTree("close");
    await harness.call("Bash", { command, yield_time_ms: 250 });
    const leftDir = path.join(harness.workdir, "left");
    mkdirSync(leftDir);
    const finished = await harness.call("Bash", {
      command: `cd left && (setsid sh -c 'echo $$ > bg.pid; exec tail -f /dev/null' > /dev/null 2>&1 &) ; echo started`,
    });
    expect(detailsOf(finished).status).toBe("completed");
    const pids = [...(await waitForPidFiles(pidDir, TREE_SIZE)), ...(await waitForPidFiles(leftDir, 1))];
    expect(pids.every((pid) => isProcessAlive(pid))).toBe(true);
    await harness.registry.close();
    expect(pids.filter((pid) => isProcessAlive(pid))).toEqual([]);
  });

  it("ProcessStop on a finished session ends the background process it left and keeps its status", async () => {
    harness = createHarness();
    const finished = await harness.call("Bash", { command: "(setsid sh -c 'echo $$ > bg.pid; exec tail -f /dev/null' > /dev/null 2>&1 &) ; echo started" });
    const [pid] = await waitForPidFiles(harness.workdir, 1);
    expect(isProcessAlive(pid!)).toBe(true);
    const stopped = await harness.call("ProcessStop", { session_id: detailsOf(finished).session_id });
    expect(detailsOf(stopped).status).toBe("completed");
    expect(isProcessAlive(pid!)).toBe(false);
  });
});

describe("inherited pipes", () => {
  it("a background process holding stdout does not hold the session", async () => {
    harness = createHarness();
    const result = await harness.call("Bash", { command: "(setsid sh -c 'echo $$ > holder.pid; exec sleep 30' &) ; echo hi" });
    expect(detailsOf(result)).toMatchObject({ status: "completed", exit_code: 0 });
    expect(detailsOf(result).output[0].text).toBe("hi\n");
    const [pid] = await waitForPidFiles(harness.workdir, 1);
    await harness.registry.close();
    expect(isProcessAlive(pid!)).toBe(false);
  });
});

describe("abort from the host", () => {
  it("an abort during the start window stops the session and returns a cancelled result that is not an error", async () => {
    harness = createHarness();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const result = await harness.call("Bash", { command: "echo begin; exec tail -f /dev/null", yield_time_ms: 30_000 }, { signal: controller.signal });
    expect(result.isError).toBe(false);
    expect(detailsOf(result)).toMatchObject({ status: "cancelled" });
    expect(detailsOf(result).output[0].text).toBe("begin\n");
    const after = await harness.call("ProcessWait", { session_id: detailsOf(result).session_id, cursor: 0 });
    expect(detailsOf(after).status).toBe("cancelled");
  });

  it("an abort of a later ProcessWait stops the session", async () => {
    harness = createHarness();
    const started = await harness.call("Bash", { command: "tail -f /dev/null", yield_time_ms: 250 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const waited = await harness.call("ProcessWait", { session_id: detailsOf(started).session_id, cursor: 0 }, { signal: controller.signal });
    expect(waited.isError).toBe(false);
    expect(detailsOf(waited).status).toBe("cancelled");
  });

  it("the start call's signal keeps guarding the session after the call returned (chat Stop)", async () => {
    harness = createHarness();
    const turn = new AbortController();
    const started = await harness.call("Bash", { command: "tail -f /dev/null", yield_time_ms: 250 }, { signal: turn.signal });
    expect(detailsOf(started).status).toBe("running");
    turn.abort();
    const after = await harness.call("ProcessWait", { session_id: detailsOf(started).session_id, cursor: 0, yield_time_ms: 5_000 });
    expect(detailsOf(after).status).toBe("cancelled");
  });
});

describe("session limit", () => {
  it("holds at most 64 sessions, evicts the oldest finished one, and refuses when all run", async () => {
    harness = createHarness();
    const starts = await Promise.all(Array.from({ length: 64 }, () => harness.call("Bash", { command: "tail -f /dev/null", yield_time_ms: 250 })));
    expect(starts.every((result) => detailsOf(result).status === "running")).toBe(true);
    const refused = await harness.call("Bash", { command: "echo 65" });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("shell session limit reached (64)");
    const victim = detailsOf(starts[5]!).session_id;
    await harness.call("ProcessStop", { session_id: victim });
    const accepted = await harness.call("Bash", { command: "echo 65" });
    expect(detailsOf(accepted)).toMatchObject({ status: "completed" });
    const evicted = await harness.call("ProcessWait", { session_id: victim });
    expect(textOf(evicted)).toContain(`shell session not found or expired: ${victim}`);
  });
});
