import { describe, expect, it } from "vitest";
import { normalizeMcpServerConfig } from "../settings.js";
import { mcpConfigHash } from "./mcp-config-hash.js";

const stdio = normalizeMcpServerConfig({
  id: "docs",
  command: "docs-mcp",
  args: ["--root", "/srv"],
  cwd: "/work/a",
  env: { API_TOKEN: "secret-1", LOG: "info" },
});
const http = normalizeMcpServerConfig({
  id: "remote",
  transport: "http",
  url: "https://a.example/mcp",
  headers: { Authorization: "Bearer secret-1" },
  auth: { grant: "client_credentials", clientId: "c1", clientSecret: "s1", scope: "read" },
});

const hash = (config: typeof stdio, scope = "/work/project") => mcpConfigHash(config, scope);

describe("mcpConfigHash", () => {
  it("is a sha256 hex digest that does not contain env or header values", () => {
    expect(hash(stdio)).toMatch(/^[0-9a-f]{64}$/);
    expect(hash(stdio)).toBe(hash(normalizeMcpServerConfig({ ...stdio })));
    expect(hash(stdio)).not.toContain("secret");
  });

  it("keeps the hash when only the client secret, the description or timeouts change", () => {
    expect(hash({ ...stdio, description: "other", timeoutMs: 5, ttlMs: 0 })).toBe(hash(stdio));
    expect(hash({ ...http, auth: { ...http.auth, clientSecret: "s2" } })).toBe(hash(http));
  });

  it("changes when an env or header value changes (another tenant's token, a rotated one, another PATH)", () => {
    expect(hash({ ...stdio, env: { LOG: "info", API_TOKEN: "secret-2" } })).not.toBe(hash(stdio));
    expect(hash({ ...stdio, env: { LOG: "debug", API_TOKEN: "secret-1" } })).not.toBe(hash(stdio));
    expect(hash({ ...http, headers: { Authorization: "Bearer secret-2" } })).not.toBe(hash(http));
    // A value moved to another name is another configuration too.
    expect(hash({ ...stdio, env: { API_TOKEN: "info", LOG: "secret-1" } })).not.toBe(hash(stdio));
  });

  it("changes with the scope (the registry's project), and an empty scope is a scope of its own", () => {
    expect(hash(stdio, "/work/other")).not.toBe(hash(stdio));
    expect(hash(stdio, "")).not.toBe(hash(stdio));
    expect(hash(stdio, "")).toBe(hash(stdio, ""));
  });

  it("changes when a name, an argument, the command, cwd, url, transport or the OAuth client changes", () => {
    const base = hash(stdio);
    const variants = [
      { ...stdio, env: { API_TOKEN: "secret-1", LOG: "info", EXTRA: "" } },
      { ...stdio, env: { API_KEY: "secret-1", LOG: "info" } },
      { ...stdio, args: ["--root", "/srv2"] },
      { ...stdio, args: ["/srv", "--root"] },
      { ...stdio, command: "docs-mcp2" },
      { ...stdio, cwd: "/work/b" },
      { ...stdio, cwd: undefined },
    ];
    for (const variant of variants) expect(hash(variant)).not.toBe(base);
    const remote = hash(http);
    for (const variant of [
      { ...http, url: "https://b.example/mcp" },
      { ...http, transport: "sse" as const },
      { ...http, messageUrl: "/messages" },
      { ...http, headers: { "X-Api-Key": "Bearer secret-1" } },
      { ...http, auth: { ...http.auth, clientId: "c2" } },
      { ...http, auth: { ...http.auth, scope: "write" } },
      { ...http, auth: undefined },
    ]) {
      expect(hash(variant)).not.toBe(remote);
    }
  });

  it("does not depend on the order env or header entries were written in", () => {
    expect(hash({ ...stdio, env: { LOG: "info", API_TOKEN: "secret-1" } })).toBe(hash(stdio));
    expect(hash({ ...http, headers: { "X-B": "2", "X-A": "1" } })).toBe(hash({ ...http, headers: { "X-A": "1", "X-B": "2" } }));
  });
});
