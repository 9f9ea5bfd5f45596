import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type ToolResult, toolResultText } from "@agent-tools/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FeatureServer, startFeatureServer } from "../../mcp/src/client-features/__fixtures__/feature-server.js";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const work = realpathSync(mkdtempSync(path.join(os.tmpdir(), "sdk-mcp-roots-")));
const workdir = path.join(work, "project");
const docs = path.join(work, "docs");
const out = path.join(work, "out");
for (const dir of [workdir, docs, out]) mkdirSync(dir);

function text(result: ToolResult): string {
  return toolResultText(result, "");
}

describe("buildBuiltinToolRegistry: MCP roots", () => {
  let server: FeatureServer;
  beforeAll(async () => {
    server = await startFeatureServer();
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  });
  const settings = () => ({
    servers: [{ id: "feat", enabled: true, transport: "http" as const, url: server.url, command: "", args: [], timeoutMs: 20_000 }],
    selected: [],
  });

  it("offers the workspace and the granted roots, read-only ones named so", async () => {
    const registry = await buildBuiltinToolRegistry({
      workdir,
      dataDir: path.join(work, ".data"),
      additionalRoots: [
        { alias: "docs", path: docs, access: "read" },
        { alias: "out", path: out, access: "write" },
      ],
      mcp: { getSettings: settings },
    });
    try {
      expect(server.clientCapabilities()).toMatchObject({ roots: { listChanged: true } });
      const result = await registry.executeToolCall({ id: "r", name: "mcp_feat_roots", arguments: {} });
      expect(JSON.parse(text(result))).toEqual({
        roots: [
          { uri: pathToFileURL(workdir).href, name: "workspace" },
          { uri: pathToFileURL(docs).href, name: "docs (read-only)" },
          { uri: pathToFileURL(out).href, name: "out" },
        ],
      });
    } finally {
      await registry.close();
    }
  });

  it("offers none when the host passes roots: false", async () => {
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir: path.join(work, ".data"), mcp: { getSettings: settings, roots: false } });
    try {
      // The call connects (the first test cached the server's manifest in this dataDir, so the build started nothing).
      const result = await registry.executeToolCall({ id: "r", name: "mcp_feat_roots", arguments: {} });
      expect(text(result)).toContain("error -32601");
      expect(server.clientCapabilities()).toEqual({});
    } finally {
      await registry.close();
    }
  });
});
