import type { LoggingLevel } from "@modelcontextprotocol/sdk/types.js";

/** The MCP log levels (RFC 5424 severities), least severe first. */
const LEVELS: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/** The level a tool's streamed updates are logged at. */
export const TOOL_UPDATE_LOG_LEVEL: LoggingLevel = "info";

/**
 * True when a message of `level` passes the threshold a client set with
 * `logging/setLevel`; false when the client set none (the server sends log
 * messages only to clients that asked for them).
 *
 * @example
 * logLevelAllows("info", "debug"); // true
 * logLevelAllows("warning", "debug"); // false
 * logLevelAllows(undefined, "error"); // false
 */
export function logLevelAllows(threshold: LoggingLevel | undefined, level: LoggingLevel): boolean {
  if (threshold === undefined) return false;
  return LEVELS.indexOf(level) >= LEVELS.indexOf(threshold);
}
