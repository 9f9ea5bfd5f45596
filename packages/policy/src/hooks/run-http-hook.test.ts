import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HookRunContext } from "./hook-run.js";
import type { HookInput } from "./hook-settings.js";
import { runHttpHook } from "./run-http-hook.js";

const input: HookInput = {
  hook_event_name: "PreToolUse",
  cwd: "/work",
  permission_mode: "default",
  tool_name: "Edit",
  tool_input: { path: "src/a.ts" },
  tool_use_id: "call-7",
};

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;
const routes = new Map<string, Handler>();
const hanging = new Set<ServerResponse>();
let server: Server;
let base: string;

function context(signal: AbortSignal = new AbortController().signal): HookRunContext {
  return { workdir: "/work", signal, running: new Set() };
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => routes.get(request.url ?? "")?.(request, Buffer.concat(chunks).toString("utf8"), response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const response of hanging) response.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("runHttpHook (real server on 127.0.0.1)", () => {
  it("POSTs the input as JSON with the given headers and reads a JSON answer", async () => {
    routes.set("/answer", (request, body, response) => {
      const received = JSON.parse(body) as HookInput;
      response.setHeader("content-type", "application/json");
      response.end(
        JSON.stringify({
          hookSpecificOutput: {
            permissionDecision: "ask",
            permissionDecisionReason: `${request.method} ${request.headers["content-type"]} ${request.headers.authorization} ${received.tool_name} ${received.tool_use_id}`,
          },
        }),
      );
    });
    const outcome = await runHttpHook({ type: "http", url: `${base}/answer`, headers: { Authorization: "Bearer t" } }, input, context());
    expect(outcome).toEqual({
      kind: "answered",
      output: { hookSpecificOutput: { permissionDecision: "ask", permissionDecisionReason: "POST application/json Bearer t Edit call-7" } },
    });
  });

  it("reads an empty 2xx body as no opinion", async () => {
    routes.set("/empty", (_request, _body, response) => {
      response.statusCode = 204;
      response.end();
    });
    expect(await runHttpHook({ type: "http", url: `${base}/empty` }, input, context())).toEqual({ kind: "answered", output: {} });
  });

  it("fails on a non-2xx status, naming it and the body", async () => {
    routes.set("/error", (_request, _body, response) => {
      response.statusCode = 500;
      response.end("database down");
    });
    expect(await runHttpHook({ type: "http", url: `${base}/error` }, input, context())).toEqual({ kind: "failed", error: "answered HTTP 500: database down" });
  });

  it("does not follow a redirect", async () => {
    let followed = false;
    routes.set("/redirect", (_request, _body, response) => {
      response.statusCode = 307;
      response.setHeader("location", "/target");
      response.end();
    });
    routes.set("/target", (_request, _body, response) => {
      followed = true;
      response.end("{}");
    });
    const outcome = await runHttpHook({ type: "http", url: `${base}/redirect` }, input, context());
    expect(outcome).toEqual({ kind: "failed", error: "answered with a redirect (HTTP 307), which is not followed" });
    expect(followed).toBe(false);
  });

  it("fails on a body that is not JSON", async () => {
    routes.set("/garbage", (_request, _body, response) => response.end("<html>ok</html>"));
    const outcome = await runHttpHook({ type: "http", url: `${base}/garbage` }, input, context());
    expect(outcome).toEqual({ kind: "failed", error: 'its answer is not JSON: "<html>ok</html>"' });
  });

  it("fails on a body over 1 MiB", async () => {
    routes.set("/big", (_request, _body, response) => response.end(`{"reason":"${"x".repeat(1_100_000)}"}`));
    expect(await runHttpHook({ type: "http", url: `${base}/big` }, input, context())).toEqual({
      kind: "failed",
      error: "answered with a body over 1048576 bytes",
    });
  });

  it("times out a server that never answers", async () => {
    routes.set("/hang", (_request, _body, response) => hanging.add(response));
    const started = performance.now();
    const outcome = await runHttpHook({ type: "http", url: `${base}/hang`, timeoutMs: 300 }, input, context());
    expect(outcome).toEqual({ kind: "failed", error: "timed out after 300 ms" });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("aborts the request when the call is aborted", async () => {
    routes.set("/hang2", (_request, _body, response) => hanging.add(response));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(await runHttpHook({ type: "http", url: `${base}/hang2` }, input, context(controller.signal))).toEqual({ kind: "failed", error: "was aborted" });
  });

  it("fails when nothing listens", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await runHttpHook({ type: "http", url: `http://127.0.0.1:${port}/` }, input, context());
    expect(outcome.kind === "failed" && outcome.error).toMatch(/^request failed: fetch failed: .*ECONNREFUSED/);
  });
});
