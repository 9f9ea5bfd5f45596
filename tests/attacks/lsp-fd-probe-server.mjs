// A stand-in language server for lsp-sandbox-stdin.attack.test.ts (a host's own server config; the
// model cannot set one): it answers initialize, and answers every hover with what it can see and do
// from inside the sandbox: its open file descriptors, whether it can write the workspace, its uid.
// With PROBE_SILENT=1 it answers nothing but initialize and shutdown (lsp-hung-server.attack.test.ts).
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

let buffer = Buffer.alloc(0);
const send = (message) => {
  const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...message }));
  process.stdout.write(`Content-Length: ${body.length}\r\n\r\n`);
  process.stdout.write(body);
};

// Through child processes (not node's fs, which the SDK's read guard may wrap in a language server):
// what the sandbox allows, not what the guard hides.
function probe(uri) {
  const fds = {};
  let listing = "";
  try {
    listing = execFileSync("/bin/ls", ["-l", `/proc/${process.pid}/fd`], { encoding: "utf8" });
  } catch (error) {
    listing = String(error);
  }
  for (const line of listing.split("\n")) {
    const match = / (\d+) -> (.*)$/.exec(line);
    if (match) fds[match[1]] = match[2];
  }
  let wrote = false;
  try {
    execFileSync("/bin/sh", ["-c", 'echo x > "$1"', "sh", path.join(path.dirname(fileURLToPath(uri)), "probe-written.txt")], { stdio: "ignore" });
    wrote = true;
  } catch {}
  return { fds, wrote, listing: listing.slice(0, 2000), uid: process.getuid?.() };
}

process.stdin.on("data", (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const end = buffer.indexOf("\r\n\r\n");
    if (end === -1) return;
    const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString())?.[1]);
    if (buffer.length < end + 4 + length) return;
    const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString());
    buffer = buffer.subarray(end + 4 + length);
    if (message.method === "exit") process.exit(0);
    if (message.id === undefined || message.method === undefined) continue;
    // PROBE_SILENT=1: a hung server (answers initialize and shutdown only).
    if (process.env.PROBE_SILENT === "1" && message.method !== "initialize" && message.method !== "shutdown") continue;
    if (message.method === "initialize") send({ id: message.id, result: { capabilities: { hoverProvider: true, textDocumentSync: 1 } } });
    else if (message.method === "textDocument/hover")
      send({ id: message.id, result: { contents: { kind: "plaintext", value: `PROBE${JSON.stringify(probe(message.params.textDocument.uri))}` } } });
    else send({ id: message.id, result: null });
  }
});
