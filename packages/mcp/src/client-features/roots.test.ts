import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpTestSetup, setupMcp, textOf } from "../__fixtures__/test-servers.js";
import { type FeatureServer, startFeatureServer } from "./__fixtures__/feature-server.js";
import type { McpRoot } from "./client-feature-types.js";

describe("roots offered to servers", () => {
  let server: FeatureServer;
  let setup: McpTestSetup;
  let roots: McpRoot[] = [{ uri: "file:///srv/project", name: "workspace" }];
  const listRoots = async () => {
    const result = await setup.registry.executeToolCall({ id: "r", name: "mcp_feat_roots", arguments: {} });
    return { isError: result.isError === true, text: textOf(result) };
  };

  beforeAll(async () => {
    server = await startFeatureServer();
    setup = await setupMcp([{ id: "feat", transport: "http", url: server.url, timeoutMs: 20_000 }], { roots: () => roots });
  });
  afterAll(async () => {
    await setup?.close();
    await server?.stop();
  });

  it("declares roots with listChanged and answers roots/list with the host's current roots", async () => {
    expect(server.clientCapabilities()).toEqual({ roots: { listChanged: true } });
    expect(JSON.parse((await listRoots()).text)).toEqual({ roots: [{ uri: "file:///srv/project", name: "workspace" }] });
    roots = [...roots, { uri: "file:///srv/docs", name: "docs (read-only)" }];
    expect(JSON.parse((await listRoots()).text).roots).toEqual([
      { uri: "file:///srv/project", name: "workspace" },
      { uri: "file:///srv/docs", name: "docs (read-only)" },
    ]);
  });

  it("tells connected servers that the roots changed when the host calls notifyRootsChanged", async () => {
    const before = server.rootsChanges();
    await setup.mcp.notifyRootsChanged();
    await server.waitForRootsChanges(before + 1);
    expect(server.rootsChanges()).toBe(before + 1);
  });

  it("refuses a root that is not a file:// URI, naming it", async () => {
    roots = [{ uri: "https://example.com/repo", name: "remote" }];
    const { isError, text } = await listRoots();
    roots = [{ uri: "file:///srv/project", name: "workspace" }];
    expect(isError).toBe(true);
    expect(text).toContain('root "https://example.com/repo" is not a file:// URI');
  });
});

describe("roots turned off", () => {
  let server: FeatureServer;
  let setup: McpTestSetup;
  beforeAll(async () => {
    server = await startFeatureServer();
    setup = await setupMcp([{ id: "feat", transport: "http", url: server.url, timeoutMs: 20_000 }], { roots: false });
  });
  afterAll(async () => {
    await setup?.close();
    await server?.stop();
  });

  it("declares nothing, and notifyRootsChanged sends nothing", async () => {
    expect(server.clientCapabilities()).toEqual({});
    await setup.mcp.notifyRootsChanged();
    const result = await setup.registry.executeToolCall({ id: "r", name: "mcp_feat_roots", arguments: {} });
    expect(textOf(result)).toContain("error -32601");
    expect(server.rootsChanges()).toBe(0);
  });
});
