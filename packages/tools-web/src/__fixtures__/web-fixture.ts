// Shared setup of the WebFetch tests: a real HTTP server on 127.0.0.1 (allow-listed per test), a registry over the web bundle,
// and a spy on every socket connection so a refusal test fails if anything is dialled. Importing it registers cleanup hooks.
import fs from "node:fs";
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { type ModelClient, type ToolPorts, type ToolRegistry, createToolRegistry, toolResultText } from "@agent-tools/core";
import { afterAll, afterEach, vi } from "vitest";
import type { WebFetchDetails } from "../web-fetch-tool.js";
import type { WebFetchOptions } from "../web-fetch-options.js";
import { createWebToolBundle } from "../web-tools-plugin.js";

const workdir = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-web-"));
afterAll(() => fs.rmSync(workdir, { recursive: true, force: true }));

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.restoreAllMocks();
});

/** A server on 127.0.0.1 answering with `handler`; `requests` records what it got. */
export async function startServer(handler: (request: IncomingMessage, response: ServerResponse) => void) {
  const requests: IncomingMessage[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(request);
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const port = (server.address() as AddressInfo).port;
  return { port, origin: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}`, requests };
}

/** Records every socket connection attempt (http and https both go through net.Socket#connect). */
export function spyConnections() {
  return vi.spyOn(net.Socket.prototype, "connect");
}

/** A registry with WebFetch built from `options`, and a call helper. */
export function setup(options: WebFetchOptions = {}, modelClient?: ModelClient, ports: Partial<ToolPorts> = {}) {
  const registry: ToolRegistry = createToolRegistry({
    workdir,
    dataDir: path.join(workdir, ".data"),
    bundles: [createWebToolBundle(options)],
    ports: { ...ports, ...(modelClient === undefined ? {} : { modelClient }) },
  });
  cleanups.push(() => registry.close());
  let id = 0;
  const call = async (args: Record<string, unknown>, signal?: AbortSignal) => {
    const result = await registry.executeToolCall({ id: `call_${(id += 1)}`, name: "WebFetch", arguments: args }, signal === undefined ? {} : { signal });
    return { ...result, text: toolResultText(result, ""), details: result.details as WebFetchDetails };
  };
  return { registry, call };
}
