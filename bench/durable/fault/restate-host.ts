/**
 * The host process under Restate: a Restate endpoint (service `FaultLoop`,
 * handler `run`) whose handler runs the scripted loop, each call as a
 * journaled step through `executeToolCallInRestate` (run id: the episode's).
 * Restate retries the invocation after a kill; the new endpoint replays the
 * journal (recorded steps come back without running) and the ledger answers
 * for a step that was cut mid-run. Listens on `RESTATE_ENDPOINT_PORT` and
 * prints `ready` when it does.
 *
 * Run: RESTATE_ENDPOINT_PORT=<port> node --import tsx --conditions=@agent-tools/source restate-host.ts '<json config>'
 */
import { executeToolCallInRestate, installPromiseWithResolvers } from "@agent-tools/restate";
import * as restate from "@restatedev/restate-sdk";
import { openFaultRegistry } from "./fault-registry.js";
import { parseHostConfig } from "./host-config.js";
import { runScriptedLoop, say } from "./scripted-loop.js";

/** The Restate service and handler the harness invokes. */
export const FAULT_LOOP_SERVICE = { service: "FaultLoop", handler: "run" } as const;

// The Restate SDK calls Promise.withResolvers, which Node 20 lacks.
installPromiseWithResolvers();
const config = parseHostConfig(process.argv[2]);
const port = Number(process.env.RESTATE_ENDPOINT_PORT);
if (!Number.isInteger(port) || port <= 0) throw new Error("restate-host: RESTATE_ENDPOINT_PORT is missing");
const opened = await openFaultRegistry(config);

const faultLoop = restate.service({
  name: FAULT_LOOP_SERVICE.service,
  handlers: {
    run: async (ctx: restate.Context, input: { runId: string }): Promise<{ runId: string; calls: number }> => {
      if (input.runId !== config.runId) throw new restate.TerminalError(`this endpoint serves run ${config.runId}, not ${input.runId}`);
      const results = await runScriptedLoop(config, (call) => executeToolCallInRestate(ctx, opened.registry, call, { runId: config.runId }));
      return { runId: config.runId, calls: results.length };
    },
  },
});

await restate.endpoint().bind(faultLoop).listen(port);
say("ready");
