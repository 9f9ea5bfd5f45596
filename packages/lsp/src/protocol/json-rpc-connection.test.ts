import { fileURLToPath } from "node:url";
import type { RunningProcess } from "@agent-tools/core";
import { ExecaProcessRunner } from "@agent-tools/node";
import { afterAll, describe, expect, it } from "vitest";
import { ConnectionClosedError, createJsonRpcConnection, JsonRpcResponseError, RequestTimeoutError } from "./json-rpc-connection.js";
import { createMessageReader, encodeMessage, FramingError } from "./message-framing.js";

const FAKE_SERVER = fileURLToPath(new URL("./__fixtures__/fake-server.cjs", import.meta.url));

describe("message framing", () => {
  it("reads messages split anywhere, several per chunk, multibyte characters across chunks", () => {
    const bytes = Buffer.concat([encodeMessage({ id: 1, result: "héllo ✓" }), encodeMessage({ method: "x", params: [1] })]);
    for (let cut = 1; cut < bytes.length; cut += 7) {
      const reader = createMessageReader();
      const messages = [...reader.push(bytes.subarray(0, cut)), ...reader.push(bytes.subarray(cut))];
      expect(messages).toEqual([
        { id: 1, result: "héllo ✓" },
        { method: "x", params: [1] },
      ]);
    }
  });

  it("fails on a missing or invalid Content-Length, a non-JSON body, an oversized message, and stays failed", () => {
    expect(() => createMessageReader().push(Buffer.from("Content-Type: x\r\n\r\n{}"))).toThrow(FramingError);
    expect(() => createMessageReader().push(Buffer.from("Content-Length: -1\r\n\r\n{}"))).toThrow(/invalid Content-Length/);
    expect(() => createMessageReader().push(Buffer.from("Content-Length: 3\r\n\r\nabc"))).toThrow(/not JSON/);
    expect(() => createMessageReader().push(Buffer.from("Content-Length: 2\r\n\r\n[]"))).toThrow(/not a JSON object/);
    const capped = createMessageReader(1024);
    expect(() => capped.push(Buffer.from("Content-Length: 1025\r\n\r\n"))).toThrow(/over the 1024-byte cap/);
    expect(() => capped.push(encodeMessage({ id: 1 }))).toThrow(FramingError);
    expect(() => createMessageReader().push(Buffer.alloc(9000, 0x41))).toThrow(/no header end/);
  });
});

describe("JSON-RPC connection over a real process", () => {
  const runner = new ExecaProcessRunner();
  afterAll(() => runner.close());

  const start = (options: { maxMessageBytes?: number; onRequest?: (method: string, params: unknown) => unknown } = {}) => {
    const process = runner.spawn({ command: globalThis.process.execPath, args: [FAKE_SERVER], cwd: "/", stdin: "pipe" });
    const notes: unknown[] = [];
    const closed: string[] = [];
    const connection = createJsonRpcConnection({
      process,
      onNotification: (method, params) => notes.push({ method, params }),
      onClose: (reason) => closed.push(reason),
      ...options,
    });
    return { process, connection, notes, closed };
  };

  it("requests, responses, notifications, error responses, and server requests answered", async () => {
    const { process, connection, notes } = start({ onRequest: (method, params) => ({ method, params }) });
    expect(await connection.request("echo", { a: 1 })).toEqual({ a: 1 });
    expect(notes).toEqual([{ method: "note", params: { seen: { a: 1 } } }]);
    await expect(connection.request("fail", null)).rejects.toThrow(JsonRpcResponseError);
    expect(await connection.request("ask", { method: "workspace/configuration", params: { items: [{}] } })).toEqual({
      answer: { method: "workspace/configuration", params: { items: [{}] } },
      error: null,
    });
    await process.kill();
  });

  it("an abort rejects at once and sends $/cancelRequest with the request's id; a timeout does too", async () => {
    const { process, connection } = start();
    const controller = new AbortController();
    const hanging = connection.request("hang", null, { signal: controller.signal });
    controller.abort(new Error("user stop"));
    await expect(hanging).rejects.toThrow("user stop");
    await expect(connection.request("hang", null, { timeoutMs: 50 })).rejects.toThrow(RequestTimeoutError);
    expect(await connection.request("cancelled", null)).toEqual([1, 2]);
    await process.kill();
  });

  it("a malformed frame kills the server and fails its pending requests", async () => {
    const { process, connection, closed } = start();
    const hanging = connection.request("hang", null);
    await expect(connection.request("break", null)).rejects.toThrow(ConnectionClosedError);
    await expect(hanging).rejects.toThrow(/protocol error: invalid Content-Length/);
    expect((await process.exited).signal).not.toBeNull();
    expect(closed).toEqual(['protocol error: invalid Content-Length "nope"']);
    await expect(connection.request("echo", 1)).rejects.toThrow(ConnectionClosedError);
  });

  it("a message over the cap kills the server", async () => {
    const { process, connection } = start({ maxMessageBytes: 1024 });
    await expect(connection.request("huge", null)).rejects.toThrow(/over the 1024-byte cap/);
    expect((await process.exited).signal).not.toBeNull();
  });

  it("the server exiting fails pending requests", async () => {
    const { process, connection } = start();
    const hanging = connection.request("hang", null);
    await process.stdin?.end();
    await expect(hanging).rejects.toThrow(/the server exited \(code 0\)/);
  });

  it("a write the dead server's pipe refuses closes the connection: the request fails ConnectionClosedError (so the tool retries on a fresh server)", async () => {
    // The process died (SIGKILL) but the runner has not reported its exit yet: only the write knows.
    const dead: RunningProcess = {
      pid: 1,
      onOutput: () => () => undefined,
      exited: new Promise(() => undefined),
      outputClosed: new Promise(() => undefined),
      kill: async () => undefined,
      isTreeAlive: () => false,
      livePids: () => [],
      stdin: { write: () => Promise.reject(new Error("stdin.write failed: the process exited.")), end: async () => undefined },
    };
    const connection = createJsonRpcConnection({ process: dead });
    const failed = connection.request("textDocument/definition", {});
    await expect(failed).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(failed).rejects.toThrow(/writing to the server failed: stdin\.write failed: the process exited/);
    expect(connection.closedReason).toMatch(/writing to the server failed/);
    await expect(connection.notify("textDocument/didOpen", {})).rejects.toBeInstanceOf(ConnectionClosedError);
  });
});
