import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CronHttpRequest } from "../domain/cron-types.js";
import { testPolicy, testTask } from "../__fixtures__/cron-test-tasks.js";
import { runHttpTask } from "./http-task-runner.js";

const seen: Array<{ method: string; url: string; body: string; header?: string }> = [];
let base = "";
const server = http.createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => {
    body += chunk;
  });
  request.on("end", () => {
    seen.push({ method: request.method ?? "", url: request.url ?? "", body, header: request.headers["x-token"] as string | undefined });
    if (request.url === "/ok") return void response.end(`ok ${request.method} ${body}`);
    if (request.url === "/fail") {
      response.statusCode = 500;
      return void response.end("server exploded");
    }
    if (request.url === "/big") return void response.end("y".repeat(10_000));
    if (request.url === "/redirect" || request.url === "/redirect-out") {
      response.statusCode = 302;
      response.setHeader("location", request.url === "/redirect" ? "/ok" : "http://127.0.0.2/");
      return void response.end("moved");
    }
    if (request.url === "/hang") return; // never answers
    response.statusCode = 404;
    response.end("no such path");
  });
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function requests(...list: Array<Partial<CronHttpRequest> & { url: string }>): CronHttpRequest[] {
  return list.map((request, index) => ({ id: `req-${index + 1}`, method: "POST", ...request }));
}

