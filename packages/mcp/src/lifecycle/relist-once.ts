/**
 * Single flight with one follow-up: the runner a server connection's
 * `tools/list_changed` handler goes through, so a flood of notifications
 * asks the server for its tools a handful of times, not once per
 * notification. Nothing here is module state.
 */

/**
 * Returns a trigger that runs `run` with at most one run in flight: a
 * trigger during a run marks "again" (however many arrive) and the run is
 * repeated once after the current one; every trigger's promise settles when
 * the runs it caused have ended. `run` handles its own errors (one that
 * throws ends the repetition and rejects the triggers waiting on it).
 *
 * @example
 * const relist = singleFlightWithFollowUp(() => refreshTools());
 * for (let index = 0; index < 100; index += 1) void relist(); // refreshTools runs twice
 */
export function singleFlightWithFollowUp(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await run();
        } while (again);
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
}
