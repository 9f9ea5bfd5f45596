/**
 * Attacks on WebFetch through a registry's `executeToolCall` (the SDK's
 * `webFetch` option), as a model calls it. Nothing leaves the machine: the
 * only servers are on 127.0.0.1, the resolver is a stub, and every socket
 * that would dial anything but 127.0.0.1 is destroyed before it connects
 * and recorded (a self-check proves the hook stops a dial to 127.0.0.2).
 *
 * DNS rebinding (the connection goes to the checked address, the name is
 * resolved once), answers mixing public and private addresses, redirects
 * from an allow-listed server to other local ports, other spellings of
 * loopback, `file:`, `gopher:`, `data:` and credentials, a redirect loop,
 * gzip and brotli bombs, an endless body, a server that stalls (time cap),
 * a Content-Length lie, huge headers, HTML that makes the converter work
 * for minutes, the page cache between two registries, and the sandbox's
 * network-off.
 */
import fs from "node:fs";
import { type IncomingMessage, type ServerResponse, createServer, request as httpRequest } from "node:http";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { toolResultText } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-webfetch-")));
type Registry = Awaited<ReturnType<typeof buildBuiltinToolRegistry>>;
let count = 0;

/** Every dial to anything but 127.0.0.1 is recorded and destroyed before it connects. */
const blocked: string[] = [];
const realConnect = net.Socket.prototype.connect;
beforeAll(() => {
  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
    const options = (typeof args[0] === "object" && args[0] !== null ? args[0] : { port: args[0], host: args[1] }) as { host?: string; path?: string };
    const check = (address: string | undefined) => {
      if (address === undefined || address === "127.0.0.1") return true;
      blocked.push(address);
      // Destroyed synchronously and without an error (no listener may be attached yet): net skips the connect, the request ends "socket hang up".
      this.destroy();
      return false;
    };
    if (options.path === undefined) {
      if (options.host !== undefined && net.isIP(options.host) !== 0 && !check(options.host)) return this;
      this.on("lookup", (_error: unknown, address: string | string[]) => {
        if (typeof address === "string") check(address);
      });
    }
    return (realConnect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;
});
afterAll(() => {
  net.Socket.prototype.connect = realConnect;
  fs.rmSync(temporary, { recursive: true, force: true });
});

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void, host = "127.0.0.1") {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? "");
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const port = (server.address() as AddressInfo).port;
  return { port, origin: `http://${host}:${port}`, requests };
}

function stubResolver(answers: (name: string, round: number) => string[] | undefined) {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    const addresses = answers(hostname, asked.filter((name) => name === hostname).length);
    if (addresses === undefined) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: (address.includes(":") ? 6 : 4) as 4 | 6 }));
  };
  return { resolve, asked };
}