describe("runHttpTask", () => {
  it("sends every request in order with method, headers and body; success when all got a 2xx", async () => {
    seen.length = 0;
    const outcome = await runHttpTask(
      testTask({
        type: "http",
        requests: requests({ url: `${base}/ok`, body: "first", headers: { "x-token": "t1" } }, { url: `${base}/ok`, method: "GET", body: "dropped" }),
      }),
    );
    expect(outcome.success).toBe(true);
    expect(outcome.exitCode).toBe(200);
    expect(seen).toEqual([
      { method: "POST", url: "/ok", body: "first", header: "t1" },
      { method: "GET", url: "/ok", body: "", header: undefined },
    ]);
    expect(outcome.output).toMatch(
      new RegExp(`^1\\. POST ${base}/ok -> 200 \\(\\d+ ms\\)\\nok POST first\\n2\\. GET ${base}/ok -> 200 \\(\\d+ ms\\)\\nok GET $`),
    );
  });

  it("fails when any request is not 2xx, still sending the later ones; the exit code is the last status", async () => {
    seen.length = 0;
    const outcome = await runHttpTask(
      testTask({ type: "http", requests: requests({ url: `${base}/fail` }, { url: `${base}/missing` }, { url: `${base}/ok` }) }),
    );
    expect(outcome.success).toBe(false);
    expect(seen.map((entry) => entry.url)).toEqual(["/fail", "/missing", "/ok"]);
    expect(outcome.exitCode).toBe(200);
    expect(outcome.output).toContain("-> 500");
    expect(outcome.output).toContain("server exploded");
    expect(outcome.output).toContain("-> 404");
  });

  it("reports a network error per request", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await runHttpTask(testTask({ type: "http", requests: requests({ url: `http://127.0.0.1:${port}/x` }) }));
    expect(outcome.success).toBe(false);
    expect(outcome.exitCode).toBeNull();
    expect(outcome.output).toMatch(/-> failed \(\d+ ms\): .*ECONNREFUSED/);
  });

  it("keeps only the head of a long body", async () => {
    const outcome = await runHttpTask(testTask({ type: "http", requests: requests({ url: `${base}/big`, method: "GET" }) }));
    expect(outcome.success).toBe(true);
    expect(outcome.output).toContain("...[truncated]");
    expect(outcome.output.length).toBeLessThan(3_000);
  });

  it("puts the whole task under timeout_seconds: the hanging request is aborted and the rest are not run", async () => {
    seen.length = 0;
    const started = Date.now();
    const outcome = await runHttpTask(testTask({ type: "http", timeoutSeconds: 1, requests: requests({ url: `${base}/hang` }, { url: `${base}/ok` }) }));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(outcome.success).toBe(false);
    expect(outcome.output).toMatch(/1\. POST .*\/hang -> failed \(\d+ ms\): timed out after 1 s/);
    expect(outcome.output).toContain("2. POST");
    expect(outcome.output).toContain("not run");
    expect(outcome.output).toContain("Raise timeout_seconds");
    expect(seen.map((entry) => entry.url)).toEqual(["/hang"]);
  });

  it("stops on abort: the request in flight is cancelled and the rest are not run", async () => {
    seen.length = 0;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const outcome = await runHttpTask(testTask({ type: "http", requests: requests({ url: `${base}/hang` }, { url: `${base}/ok` }) }), {
      signal: controller.signal,
    });
    expect(outcome.success).toBe(false);
    expect(outcome.output).toMatch(/1\. POST .*\/hang -> failed \(\d+ ms\): cancelled/);
    expect(outcome.output).toMatch(/2\. POST .* not run/);
    expect(seen.map((entry) => entry.url)).toEqual(["/hang"]);
  });

  it("refuses non-public targets the policy does not allow: the reason is logged, no request is sent, no body kept", async () => {
    seen.length = 0;
    const task = testTask({
      type: "http",
      requests: requests(
        { url: `${base}/ok`, body: "x" },
        { url: `http://2130706433:${base.split(":").at(-1)}/ok` },
        { url: "http://169.254.169.254/latest/meta-data/" },
      ),
      policy: testPolicy(undefined, { allowedPrivateNetworks: [] }),
    });
    const outcome = await runHttpTask(task);
    expect(seen).toEqual([]);
    expect(outcome.success).toBe(false);
    expect(outcome.exitCode).toBeNull();
    expect(outcome.output).toMatch(/^1\. POST http:\/\/127\.0\.0\.1:\d+\/ok -> refused: 127\.0\.0\.1 is a loopback address, not a public address$/m);
    expect(outcome.output).toMatch(/^2\. POST http:\/\/2130706433:\d+\/ok -> refused: 127\.0\.0\.1 is a loopback address/m);
    expect(outcome.output).toMatch(/^3\. POST .* -> refused: 169\.254\.169\.254 is a link-local \(cloud metadata\) address/m);
    expect(outcome.output).toMatch(/allowedPrivateNetworks/);
    expect(outcome.output).not.toContain("ok POST");
  });

  it("sends nothing for a task without a recorded policy or whose registry had no network, and asks to disable it", async () => {
    seen.length = 0;
    const legacy = await runHttpTask(testTask({ type: "http", requests: requests({ url: `${base}/ok` }), policy: undefined }));
    expect(legacy).toMatchObject({ success: false, disableTask: true });
    expect(legacy.output).toMatch(/no record of the roots, sandbox and network of the registry that created it/);
    const offline = await runHttpTask(
      testTask({ type: "http", requests: requests({ url: `${base}/ok` }), policy: testPolicy(undefined, { sandbox: { enabled: true } }) }),
    );
    expect(offline).toMatchObject({ success: false, disableTask: true });
    expect(offline.output).toMatch(/No request was sent: the registry that created task cron_test has no network/);
    const unreadable = await runHttpTask(testTask({ type: "http", requests: requests({ url: `${base}/ok` }), policy: { workspace: "relative" } as never }));
    expect(unreadable.output).toMatch(/recorded policy is unreadable \(its workspace is not an absolute path\)/);
    expect(seen).toEqual([]);
    // With the network allowed by its sandbox, the request goes out.
    const online = await runHttpTask(
      testTask({ type: "http", requests: requests({ url: `${base}/ok` }), policy: testPolicy(undefined, { sandbox: { enabled: true, allowNetwork: true } }) }),
    );
    expect(online.success).toBe(true);
  });

  it("follows redirects, checking each hop", async () => {
    seen.length = 0;
    const outcome = await runHttpTask(testTask({ type: "http", requests: requests({ url: `${base}/redirect`, method: "GET" }) }));
    expect(outcome.success).toBe(true);
    expect(seen.map((entry) => entry.url)).toEqual(["/redirect", "/ok"]);
    const refused = await runHttpTask(
      testTask({
        type: "http",
        requests: requests({ url: `${base}/redirect-out`, method: "GET" }),
        policy: testPolicy(undefined, { allowedPrivateNetworks: ["127.0.0.1"] }),
      }),
    );
    expect(refused.output).toMatch(
      /-> refused: the redirect from .*\/redirect-out to http:\/\/127\.0\.0\.2\/ was not followed: 127\.0\.0\.2 is a loopback address/,
    );
  });

  it("fails a task without requests", async () => {
    const outcome = await runHttpTask(testTask({ type: "http", requests: [] }));
    expect(outcome.success).toBe(false);
    expect(outcome.output).toContain("has no requests");
  });
});
