import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { ToolError } from "@agent-tools/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendGuardedHttpRequest } from "./guarded-http-request.js";
import { type ResolveHost, createSsrfGuard, isSsrfRefusal } from "./ssrf-guard.js";

interface Seen {
  readonly server: string;
  readonly method: string;
  readonly url: string;
  readonly body: string;
  readonly host?: string;
  readonly authorization?: string;
}
const seen: Seen[] = [];

function serve(name: string, host: string, handle: (request: http.IncomingMessage, response: http.ServerResponse) => void) {
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      seen.push({
        server: name,
        method: request.method ?? "",
        url: request.url ?? "",
        body,
        host: request.headers.host,
        authorization: request.headers.authorization,
      });
      handle(request, response);
    });
  });
  return {
    server,
    url: "",
    async start() {
      await new Promise<void>((resolve) => server.listen(0, host, resolve));
      this.url = `http://${host}:${(server.address() as AddressInfo).port}`;
    },
  };
}

// The "outside" service a redirect must not reach, on 127.0.0.1; the allowed one on 127.0.0.2.
const inner = serve("inner", "127.0.0.1", (_request, response) => response.end("INNER SECRET"));
const allowed = serve("allowed", "127.0.0.2", (request, response) => {
  const redirect = (status: number, location: string) => {
    response.statusCode = status;
    response.setHeader("location", location);
    response.end("redirect body");
  };
  if (request.url === "/to-inner") return redirect(302, `${inner.url}/secret`);
  if (request.url === "/to-file") return redirect(302, "file:///etc/passwd");
  if (request.url === "/to-self-303") return redirect(303, "/echo");
  if (request.url === "/to-self-307") return redirect(307, "/echo");
  if (request.url?.startsWith("/loop")) return redirect(302, `/loop${Number(request.url.slice(5) || "0") + 1}`);
  if (request.url === "/to-other-origin") return redirect(302, `${allowed.url.replace("127.0.0.2", "allowed.test")}/echo`);
  if (request.url === "/gzip") {
    response.setHeader("content-encoding", "gzip");
    return void response.end(gzipSync("compressed hello"));
  }
  if (request.url === "/big") return void response.end("z".repeat(100_000));
  if (request.url === "/hang") return;
  response.end(`echo ${request.method} ${request.url}`);
});

