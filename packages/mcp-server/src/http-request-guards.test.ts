import { describe, expect, it } from "vitest";
import { createRequestGuards } from "./http-request-guards.js";

const base = { boundHost: "127.0.0.1", port: 8123, extraHosts: [], extraOrigins: [] };

describe("createRequestGuards", () => {
  it("accepts the loopback names and the bound address with the bound port only", () => {
    const guards = createRequestGuards(base);
    for (const host of ["127.0.0.1:8123", "localhost:8123", "LocalHost:8123", "[::1]:8123"]) expect([host, guards.hostAllowed(host)]).toEqual([host, true]);
    for (const host of [
      undefined,
      "",
      "evil.example",
      "evil.example:8123",
      "localhost:8124",
      "localhost",
      "127.0.0.1:8123.evil",
      "a@localhost:8123",
      "[::1]",
    ]) {
      expect([host, guards.hostAllowed(host)]).toEqual([host, false]);
    }
    const remote = createRequestGuards({ ...base, boundHost: "MyBox.lan" });
    expect(remote.hostAllowed("mybox.lan:8123")).toBe(true);
    expect(createRequestGuards({ ...base, boundHost: "::1" }).hostAllowed("[::1]:8123")).toBe(true);
  });

  it("adds host entries with a port (that port only) and without one (any port); a Host without a port means 80", () => {
    const guards = createRequestGuards({ ...base, extraHosts: ["mybox.lan", "proxy.example:443"] });
    expect(guards.hostAllowed("mybox.lan:9999")).toBe(true);
    expect(guards.hostAllowed("mybox.lan")).toBe(true);
    expect(guards.hostAllowed("proxy.example:443")).toBe(true);
    expect(guards.hostAllowed("proxy.example")).toBe(false);
    expect(createRequestGuards({ ...base, port: 80 }).hostAllowed("localhost")).toBe(true);
  });

  it("accepts a wildcard bind's interface addresses, never the wildcard itself as a name", () => {
    const guards = createRequestGuards({ ...base, boundHost: "0.0.0.0" });
    expect(guards.hostAllowed("127.0.0.1:8123")).toBe(true);
    expect(guards.hostAllowed("0.0.0.0:8123")).toBe(false);
    expect(guards.hostAllowed("evil.example:8123")).toBe(false);
  });

  it("accepts no Origin, the server's own origins and the extra ones", () => {
    const guards = createRequestGuards({ ...base, extraOrigins: ["http://localhost:5173"] });
    for (const origin of [undefined, "http://127.0.0.1:8123", "http://localhost:8123", "http://[::1]:8123", "http://localhost:5173", "HTTP://LOCALHOST:5173"]) {
      expect([origin, guards.originAllowed(origin)]).toEqual([origin, true]);
    }
    for (const origin of ["null", "http://evil.example", "https://localhost:8123", "http://localhost:8124"])
      expect([origin, guards.originAllowed(origin)]).toEqual([origin, false]);
  });

  it("takes the bearer scheme in any case with one or more spaces, and only the exact token", () => {
    const open = createRequestGuards(base);
    expect(open.authorized(undefined)).toBe(true);
    const guards = createRequestGuards({ ...base, bearerToken: "s3cret" });
    for (const header of ["Bearer s3cret", "bearer s3cret", "BEARER s3cret", "Bearer  s3cret", " Bearer s3cret "])
      expect([header, guards.authorized(header)]).toEqual([header, true]);
    for (const header of [undefined, "", "Bearer", "Bearer ", "s3cret", "Basic s3cret", "Bearer s3cre", "Bearer s3cret2", "Bearer s3cret x", "Bearers3cret"]) {
      expect([header, guards.authorized(header)]).toEqual([header, false]);
    }
  });
});