async function registryWith(webFetch: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Registry> {
  count += 1;
  const workdir = path.join(temporary, `w${count}`);
  fs.mkdirSync(workdir, { recursive: true });
  const registry = await buildBuiltinToolRegistry({
    workdir,
    dataDir: path.join(temporary, `d${count}`),
    memory: false,
    webFetch,
    approval: { defaultDecision: "allow" },
    ...extra,
  } as never);
  closers.push(() => registry.close());
  return registry;
}

async function fetchWith(registry: Registry, args: Record<string, unknown>) {
  const result = await registry.executeToolCall({ id: `w-${++count}`, name: "WebFetch", arguments: args });
  return { isError: result.isError === true, text: toolResultText(result, ""), details: result.details as Record<string, unknown> | undefined };
}

describe("the connect hook of this file", () => {
  it("stops a dial to 127.0.0.2 before it reaches the server listening there (self-check)", async () => {
    const other = await serve((_request, response) => response.end("reached"), "127.0.0.2");
    const outcome = await new Promise<string>((resolve) => {
      const lookup = (_host: string, options: { all?: boolean }, callback: (error: null, address: unknown, family?: number) => void) =>
        options.all === true ? callback(null, [{ address: "127.0.0.2", family: 4 }]) : callback(null, "127.0.0.2", 4);
      const outgoing = httpRequest({ host: "x.test", port: other.port, lookup: lookup as never });
      outgoing.on("response", () => resolve("response"));
      outgoing.on("error", (error) => resolve(error.message));
      outgoing.end();
    });
    expect(outcome).toMatch(/socket hang up/);
    expect(other.requests).toEqual([]);
    expect(blocked).toContain("127.0.0.2");
  });
});

describe("DNS", () => {
  it("rebinding: the connection goes to the checked public address, the name is resolved once, the local server is never reached", async () => {
    const secret = await serve((_request, response) => response.end("LOCAL-SECRET"));
    const { resolve, asked } = stubResolver((_name, round) => (round === 1 ? ["93.184.216.34"] : ["127.0.0.1"]));
    const registry = await registryWith({ resolve });
    blocked.length = 0;
    const result = await fetchWith(registry, { url: `http://rebind.test:${secret.port}/` });
    expect(result.text).not.toContain("LOCAL-SECRET");
    expect(secret.requests).toEqual([]);
    expect(asked).toEqual(["rebind.test"]);
    expect(blocked).toEqual(["93.184.216.34"]);
  });

  it("answers mixing public and private addresses (either order, v4 and v6 forms) are refused before any dial", async () => {
    const secret = await serve((_request, response) => response.end("LOCAL-SECRET"));
    const mixes = [
      ["93.184.216.34", "127.0.0.1"],
      ["127.0.0.1", "93.184.216.34"],
      ["2606:2800:220:1::1", "::1"],
      ["93.184.216.34", "::ffff:127.0.0.1"],
      ["93.184.216.34", "::ffff:7f00:1"],
      ["93.184.216.34", "64:ff9b::7f00:1"],
      ["93.184.216.34", "fe80::1%lo"],
      ["93.184.216.34", "0.0.0.0"],
      ["93.184.216.34", "169.254.169.254"],
      ["93.184.216.34", "127.0.0.1 "],
      ["93.184.216.34", "localhost"],
    ];
    for (const mix of mixes) {
      const { resolve } = stubResolver(() => mix);
      const registry = await registryWith({ resolve });
      blocked.length = 0;
      const result = await fetchWith(registry, { url: `http://mixed.test:${secret.port}/` });
      expect(result.isError, `${mix}: ${result.text}`).toBe(true);
      expect(blocked, String(mix)).toEqual([]);
    }
    expect(secret.requests).toEqual([]);
  });
});

describe("redirects from an allow-listed server", () => {
  it("to other local ports, loopback spellings, file:, gopher:, data:, credentials and a name resolving to loopback: nothing reached, nothing read", async () => {
    const secret = await serve((_request, response) => response.end("LOCAL-SECRET"));
    const targets = [
      `http://127.0.0.1:${secret.port}/`,
      `//127.0.0.1:${secret.port}/`,
      `http://localhost:${secret.port}/`,
      `http://LOCALHOST.:${secret.port}/`,
      `http://[::1]:${secret.port}/`,
      `http://[::ffff:127.0.0.1]:${secret.port}/`,
      `http://2130706433:${secret.port}/`,
      `http://0x7f.1:${secret.port}/`,
      `http://0:${secret.port}/`,
      `http://evil@127.0.0.1:${secret.port}/`,
      `http://127.0.0.1.:${secret.port}/`,
      `http://loop.test:${secret.port}/`,
      `https://127.0.0.1:${secret.port}/`,
      "file:///etc/passwd",
      `gopher://127.0.0.1:${secret.port}/_GET%20/`,
      "data:text/plain,DATA-PAYLOAD",
      "http:\\\\127.0.0.1:" + secret.port + "/",
      `http://127.0.0.1:${secret.port}\t/`,
    ];
    let next = "";
    const front = await serve((_request, response) => {
      response.writeHead(302, { location: next });
      response.end();
    });
    const { resolve } = stubResolver((name) => (name === "loop.test" ? ["127.0.0.1"] : undefined));
    const registry = await registryWith({ allowHosts: [`127.0.0.1:${front.port}`], resolve, cache: false });
    for (const target of targets) {
      next = target;
      for (const status of [302]) {
        const result = await fetchWith(registry, { url: `${front.origin}/r?${status}` });
        expect(result.text, target).not.toMatch(/LOCAL-SECRET|root:x:0/);
        expect(result.details?.format === undefined || result.details.format === "redirect", target).toBe(true);
        // A redirect to another host may be reported (not followed); then the model's own call is checked.
        if (result.details?.format === "redirect") {
          const follow = await fetchWith(registry, { url: String(result.details.redirectLocation) });
          expect(follow.isError, `${target} -> ${follow.text}`).toBe(true);
        }
      }
    }
    expect(secret.requests).toEqual([]);
  });

  it("a same-host redirect loop stops at the limit", async () => {
    const loop = await serve((request, response) => {
      response.writeHead(307, { location: `/loop${Number(request.url?.slice(5) || 0) + 1}` });
      response.end("x".repeat(1000));
    });
    const registry = await registryWith({ allowHosts: [`127.0.0.1:${loop.port}`] });
    const result = await fetchWith(registry, { url: `${loop.origin}/loop0` });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/redirect/);
    expect(loop.requests.length).toBeLessThanOrEqual(11);
  });
});

