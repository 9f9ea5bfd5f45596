/**
 * A Logger that writes one line per message to a stream (the command's
 * stderr: on stdio, stdout carries nothing but the protocol).
 */
import type { Logger } from "@agent-tools/core";

/**
 * Lines look like `agent-tools-mcp warn: message {"key":"value"}`; `debug`
 * lines are written only when `debug` is true.
 *
 * @example
 * const logger = createStreamLogger(process.stderr);
 * logger.warn("session closed", { sessionId: "s1" });
 */
export function createStreamLogger(stream: NodeJS.WritableStream, options: { debug?: boolean } = {}): Logger {
  const write = (level: string, message: string, data?: Record<string, unknown>) => {
    let suffix = "";
    if (data !== undefined && Object.keys(data).length > 0) {
      try {
        suffix = ` ${JSON.stringify(data)}`;
      } catch {
        suffix = " [data not serialisable]";
      }
    }
    stream.write(`agent-tools-mcp ${level}: ${message}${suffix}\n`);
  };
  return {
    debug: (message, data) => {
      if (options.debug === true) write("debug", message, data);
    },
    info: (message, data) => write("info", message, data),
    warn: (message, data) => write("warn", message, data),
    error: (message, data) => write("error", message, data),
  };
}
