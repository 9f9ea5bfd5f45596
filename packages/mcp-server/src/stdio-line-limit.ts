/**
 * The stdio transport's bound on one message. MCP over stdio frames each
 * JSON-RPC message as one line; the MCP SDK's read buffer gives up past
 * 10 MiB by closing the transport, which looked like a client that closed
 * stdin (the command exited 0). This gate measures the lines itself and
 * stops passing bytes on at the first one over the limit, so the transport
 * never parses any part of it and the session can end with a reason.
 */
import { PassThrough, type Readable } from "node:stream";

/** Longest stdio line (one JSON-RPC message) a session accepts: 10 MiB, the MCP SDK's own read-buffer size. */
export const MAX_STDIO_MESSAGE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 0x0a;

/** A gated copy of an input stream; see {@link gateLineLength}. */
export interface LineLengthGate {
  /** What the transport reads: the source's bytes until a line passed the limit. */
  readonly stream: Readable;
  /** Stops reading the source (pausing it when nothing else reads it) and ends `stream`. Idempotent. */
  stop(): void;
}

/**
 * Passes `source`'s chunks on to a new stream while every line (newline
 * excluded) stays within `maxBytes`. The chunk in which a line passes the
 * limit is not passed on: the gate stops and calls `onOverflow` once.
 *
 * @example
 * const gate = gateLineLength(process.stdin, MAX_STDIO_MESSAGE_BYTES, () => session.close());
 * await server.connect(new StdioServerTransport(gate.stream, process.stdout));
 */
export function gateLineLength(source: NodeJS.ReadableStream, maxBytes: number, onOverflow: () => void): LineLengthGate {
  const output = new PassThrough();
  let lineBytes = 0;
  let stopped = false;

  const withinLimit = (bytes: Buffer): boolean => {
    let start = 0;
    for (;;) {
      const newline = bytes.indexOf(NEWLINE, start);
      lineBytes += (newline === -1 ? bytes.length : newline) - start;
      if (lineBytes > maxBytes) return false;
      if (newline === -1) return true;
      lineBytes = 0;
      start = newline + 1;
    }
  };
  const onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    if (withinLimit(bytes)) {
      output.write(bytes);
      return;
    }
    stop();
    onOverflow();
  };
  const onEnd = () => output.end();
  const onError = (error: Error) => output.destroy(error);
  const stop = () => {
    if (stopped) return;
    stopped = true;
    source.off("data", onData);
    source.off("end", onEnd);
    source.off("error", onError);
    // As the SDK's transport does on close: pause the source only when nothing else reads it.
    if (source.listenerCount("data") === 0) source.pause();
    output.end();
  };
  source.on("data", onData);
  source.once("end", onEnd);
  source.on("error", onError);
  return { stream: output, stop };
}
