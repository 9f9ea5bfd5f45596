import type { Logger } from "@agent-tools/core";

/**
 * A logger that writes one line per entry to stderr. On stdio, stdout is the
 * protocol stream, so diagnostics must never go there.
 *
 * @example
 * const logger = createStderrLogger("agent-tools-mcp");
 * logger.warn("session closed", { sessionId });
 */
export function createStderrLogger(prefix = "agent-tools-mcp", stream: NodeJS.WritableStream = process.stderr): Logger {
  const write = (level: string, message: string, data?: Record<string, unknown>) => {
    const suffix = data === undefined ? "" : ` ${safeJson(data)}`;
    stream.write(`[${prefix}] ${level}: ${message}${suffix}\n`);
  };
  return {
    debug: () => undefined,
    info: (message, data) => write("info", message, data),
    warn: (message, data) => write("warn", message, data),
    error: (message, data) => write("error", message, data),
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
