import type { ProgramExit, ProgramRun } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { killRipgrepOnAbort } from "./ripgrep-child.js";

function recordingRun(): ProgramRun & { kills: number } {
  const run = {
    kills: 0,
    finished: new Promise<ProgramExit>(() => undefined),
    kill() {
      run.kills += 1;
    },
  };
  return run;
}

describe("killRipgrepOnAbort", () => {
  it("kills a run whose call was aborted before ripgrep started (an abort event that already fired is never heard)", () => {
    const run = recordingRun();
    const controller = new AbortController();
    controller.abort();
    killRipgrepOnAbort(run, controller.signal);
    expect(run.kills).toBe(1);
  });

  it("kills on a later abort, and not after it stopped listening", () => {
    const run = recordingRun();
    const controller = new AbortController();
    const stop = killRipgrepOnAbort(run, controller.signal);
    expect(run.kills).toBe(0);
    controller.abort();
    expect(run.kills).toBe(1);
    const other = recordingRun();
    const later = new AbortController();
    killRipgrepOnAbort(other, later.signal)();
    later.abort();
    expect(other.kills).toBe(0);
    stop();
  });
});
