/**
 * The plain host process the harness kills (no engine): builds the fault
 * registry and runs the scripted loop from the top with the episode's run
 * id, each call as `executeToolCall(call, { durable: { runId } })`; with
 * backend `none` (the control run) without `durable`, so a restart repeats
 * every side effect. Prints `ready` once the registry is built.
 *
 * Run: node --import tsx --conditions=@agent-tools/source fault-host.ts '<json config>'
 */
import { openFaultRegistry } from "./fault-registry.js";
import { parseHostConfig } from "./host-config.js";
import { runScriptedLoop, say } from "./scripted-loop.js";

const config = parseHostConfig(process.argv[2]);
const opened = await openFaultRegistry(config);
try {
  say("ready");
  await runScriptedLoop(config, (call) => opened.registry.executeToolCall(call, opened.durable ? { durable: { runId: config.runId } } : {}));
} finally {
  await opened.close();
}
