import { mkdtempSync, rmSync } from "node:fs";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ToolRegistry, createToolRegistry } from "@agent-tools/core";
import { HTTP_GET_TEST_MAX_BODY_BYTES, type HttpGetTestDetails } from "./http-get-test.js";
import { createSystemToolBundle } from "./system-tools.js";

const work = mkdtempSync(path.join(os.tmpdir(), "http-get-test-"));
let server: Server;
let base: string;
let registry: ToolRegistry;
const open = new Set<import("node:net").Socket>();

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = request.url ?? "/";
    if (url === "/text") {
      response.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      response.end("hello from the test server\n");
    } else if (url === "/big") {
      response.writeHead(200, { "content-type": "text/plain" });
      response.end("x".repeat(HTTP_GET_TEST_MAX_BODY_BYTES + 1000));
    } else if (url === "/png") {
      response.writeHead(200, { "content-type": "image/png" });
      response.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 1, 2, 3]));
    } else if (url === "/slow") {
      // Headers only after 5 s: far past the test's timeout.
      setTimeout(() => response.end("late"), 5_000).unref();
    } else {
      response.writeHead(404, { "content-type": "text/plain" });
      response.end(`no route ${url}`);
    }
  });
  server.on("connection", (socket) => {
    open.add(socket);
    socket.on("close", () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  registry = createToolRegistry({ workdir: work, runtimeScope: "cron", bundles: [createSystemToolBundle(["HttpGetTest"])] });
});

afterAll(async () => {
  await registry.close();
  for (const socket of open) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

function text(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((block) => block.text ?? "").join("");
}

const get = (args: Record<string, unknown>, signal?: AbortSignal) => registry.executeToolCall({ id: "1", name: "HttpGetTest", arguments: args }, { signal });

describe("HttpGetTest", () => {
  it("reports status, content type and a text body", async () => {
    const result = await get({ url: `${base}/text` });
    expect(result.isError).toBe(false);
    expect(text(result)).toBe(`GET ${base}/text -> 200 OK\nContent-Type: text/plain; charset=utf-8\nBody: 27 bytes\n\nhello from the test server\n`);
    expect(result.details).toMatchObject({ status: 200, contentType: "text/plain; charset=utf-8", bytesRead: 27, truncated: false, binary: false });
  });

  it("reports a 404 as a result, not an error", async () => {
    const result = await get({ url: `${base}/missing` });
    expect(result.isError).toBe(false);
    expect(text(result)).toMatch(/-> 404 Not Found/);
    expect(text(result)).toContain("no route /missing");
    expect((result.details as HttpGetTestDetails).status).toBe(404);
  });

  it("summarises a binary body instead of dumping it", async () => {
    const result = await get({ url: `${base}/png` });
    expect(result.isError).toBe(false);
    expect(text(result)).toContain("Content-Type: image/png");
    expect(text(result)).toContain("Binary body of 19 bytes, not shown. First bytes (hex): 89 50 4e 47 0d 0a 1a 0a");
    expect(text(result)).not.toContain("IHDR");
    expect(result.details).toMatchObject({ binary: true, bytesRead: 19 });
  });

  it("caps a long text body at 64 KiB with a note", async () => {
    const result = await get({ url: `${base}/big` });
    expect(result.details).toMatchObject({ truncated: true, bytesRead: HTTP_GET_TEST_MAX_BODY_BYTES });
    expect(text(result)).toContain(`Body: more than ${HTTP_GET_TEST_MAX_BODY_BYTES} bytes`);
    expect(text(result)).toMatch(/\[Body cut at 64 KiB; the rest was not downloaded\.\]$/);
  });

  it("fails with a timeout error when the server is too slow", async () => {
    const started = Date.now();
    const result = await get({ url: `${base}/slow`, timeout_ms: 200 });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ code: "timeout", timeoutMs: 200 });
    expect(text(result)).toMatch(/did not finish within 200 ms.*retry with a larger timeout_ms \(max 60000\)/);
  });

  it("settles as cancelled when the caller aborts", async () => {
    const controller = new AbortController();
    const running = get({ url: `${base}/slow` }, controller.signal);
    setTimeout(() => controller.abort(), 100);
    const result = await running;
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ cancelled: true });
  });

  it("refuses a file:// URL and explains an invalid one", async () => {
    const refused = await get({ url: "file:///etc/passwd" });
    expect(refused.isError).toBe(true);
    expect(refused.details).toMatchObject({ code: "unsupported_target", protocol: "file:" });
    expect(text(refused)).toMatch(/file:\/\/ URLs are refused: HttpGetTest only fetches http:\/\/ and https:\/\/ URLs/);
    const invalid = await get({ url: "example.com/health" });
    expect(invalid.details).toMatchObject({ code: "invalid_arguments" });
    expect(text(invalid)).toMatch(/not an absolute URL\. Pass a full URL with its scheme/);
  });

  it("reports a refused connection with what to check", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await get({ url: `http://127.0.0.1:${port}/` });
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ code: "unavailable", reason: "ECONNREFUSED" });
    expect(text(result)).toMatch(/Could not GET .*: ECONNREFUSED\. Check the host name and port/);
  });

  it("shows the model a small schema", () => {
    expect(registry.tools[0]?.inputSchema).toMatchSnapshot();
  });
});
