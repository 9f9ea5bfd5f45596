import { SdkError } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { createWebFetchCache } from "./web-fetch-cache.js";
import { resolveWebFetchOptions } from "./web-fetch-options.js";
import { webTools } from "./web-tools-plugin.js";

const page = (text: string, truncated = false, maxBytes = 100) => ({
  finalUrl: "https://example.com/",
  status: 200,
  contentType: "text/plain",
  bytes: text.length,
  truncated,
  maxBytes,
  content: { format: "text" as const, text },
});

function thrown(run: () => unknown): SdkError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SdkError);
    return error as SdkError;
  }
  throw new Error("did not throw");
}

describe("WebFetch options fail closed", () => {
  it("names an unknown key with the closest valid one", () => {
    expect(thrown(() => webTools({ allowHost: ["x"] } as never)).message).toContain("allowHost is not an option; did you mean allowHosts?");
    expect(thrown(() => resolveWebFetchOptions({ cache: { ttl: 5 } } as never, "webFetch.")).message).toContain(
      "webFetch.cache.ttl is not an option; did you mean webFetch.cache.ttlMs?",
    );
  });

  it.each([
    ["http://127.0.0.1:8080"],
    ["127.0.0.1:8080/path"],
    ["*.example.com"],
    ["user@host.example"],
    ["host.example:0"],
    ["host.example:99999"],
    [" host.example"],
    ["2130706433"],
    [""],
    [42],
  ])("refuses the allowHosts entry %j", (entry) => {
    const error = thrown(() => resolveWebFetchOptions({ allowHosts: [entry as string] }, "webFetch."));
    expect(error.message).toContain("webFetch.allowHosts[0]");
    expect(error.message).toContain('e.g. "internal.example", "127.0.0.1:8080"');
  });

  it("accepts host names, addresses and ports, and CIDR blocks", () => {
    const resolved = resolveWebFetchOptions({ allowHosts: ["Docs.Internal", "127.0.0.1:8080", "[::1]:9000"], allowAddresses: ["10.20.0.0/16", "fd00::/8"] });
    expect(resolved.allow.hosts).toEqual([{ hostname: "docs.internal" }, { hostname: "127.0.0.1", port: 8080 }, { hostname: "[::1]", port: 9000 }]);
    expect(resolved.allow.networks.map((network) => network.text)).toEqual(["10.20.0.0/16", "fd00::/8"]);
  });

  it("refuses a malformed allowAddresses entry and wrong types", () => {
    expect(thrown(() => resolveWebFetchOptions({ allowAddresses: ["10.0.0.1/8"] })).message).toContain("allowAddresses[0]");
    expect(thrown(() => resolveWebFetchOptions({ allowHosts: "127.0.0.1" as never })).message).toContain("allowHosts must be an array");
    expect(thrown(() => resolveWebFetchOptions({ timeoutMs: -1 })).message).toContain("timeoutMs");
    expect(thrown(() => resolveWebFetchOptions({ resolve: "8.8.8.8" as never })).message).toContain("resolve must be a function");
  });
});

describe("the page cache", () => {
  it("expires after the TTL and drops the least recently used past its bounds", () => {
    let now = 0;
    const cache = createWebFetchCache({ ttlMs: 1000, maxEntries: 2, maxChars: 10 }, () => now);
    cache.set(["a"], page("aaa"));
    now = 999;
    expect(cache.get("a", 100)?.content.text).toBe("aaa");
    now = 1000;
    expect(cache.get("a", 100)).toBeUndefined();
    cache.set(["a"], page("aaa"));
    cache.set(["b"], page("bbb"));
    cache.get("a", 100);
    cache.set(["c"], page("ccc"));
    expect(cache.get("b", 100)).toBeUndefined();
    expect(cache.get("a", 100)).toBeDefined();
    cache.set(["d"], page("dddddddd"));
    expect(cache.get("a", 100)).toBeUndefined();
    expect(cache.get("d", 100)).toBeDefined();
  });

  it("does not answer a larger max_bytes with a page cut at a smaller one", () => {
    const cache = createWebFetchCache();
    cache.set(["a"], page("cut", true, 10));
    expect(cache.get("a", 20)).toBeUndefined();
    cache.set(["b"], page("cut", true, 10));
    expect(cache.get("b", 10)).toBeDefined();
  });
});
