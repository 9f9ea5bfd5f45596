// A host process for the durable-session tests and bench: builds a registry
// with the shell bundle's `durableSessions` option and runs one script of
// calls, printing each result as a JSON line (what "the model got").
// Usage: node --import tsx --conditions=@agent-tools/source durable-host.ts '<json config>'
import { toolResultText } from "@agent-tools/core";
import { createShellToolBundle } from "../shell-tool-bundle.js";
import { createNodeToolRegistry } from "./node-tool-registry.js";

interface HostConfig {
  workdir: string;
  dir: string;
  /** start: Bash then `waits` ProcessWaits; continue: ProcessWait until the end; stop: ProcessStop; once: one ProcessWait. */
  mode: "start" | "continue" | "stop" | "once";
  command?: string;
  waits?: number;
  sessionId?: string;
  /** continue/once: the first ProcessWait passes this cursor (absent: none, the persisted one applies). */
  cursor?: number;
  callId?: string;
  /** start: after the script, stay alive until killed. */
  idle?: boolean;
}

const config = JSON.parse(process.argv[2] ?? "{}") as HostConfig;
const registry = createNodeToolRegistry({
  workdir: config.workdir,
  dataDir: config.workdir,
  bundles: [createShellToolBundle({ durableSessions: { dir: config.dir } })],
  loopBreaker: false,
});
let counter = 0;

async function call(name: string, args: Record<string, unknown>, callId = `${name}-${process.pid}-${(counter += 1)}`): Promise<Record<string, any>> {
  const result = await registry.executeToolCall({ id: callId, name, arguments: args });
  const details = (result.details ?? {}) as Record<string, any>;
  const text = Array.isArray(details.output) ? details.output.map((fragment: { text: string }) => fragment.text).join("") : "";
  const line = {
    call: name,
    session_id: details.session_id,
    status: details.status,
    cursor: details.cursor,
    has_more: details.has_more,
    text,
    details,
    content: toolResultText(result, ""),
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  return details;
}

if (config.mode === "start") {
  let details = await call("Bash", { command: config.command, yield_time_ms: 250 });
  for (let index = 0; index < (config.waits ?? 0) && (details.status === "running" || details.has_more); index += 1) {
    details = await call("ProcessWait", { session_id: details.session_id, cursor: details.cursor, yield_time_ms: 5_000 });
  }
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  if (config.idle) setInterval(() => undefined, 1_000);
  else await registry.close();
} else if (config.mode === "continue") {
  let details = await call("ProcessWait", {
    session_id: config.sessionId,
    ...(config.cursor === undefined ? {} : { cursor: config.cursor }),
    yield_time_ms: 5_000,
  });
  while (details.status === "running" || details.has_more) {
    details = await call("ProcessWait", { session_id: config.sessionId, cursor: details.cursor, yield_time_ms: 5_000 });
  }
  await registry.close();
} else if (config.mode === "once") {
  await call(
    "ProcessWait",
    { session_id: config.sessionId, ...(config.cursor === undefined ? {} : { cursor: config.cursor }), yield_time_ms: 5_000 },
    config.callId,
  );
  await registry.close();
} else if (config.mode === "stop") {
  await call("ProcessStop", { session_id: config.sessionId });
  await registry.close();
}