beforeAll(async () => {
  await inner.start();
  await allowed.start();
});
afterAll(async () => {
  for (const { server } of [inner, allowed]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const guardAllowing = (resolveHost?: ResolveHost) => createSsrfGuard({ allowedPrivateNetworks: ["127.0.0.2/32"], ...(resolveHost ? { resolveHost } : {}) });

describe("sendGuardedHttpRequest", () => {
  it("sends to an allowed target and reads the head of the body", async () => {
    seen.length = 0;
    const response = await sendGuardedHttpRequest(`${allowed.url}/echo?x=1`, { method: "POST", body: "payload", headers: { "x-a": "1" } }, guardAllowing());
    expect(response.status).toBe(200);
    expect(await response.readText(100)).toBe("echo POST /echo?x=1");
    expect(seen).toEqual([expect.objectContaining({ server: "allowed", method: "POST", url: "/echo?x=1", body: "payload", host: allowed.url.slice(7) })]);
    const big = await sendGuardedHttpRequest(`${allowed.url}/big`, {}, guardAllowing());
    expect(await big.readText(10)).toBe("zzzzzzzzzz");
    const gzip = await sendGuardedHttpRequest(`${allowed.url}/gzip`, {}, guardAllowing());
    expect(await gzip.readText(100)).toBe("compressed hello");
  });

  it("checks every redirect hop: a redirect to a refused address or scheme is not followed and its body is never read", async () => {
    seen.length = 0;
    const refused = await sendGuardedHttpRequest(`${allowed.url}/to-inner`, {}, guardAllowing()).catch((error: unknown) => error);
    expect(isSsrfRefusal(refused)).toBe(true);
    expect((refused as ToolError).message).toBe(
      `the redirect from ${allowed.url}/to-inner to ${inner.url}/secret was not followed: 127.0.0.1 is a loopback address, not a public address`,
    );
    expect(seen.map((entry) => entry.server)).toEqual(["allowed"]);
    const file = await sendGuardedHttpRequest(`${allowed.url}/to-file`, {}, guardAllowing()).catch((error: unknown) => error);
    expect((file as ToolError).message).toMatch(/was not followed: only http: and https: URLs may be requested, not file:/);
  });

  it("follows allowed redirects with fetch's method rules, up to the limit", async () => {
    seen.length = 0;
    const after303 = await sendGuardedHttpRequest(`${allowed.url}/to-self-303`, { method: "PUT", body: "b" }, guardAllowing());
    expect(await after303.readText(100)).toBe("echo GET /echo");
    expect(after303.redirects).toBe(1);
    expect(after303.url).toBe(`${allowed.url}/echo`);
    const after307 = await sendGuardedHttpRequest(`${allowed.url}/to-self-307`, { method: "PUT", body: "kept" }, guardAllowing());
    expect(await after307.readText(100)).toBe("echo PUT /echo");
    expect(seen.at(-1)?.body).toBe("kept");
    const loop = await sendGuardedHttpRequest(`${allowed.url}/loop`, {}, guardAllowing()).catch((error: unknown) => error);
    expect(loop).toBeInstanceOf(ToolError);
    expect((loop as ToolError).code).toBe("limit_reached");
    expect((loop as ToolError).message).toMatch(/stopped after 5 redirects/);
    const unfollowed = await sendGuardedHttpRequest(`${allowed.url}/loop`, { maxRedirects: 0 }, guardAllowing());
    expect(unfollowed.status).toBe(302);
    unfollowed.close();
  });

  it("connects to the address it checked: the name is resolved once, by the guard, never again by the transport", async () => {
    seen.length = 0;
    const lookups: string[] = [];
    // A rebinding resolver: a name only it knows, answering differently on every later lookup.
    const resolveHost: ResolveHost = async (hostname) => {
      lookups.push(hostname);
      return [{ address: lookups.length === 1 ? "127.0.0.2" : "127.0.0.1", family: 4 }];
    };
    const port = allowed.url.split(":").at(-1);
    const response = await sendGuardedHttpRequest(`http://allowed.test:${port}/echo`, { headers: { authorization: "Bearer t" } }, guardAllowing(resolveHost));
    expect(await response.readText(100)).toBe("echo GET /echo");
    expect(lookups).toEqual(["allowed.test"]);
    expect(seen).toEqual([expect.objectContaining({ server: "allowed", host: `allowed.test:${port}`, authorization: "Bearer t" })]);
    // A redirect to another origin is checked again (a second lookup, refused now) and drops credentials headers when followed.
    seen.length = 0;
    const rebound = await sendGuardedHttpRequest(
      `${allowed.url}/to-other-origin`,
      { headers: { authorization: "Bearer t" } },
      guardAllowing(resolveHost),
    ).catch((error: unknown) => error);
    expect((rebound as ToolError).message).toMatch(/allowed\.test resolves to 127\.0\.0\.1, a loopback address/);
    const stable: ResolveHost = async () => [{ address: "127.0.0.2", family: 4 }];
    const followed = await sendGuardedHttpRequest(`${allowed.url}/to-other-origin`, { headers: { Authorization: "Bearer t" } }, guardAllowing(stable));
    expect(await followed.readText(100)).toBe("echo GET /echo");
    expect(seen.map((entry) => entry.authorization)).toEqual(["Bearer t", "Bearer t", undefined]);
  });

  it("stops on abort", async () => {
    const controller = new AbortController();
    const pending = sendGuardedHttpRequest(`${allowed.url}/hang`, { signal: controller.signal }, guardAllowing());
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });
});
