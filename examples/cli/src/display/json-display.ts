/**
 * `--json`: the event stream, one JSON object per line, for scripts and CI.
 */
import type { AgentEvent } from "../agent/agent-events.js";

/**
 * Returns a listener that writes each event as one line of JSON with a
 * `time` field (ISO 8601).
 *
 * @example
 * const onEvent = createJsonEventWriter(process.stdout);
 * onEvent({ type: "notice", level: "info", message: "hello" });
 * // {"type":"notice","level":"info","message":"hello","time":"2026-12-02T11:00:00.000Z"}
 */
export function createJsonEventWriter(stream: NodeJS.WritableStream): (event: AgentEvent) => void {
  return (event) => {
    stream.write(`${JSON.stringify({ ...event, time: new Date().toISOString() })}\n`);
  };
}
