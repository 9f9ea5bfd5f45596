import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, detailsOf } from "./__fixtures__/harness.js";

const WAITS = 60;
let harness: ReturnType<typeof createHarness>;
afterEach(async () => {
  await harness?.cleanup();
});

/** Starts `yes` as a Bash session: every ProcessWait on it returns at once with a full page. */
async function startChatty(signal?: AbortSignal): Promise<{ sessionId: string; cursor: number }> {
  const started = await harness.call("Bash", { command: "exec yes chatty", yield_time_ms: 250 }, { signal });
  expect(detailsOf(started).status).toBe("running");
  return { sessionId: detailsOf(started).session_id, cursor: detailsOf(started).cursor };
}

describe("back-to-back ProcessWait on a chatty session", () => {
  it(`${WAITS} waits with one shared turn signal leave one abort listener on it, and none once the session ended`, async () => {
    harness = createHarness();
    const turn = new AbortController();
    let { sessionId, cursor } = await startChatty(turn.signal);
    for (let index = 0; index < WAITS; index += 1) {
      const waited = await harness.call("ProcessWait", { session_id: sessionId, cursor, yield_time_ms: 5_000 }, { signal: turn.signal });
      expect(detailsOf(waited).status).toBe("running");
      expect(detailsOf(waited).output_truncated).toBe(false);
      cursor = detailsOf(waited).cursor;
      // Before: one more listener per call (and a MaxListenersExceededWarning after 10).
      expect(getEventListeners(turn.signal, "abort")).toHaveLength(1);
    }
    await harness.call("ProcessStop", { session_id: sessionId });
    expect(getEventListeners(turn.signal, "abort")).toHaveLength(0);
  });

  it(`${WAITS} waits with a signal per call keep one listener on each while the session runs (a later abort still stops it), none after`, async () => {
    harness = createHarness();
    let { sessionId, cursor } = await startChatty();
    const signals: AbortController[] = [];
    for (let index = 0; index < WAITS; index += 1) {
      const call = new AbortController();
      signals.push(call);
      const waited = await harness.call("ProcessWait", { session_id: sessionId, cursor, yield_time_ms: 5_000 }, { signal: call.signal });
      cursor = detailsOf(waited).cursor;
      expect(getEventListeners(call.signal, "abort")).toHaveLength(1);
    }
    // The signal of an earlier call still guards the session (chat Stop) ...
    signals[7]!.abort();
    let status = "running";
    // Buffered output still returns at once while the tree is being killed.
    for (let calls = 0; status === "running" && calls < 1_000; calls += 1) {
      const after = await harness.call("ProcessWait", { session_id: sessionId, cursor, yield_time_ms: 5_000 });
      status = detailsOf(after).status;
      cursor = detailsOf(after).cursor;
    }
    expect(status).toBe("cancelled");
    // ... and once it ended, no signal keeps a listener (nor the session through it).
    expect(signals.map((controller) => getEventListeners(controller.signal, "abort").length)).toEqual(signals.map(() => 0));
  });
});