describe("hostile bodies and servers", () => {
  it("a gzip bomb and a brotli bomb stop at max_bytes (decompressed)", async () => {
    const zeros = Buffer.alloc(64 * 1024 * 1024, 0x41);
    const gzip = zlib.gzipSync(zeros, { level: 9 });
    const brotli = zlib.brotliCompressSync(zeros, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } });
    const bomb = await serve((request, response) => {
      const br = request.url === "/br";
      response.writeHead(200, { "content-type": "text/plain", "content-encoding": br ? "br" : "gzip" });
      response.end(br ? brotli : gzip);
    });
    const registry = await registryWith({ allowHosts: [`127.0.0.1:${bomb.port}`], cache: false });
    for (const url of [`${bomb.origin}/gz`, `${bomb.origin}/br`]) {
      const result = await fetchWith(registry, { url, max_bytes: 1024 * 1024 });
      expect(result.isError, result.text).toBe(false);
      expect(result.details?.bytes).toBe(1024 * 1024);
      expect(result.details?.truncated).toBe(true);
    }
  });

  it("an endless chunked body stops at max_bytes; a server that stalls stops at the time cap", async () => {
    const endless = await serve((request, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      if (request.url === "/stall") {
        response.write("a");
        return;
      }
      const pump = () => {
        while (response.write("b".repeat(65536))) {
          // keep writing until the socket pushes back
        }
      };
      response.on("drain", pump);
      pump();
    });
    const registry = await registryWith({ allowHosts: [`127.0.0.1:${endless.port}`], cache: false, timeoutMs: 1500 });
    const big = await fetchWith(registry, { url: `${endless.origin}/endless`, max_bytes: 2 * 1024 * 1024 });
    expect(big.details?.truncated).toBe(true);
    expect(big.details?.bytes).toBe(2 * 1024 * 1024);
    const stalled = await fetchWith(registry, { url: `${endless.origin}/stall` });
    expect(stalled.isError).toBe(true);
    expect(stalled.text).toMatch(/did not finish within 1500 ms/);
  });

  it("a Content-Length lie (shorter body, then the connection closes) is not shown as the whole page; huge headers are an error", async () => {
    const liar = await serve((request, response) => {
      if (request.url === "/headers") {
        response.writeHead(200, { "content-type": "text/plain", "x-big": "h".repeat(100_000) });
        response.end("ok");
        return;
      }
      response.writeHead(200, { "content-type": "text/plain", "content-length": "100000" });
      response.write("PARTIAL-BODY");
      setTimeout(() => response.socket?.destroy(), 50);
    });
    const registry = await registryWith({ allowHosts: [`127.0.0.1:${liar.port}`], cache: false });
    const short = await fetchWith(registry, { url: `${liar.origin}/lie` });
    expect(short.isError || short.details?.truncated === true, short.text).toBe(true);
    const headers = await fetchWith(registry, { url: `${liar.origin}/headers` });
    expect(headers.isError, headers.text).toBe(true);
  });

  // Was a finding (fixed: nesting cut at 256, conversion in a worker ended by the time cap):
  // 15,000 nested <div>s (75 KB) made domino's parser quadratic (20,000 took 8.5 s, 100,000
  // minutes) synchronously on the host's event loop, outside the time cap.
  it("HTML nesting that made the parser quadratic ends within the call's time cap", async () => {
    const html = `<html><body>${"<div>".repeat(15_000)}x</body></html>`;
    const deep = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end(html);
    });
    const registry = await registryWith({ allowHosts: [`127.0.0.1:${deep.port}`], cache: false, timeoutMs: 200 });
    const result = await fetchWith(registry, { url: `${deep.origin}/` });
    expect(result.isError ? result.text : "converted").toMatch(/converted|did not finish within 200 ms/);
  }, 60_000);

  // Was a finding (fixed with the worker): flat pages were slow too (500,000 `<p>a</p>`, 4 MB: 43 s;
  // 1,000,000 `a<br>`: over a minute), synchronous after the body was read.
  it("a large flat page ends within the call's time cap", async () => {
    const html = `<html><body>${"<p>a</p>".repeat(60_000)}</body></html>`;
    const flat = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end(html);
    });
    const registry = await registryWith({ allowHosts: [`127.0.0.1:${flat.port}`], cache: false, timeoutMs: 200 });
    const result = await fetchWith(registry, { url: `${flat.origin}/` });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/did not finish within 200 ms/);
  }, 60_000);
});

describe("the page cache", () => {
  it("two registries never share pages", async () => {
    let version = "FIRST-VERSION";
    const site = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      response.end(version);
    });
    const one = await registryWith({ allowHosts: [`127.0.0.1:${site.port}`] });
    const two = await registryWith({ allowHosts: [`127.0.0.1:${site.port}`] });
    expect((await fetchWith(one, { url: `${site.origin}/p` })).text).toContain("FIRST-VERSION");
    version = "SECOND-VERSION";
    const other = await fetchWith(two, { url: `${site.origin}/p` });
    expect(other.text).toContain("SECOND-VERSION");
    expect(other.details?.fromCache).toBe(false);
    expect(site.requests).toEqual(["/p", "/p"]);
  });
});

describe("the sandbox's network-off", () => {
  // Issue 29's class: the sandbox's network-off reaches every tool that opens connections for the model.
  it("WebFetch is refused when the registry's sandbox has the network off", async () => {
    const secret = await serve((_request, response) => response.end("LOCAL-SECRET"));
    const registry = await registryWith(
      { allowHosts: [`127.0.0.1:${secret.port}`] },
      { ports: { sandbox: { requested: true, settings: { allowNetwork: false }, unavailable: "no bubblewrap in this test" } } },
    );
    const result = await fetchWith(registry, { url: `${secret.origin}/` });
    expect(result.isError).toBe(true);
    expect(secret.requests).toEqual([]);
  });
});
