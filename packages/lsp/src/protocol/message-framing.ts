/**
 * The base protocol's framing: `Content-Length: N\r\n\r\n` then N bytes of
 * UTF-8 JSON. The reader is fed raw chunks of a server's stdout and hands
 * out whole parsed messages. Invariants: the buffer never grows past the
 * header limit plus the message cap (a server that announces or sends more
 * is a protocol failure, not memory to spend), and once it fails it stays
 * failed.
 */

/** The default cap of one message body: 64 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

const MAX_HEADER_BYTES = 8 * 1024;
const HEADER_END = Buffer.from("\r\n\r\n", "ascii");

/** Encodes one message as a framed buffer. */
export function encodeMessage(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), "utf8");
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, "ascii"), body]);
}

/** Thrown (once) by {@link MessageReader.push} when the stream is not valid framed JSON-RPC. */
export class FramingError extends Error {
  override readonly name = "FramingError";
}

/** Reads framed messages from a byte stream. */
export interface MessageReader {
  /** Feeds bytes; returns the messages they completed. Throws {@link FramingError} on a malformed or oversized frame. */
  push(chunk: Buffer): unknown[];
}

/** A reader with the given body cap. */
export function createMessageReader(maxMessageBytes: number = DEFAULT_MAX_MESSAGE_BYTES): MessageReader {
  let buffer: Buffer = Buffer.alloc(0);
  let expected: number | undefined;
  let failed: FramingError | undefined;
  const fail = (message: string): never => {
    failed = new FramingError(message);
    buffer = Buffer.alloc(0);
    throw failed;
  };
  const readHeader = (): boolean => {
    const end = buffer.indexOf(HEADER_END);
    if (end < 0) {
      if (buffer.length > MAX_HEADER_BYTES) fail(`no header end within ${MAX_HEADER_BYTES} bytes`);
      return false;
    }
    if (end > MAX_HEADER_BYTES) fail(`header longer than ${MAX_HEADER_BYTES} bytes`);
    let length: number | undefined;
    for (const line of buffer.subarray(0, end).toString("ascii").split("\r\n")) {
      const colon = line.indexOf(":");
      if (colon <= 0) fail(`malformed header line ${JSON.stringify(line.slice(0, 80))}`);
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === "content-length") {
        if (!/^\d{1,12}$/.test(value)) fail(`invalid Content-Length ${JSON.stringify(value.slice(0, 40))}`);
        length = Number(value);
      }
    }
    if (length === undefined) return fail("a header without Content-Length");
    if (length > maxMessageBytes) fail(`a message of ${length} bytes is over the ${maxMessageBytes}-byte cap`);
    expected = length;
    buffer = buffer.subarray(end + HEADER_END.length);
    return true;
  };
  return {
    push(chunk) {
      if (failed) throw failed;
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      const messages: unknown[] = [];
      for (;;) {
        if (expected === undefined && !readHeader()) break;
        const length = expected as number;
        if (buffer.length < length) break;
        const body = buffer.subarray(0, length).toString("utf8");
        buffer = buffer.subarray(length);
        expected = undefined;
        let message: unknown;
        try {
          message = JSON.parse(body);
        } catch {
          fail("a message body that is not JSON");
        }
        if (typeof message !== "object" || message === null || Array.isArray(message)) fail("a message that is not a JSON object");
        messages.push(message);
      }
      return messages;
    },
  };
}
