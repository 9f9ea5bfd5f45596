// A scripted JSON-RPC peer for the protocol tests: answers "echo", asks the
// client "workspace/configuration" on "ask", never answers "hang", reports
// the cancellations it got on "cancelled", the notifications on "log",
// its environment on "env", and on "break" writes a
// malformed frame, on "huge" announces a message over any small cap.
"use strict";
let buffer = Buffer.alloc(0);
const cancelled = [];
const log = [];
let nextId = 1000;
const waiting = new Map();
const send = (message) => {
  const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...message }));
  process.stdout.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
};
const handle = (message) => {
  if (message.method === "$/cancelRequest") return void cancelled.push(message.params.id);
  if (message.method === "exit") return process.exit(0);
  if (message.method !== undefined && message.id === undefined) {
    return void log.push(`${message.method} ${message.params?.textDocument?.uri ?? ""}`.trim());
  }
  if (message.method === undefined && waiting.has(message.id)) {
    const { replyTo } = waiting.get(message.id);
    waiting.delete(message.id);
    return send({ id: replyTo, result: { answer: message.result ?? null, error: message.error ?? null } });
  }
  switch (message.method) {
    case "initialize":
      return send({ id: message.id, result: { capabilities: {} } });
    case "shutdown":
      return send({ id: message.id, result: null });
    case "log":
      return send({ id: message.id, result: log });
    case "env":
      return send({ id: message.id, result: { env: process.env, argv: process.argv.slice(2), cwd: process.cwd() } });
    case "echo":
      send({ method: "note", params: { seen: message.params } });
      return send({ id: message.id, result: message.params });
    case "ask": {
      const id = nextId++;
      waiting.set(id, { replyTo: message.id });
      return send({ id, method: message.params.method, params: message.params.params });
    }
    case "cancelled":
      return send({ id: message.id, result: cancelled });
    case "fail":
      return send({ id: message.id, error: { code: -32000, message: "it failed" } });
    case "break":
      return process.stdout.write("Content-Length: nope\r\n\r\n{}");
    case "huge":
      return process.stdout.write(`Content-Length: 4096\r\n\r\n{"id":${message.id},"result":"${"x".repeat(4000)}"}`);
    case "hang":
      return;
  }
};
process.stdin.on("data", (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const end = buffer.indexOf("\r\n\r\n");
    if (end < 0) return;
    const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString())[1]);
    if (buffer.length < end + 4 + length) return;
    const body = buffer.subarray(end + 4, end + 4 + length).toString();
    buffer = buffer.subarray(end + 4 + length);
    handle(JSON.parse(body));
  }
});
process.stdin.on("end", () => process.exit(0));
