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

describe("mcpConfigHash", () => {
  it("is a sha256 hex digest that does not contain env or header values", () => {
    expect(mcpConfigHash(stdio)).toMatch(/^[0-9a-f]{64}$/);
    expect(mcpConfigHash(stdio)).toBe(mcpConfigHash(normalizeMcpServerConfig({ ...stdio })));
  });

  it("keeps the hash when only env values, header values, the client secret, the description or timeouts change", () => {
    expect(mcpConfigHash({ ...stdio, env: { LOG: "debug", API_TOKEN: "secret-2" } })).toBe(mcpConfigHash(stdio));
    expect(mcpConfigHash({ ...stdio, description: "other", timeoutMs: 5, ttlMs: 0 })).toBe(mcpConfigHash(stdio));
    expect(mcpConfigHash({ ...http, headers: { Authorization: "Bearer secret-2" } })).toBe(mcpConfigHash(http));
    expect(mcpConfigHash({ ...http, auth: { ...http.auth, clientSecret: "s2" } })).toBe(mcpConfigHash(http));
  });

  it("changes when a name, an argument, the command, cwd, url, transport or the OAuth client changes", () => {
    const base = mcpConfigHash(stdio);
    const variants = [
      { ...stdio, env: { API_TOKEN: "secret-1", LOG: "info", EXTRA: "" } },
      { ...stdio, env: { API_KEY: "secret-1", LOG: "info" } },
      { ...stdio, args: ["--root", "/srv2"] },
      { ...stdio, args: ["/srv", "--root"] },
      { ...stdio, command: "docs-mcp2" },
      { ...stdio, cwd: "/work/b" },
      { ...stdio, cwd: undefined },
    ];
    for (const variant of variants) expect(mcpConfigHash(variant)).not.toBe(base);
    const remote = mcpConfigHash(http);
    for (const variant of [
      { ...http, url: "https://b.example/mcp" },
      { ...http, transport: "sse" as const },
      { ...http, messageUrl: "/messages" },
      { ...http, headers: { "X-Api-Key": "secret-1" } },
      { ...http, auth: { ...http.auth, clientId: "c2" } },
      { ...http, auth: { ...http.auth, scope: "write" } },
      { ...http, auth: undefined },
    ]) {
      expect(mcpConfigHash(variant)).not.toBe(remote);
    }
  });

  it("does not depend on the order env or header names were written in", () => {
    expect(mcpConfigHash({ ...stdio, env: { LOG: "info", API_TOKEN: "secret-1" } })).toBe(mcpConfigHash(stdio));
  });
});
