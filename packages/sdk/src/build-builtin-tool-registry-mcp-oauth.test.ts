import { mkdtempSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { openSqliteStorage } from "@agent-tools/storage";
import { type ToolResult, toolResultText } from "@agent-tools/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OAuthTestServers, autoApprove, startOAuthTestServers } from "../../mcp/src/oauth/__fixtures__/oauth-test-servers.js";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const work = mkdtempSync(path.join(os.tmpdir(), "sdk-mcp-oauth-"));

function text(result: ToolResult): string {
  return toolResultText(result, "");
}

describe("buildBuiltinToolRegistry: MCP OAuth", () => {
  let servers: OAuthTestServers;
  beforeAll(async () => {
    servers = await startOAuthTestServers();
  });
  afterAll(async () => {
    await servers?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("keeps tokens in the shared SQLite file of dataDir, encrypted, so a new registry connects without a sign-in", async () => {
    const dataDir = path.join(work, ".data");
    const asked: string[] = [];
    const encryptionKey = randomBytes(32);
    const options = () => ({
      workdir: work,
      dataDir,
      mcp: {
        getSettings: () => ({
          servers: [{ id: "remote", enabled: true, transport: "http" as const, url: servers.mcpUrl, command: "", args: [], timeoutMs: 20_000 }],
          selected: [],
        }),
        oauth: { onAuthorization: autoApprove(asked), redirectUrl: "http://127.0.0.1:9/cb", encryptionKey },
      },
    });
    const first = await buildBuiltinToolRegistry(options());
    expect(text(await first.executeToolCall({ id: "1", name: "mcp_remote_whoami", arguments: {} }))).toContain("whoami: client dcr-");
    await first.close();
    expect(asked).toHaveLength(1);

    const second = await buildBuiltinToolRegistry(options());
    try {
      expect(text(await second.executeToolCall({ id: "2", name: "mcp_remote_whoami", arguments: {} }))).toContain("whoami: client dcr-");
      expect(asked).toHaveLength(1);
    } finally {
      await second.close();
    }

    const storage = await openSqliteStorage({ dataDir });
    try {
      const rows = await storage.db.selectFrom("agent_tools_mcp_oauth").selectAll().execute();
      expect(rows.map((row) => row.server_id)).toEqual(["remote"]);
      for (const secret of servers.issuedSecrets) expect(JSON.stringify(rows)).not.toContain(secret);
    } finally {
      await storage.close();
    }
  });
});
