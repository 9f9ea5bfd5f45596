import { describe, expect, it } from "vitest";
import { setup, spyConnections, startServer } from "./__fixtures__/web-fixture.js";
import type { ResolveHost } from "./guard/web-ssrf-guard.js";

/** A resolver that answers from a table and records every name asked. */
function stubResolver(table: Record<string, string[]>) {
  const asked: string[] = [];
  const resolve: ResolveHost = async (hostname) => {
    asked.push(hostname);
    const addresses = table[hostname];
    if (addresses === undefined) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return { resolve, asked };
}

describe("WebFetch SSRF guard: nothing is dialled for a refused target", () => {
  const literals = [
    ["http://127.0.0.1/", "loopback"],
    ["http://127.8.9.10/", "loopback"],
    ["http://[::1]/", "loopback"],
    ["http://0.0.0.0/", "this network"],
    ["http://[::]/", "unspecified"],
    ["http://10.1.2.3/", "private"],
    ["http://172.16.5.4/", "private"],
    ["http://192.168.0.1/", "private"],
    ["http://[fc00::1]/", "unique local"],
    ["http://[fd12::1]/", "unique local"],
    ["http://169.254.169.254/latest/meta-data/", "link-local"],
    ["http://[fe80::1]/", "link-local"],
    ["http://100.64.0.1/", "carrier-grade NAT"],
    ["http://224.0.0.1/", "multicast"],
    ["http://[ff02::1]/", "multicast"],
    ["http://240.0.0.1/", "reserved"],
    ["http://255.255.255.255/", "broadcast"],
    ["http://198.18.0.1/", "benchmarking"],
    ["http://192.0.2.1/", "documentation"],
    ["http://198.51.100.7/", "documentation"],
    ["http://203.0.113.9/", "documentation"],
    ["http://[2001:db8::1]/", "documentation"],
    ["http://[::ffff:127.0.0.1]/", "IPv4-mapped"],
    ["http://[::ffff:169.254.169.254]/", "IPv4-mapped"],
    ["http://[::127.0.0.1]/", "IPv4-compatible"],
    ["http://[64:ff9b::a00:1]/", "NAT64"],
    ["http://[2002:c0a8:1::]/", "6to4"],
    ["http://[2001:0:4136:e378::1]/", "Teredo"],
    // Numeric host forms the WHATWG URL parser normalises to a dotted quad.
    ["http://2130706433/", "loopback"],
    ["http://0x7f000001/", "loopback"],
    ["http://0177.0.0.1/", "loopback"],
    ["http://0x7f.1/", "loopback"],
    ["http://127.1/", "loopback"],
    ["http://017700000001/", "loopback"],
    ["http://0/", "this network"],
    ["http://127.0.0.1./", "loopback"],
    ["http://%31%32%37.0.0.1/", "loopback"],
    ["http://\u2460\u2461\u2466.0.0.1/", "loopback"],
    ["http://[0:0:0:0:0:ffff:7f00:1]/", "IPv4-mapped"],
    ["http://2852039166/", "link-local"],
    ["http://0xa9.0xfe.0xa9.0xfe/", "link-local"],
  ] as const;

  it.each(literals)("%s is refused (%s)", async (url, range) => {
    const connections = spyConnections();
    const { resolve, asked } = stubResolver({});
    const result = await setup({ resolve }).call({ url });
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe("permission_denied");
    expect(result.text).toContain(range);
    expect(asked).toEqual([]);
    expect(connections).not.toHaveBeenCalled();
  });

  it.each([
    ["http://localhost/", "local machine"],
    ["http://LOCALHOST.:8080/", "local machine"],
    ["http://api.localhost/", "local machine"],
    ["http://localhost%2e/", "local machine"],
    ["http://metadata.google.internal/computeMetadata/v1/", "metadata"],
    ["http://metadata/", "metadata"],
  ])("%s is refused before any lookup (%s)", async (url, why) => {
    const connections = spyConnections();
    const { resolve, asked } = stubResolver({ localhost: ["127.0.0.1"], "metadata.google.internal": ["169.254.169.254"] });
    const result = await setup({ resolve }).call({ url });
    expect(result.error?.code).toBe("permission_denied");
    expect(result.text).toContain(why);
    expect(asked).toEqual([]);
    expect(connections).not.toHaveBeenCalled();
  });

  it("refuses a name that resolves to a private address, and one with a public and a private address", async () => {
    const connections = spyConnections();
    const { resolve, asked } = stubResolver({
      "inner.example": ["10.0.0.7"],
      "mixed.example": ["93.184.216.34", "192.168.1.1"],
      "six.example": ["::ffff:10.0.0.1"],
    });
    const { call } = setup({ resolve });
    expect((await call({ url: "https://inner.example/" })).text).toContain("inner.example resolves to 10.0.0.7, a private address");
    const mixed = await call({ url: "https://mixed.example/" });
    expect(mixed.error?.code).toBe("permission_denied");
    expect(mixed.text).toContain("192.168.1.1");
    expect((await call({ url: "https://six.example/" })).text).toContain("IPv4-mapped IPv6 address embedding 10.0.0.1 (private)");
    expect(asked).toEqual(["inner.example", "mixed.example", "six.example"]);
    expect(connections).not.toHaveBeenCalled();
  });

  it("refuses other schemes and URLs with credentials, and names an unresolvable host", async () => {
    const connections = spyConnections();
    const { resolve } = stubResolver({ "public.example": ["93.184.216.34"] });
    const { call } = setup({ resolve });
    expect((await call({ url: "file:///etc/passwd" })).text).toContain("only http: and https:");
    expect((await call({ url: "ftp://public.example/x" })).text).toContain("only http: and https:");
    expect((await call({ url: "https://user:secret@public.example/" })).text).toContain("credentials");
    expect((await call({ url: "not a url" })).error?.code).toBe("invalid_arguments");
    const missing = await call({ url: "https://nowhere.example/" });
    expect(missing.error?.code).toBe("not_found");
    expect(connections).not.toHaveBeenCalled();
  });
});

describe("WebFetch and the sandbox's network setting", () => {
  it("fetches nothing when the registry's sandbox has no network, and fetches when it has", async () => {
    const server = await startServer((_request, response) => response.writeHead(200, { "content-type": "text/plain" }).end("secret page"));
    const off = { sandbox: { requested: true, settings: { allowNetwork: false }, unavailable: "no bubblewrap in this test" } } as never;
    const refused = await setup({ allowHosts: [server.host] }, undefined, off).call({ url: `${server.origin}/` });
    expect(refused.error?.code).toBe("permission_denied");
    expect(refused.text).toContain("sandbox has no network");
    expect(server.requests).toHaveLength(0);
    const on = { sandbox: { requested: true, settings: { allowNetwork: true }, unavailable: "no bubblewrap in this test" } } as never;
    expect((await setup({ allowHosts: [server.host] }, undefined, on).call({ url: `${server.origin}/` })).text).toContain("secret page");
  });
});

describe("WebFetch connections and redirects", () => {
  it("dials the checked address only: one lookup, the name kept for the Host header", async () => {
    const server = await startServer((_request, response) => response.writeHead(200, { "content-type": "text/plain" }).end("pinned"));
    const { resolve, asked } = stubResolver({ "docs.test": ["127.0.0.1"] });
    const result = await setup({ resolve, allowHosts: [`docs.test:${server.port}`] }).call({ url: `http://docs.test:${server.port}/page` });
    expect(result.text).toContain("pinned");
    expect(asked).toEqual(["docs.test"]);
    expect(server.requests[0]?.headers.host).toBe(`docs.test:${server.port}`);
  });

  it("a name that rebinds after the check is still dialled at the checked address (no second lookup)", async () => {
    const server = await startServer((_request, response) => response.writeHead(200, { "content-type": "text/plain" }).end("checked address"));
    const asked: string[] = [];
    // First answer: the allowed test server; any later one: a documentation address that is never routed (if it were dialled, the call would fail).
    const resolve: ResolveHost = async (hostname) => {
      asked.push(hostname);
      return [{ address: asked.length === 1 ? "127.0.0.1" : "192.0.2.1", family: 4 }];
    };
    const result = await setup({ resolve, allowAddresses: ["127.0.0.0/8"] }).call({ url: `http://rebind.test:${server.port}/` });
    expect(result.text).toContain("checked address");
    expect(asked).toEqual(["rebind.test"]);
  });

  it("an allowHosts entry with a port allows that port only", async () => {
    const server = await startServer((_request, response) => response.writeHead(200, { "content-type": "text/plain" }).end("ok"));
    const connections = spyConnections();
    const result = await setup({ allowHosts: [`127.0.0.1:${server.port + 1}`] }).call({ url: `${server.origin}/` });
    expect(result.error?.code).toBe("permission_denied");
    expect(connections).not.toHaveBeenCalled();
  });

  it("follows redirects on the same host, each hop checked, and stops after 10", async () => {
    const server = await startServer((request, response) => {
      if (request.url === "/old") response.writeHead(301, { location: "/new" }).end();
      else if (request.url?.startsWith("/loop")) response.writeHead(302, { location: `/loop${Number(request.url.slice(5) || 0) + 1}` }).end();
      else response.writeHead(200, { "content-type": "text/plain" }).end("new page");
    });
    const { call } = setup({ allowHosts: [server.host] });
    const moved = await call({ url: `${server.origin}/old` });
    expect(moved.text).toContain(`Final URL: ${server.origin}/new`);
    expect(moved.details.finalUrl).toBe(`${server.origin}/new`);
    const loop = await call({ url: `${server.origin}/loop` });
    expect(loop.error?.code).toBe("limit_reached");
    expect(server.requests.filter((request) => request.url?.startsWith("/loop"))).toHaveLength(11);
  });

  it("refuses a redirect to the metadata address without connecting to it", async () => {
    const server = await startServer((_request, response) => response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/iam" }).end());
    const connections = spyConnections();
    const result = await setup({ allowHosts: [server.host] }).call({ url: `${server.origin}/go` });
    expect(result.error?.code).toBe("permission_denied");
    expect(result.text).toContain("redirected to http://169.254.169.254/latest/meta-data/iam, which was not followed");
    expect(connections).toHaveBeenCalledTimes(1);
  });

  it("reports a redirect to another host without following it", async () => {
    const server = await startServer((_request, response) => response.writeHead(301, { location: "https://elsewhere.example/doc" }).end());
    const { resolve } = stubResolver({ "elsewhere.example": ["93.184.216.34"] });
    const connections = spyConnections();
    const result = await setup({ resolve, allowHosts: [server.host] }).call({ url: `${server.origin}/doc` });
    expect(result.isError).toBe(false);
    expect(result.text).toContain("Fetch https://elsewhere.example/doc with WebFetch");
    expect(result.details).toMatchObject({ format: "redirect", redirectLocation: "https://elsewhere.example/doc", status: 301 });
    expect(connections).toHaveBeenCalledTimes(1);
  });

  it("times out a server that never answers, and ends on the call's abort", async () => {
    const server = await startServer(() => undefined);
    const slow = await setup({ allowHosts: [server.host], timeoutMs: 300 }).call({ url: `${server.origin}/slow` });
    expect(slow.error?.code).toBe("timeout");
    const controller = new AbortController();
    const pending = setup({ allowHosts: [server.host] }).call({ url: `${server.origin}/slow` }, controller.signal);
    while (server.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    const aborted = await pending;
    expect(aborted.error?.code).toBe("cancelled");
  });

  it("answers from the cache within the TTL (the server sees one request), keyed by the final URL too", async () => {
    const server = await startServer((request, response) => {
      if (request.url === "/alias") response.writeHead(302, { location: "/page" }).end();
      else response.writeHead(200, { "content-type": "text/plain" }).end(`hit ${server.requests.length}`);
    });
    const { call } = setup({ allowHosts: [server.host] });
    const first = await call({ url: `${server.origin}/alias` });
    const again = await call({ url: `${server.origin}/alias` });
    const final = await call({ url: `${server.origin}/page` });
    expect(first.details.fromCache).toBe(false);
    expect(again.details.fromCache).toBe(true);
    expect(final.details.fromCache).toBe(true);
    expect(final.text).toContain("hit 2");
    expect(server.requests.map((request) => request.url)).toEqual(["/alias", "/page"]);
    const uncached = setup({ allowHosts: [server.host], cache: false });
    await uncached.call({ url: `${server.origin}/page` });
    await uncached.call({ url: `${server.origin}/page` });
    expect(server.requests).toHaveLength(4);
  });
});
