/** One event of a `text/event-stream` body. */
export interface ServerSentEvent {
  /** The `event:` field, or `message` when absent. */
  event: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
}

/**
 * Parses a `text/event-stream` body into events (WHATWG rules: `\n`, `\r\n`
 * or `\r` line ends, multi-line `data`, comments starting with `:`). Bytes are
 * decoded as UTF-8 across chunk boundaries.
 */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder("utf-8");
  const reader = body.getReader();
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let sawData = false;
  const takeLine = (line: string): ServerSentEvent | undefined => {
    if (line === "") {
      if (!sawData) {
        event = "";
        return undefined;
      }
      const dispatched = { event: event || "message", data: data.join("\n") };
      event = "";
      data = [];
      sawData = false;
      return dispatched;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      data.push(value);
      sawData = true;
    } else if (field === "event") {
      event = value;
    }
    return undefined;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      for (;;) {
        const match = /\r\n|\r|\n/.exec(buffer);
        // A lone `\r` at the very end may be the first half of `\r\n`: wait for more.
        if (!match || (match[0] === "\r" && match.index === buffer.length - 1 && !done)) break;
        const line = buffer.slice(0, match.index);
        buffer = buffer.slice(match.index + match[0].length);
        const dispatched = takeLine(line);
        if (dispatched) yield dispatched;
      }
      if (done) break;
    }
    if (buffer !== "") {
      takeLine(buffer);
      buffer = "";
    }
    // A final event without its blank line is still delivered.
    const last = takeLine("");
    if (last) yield last;
  } finally {
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
