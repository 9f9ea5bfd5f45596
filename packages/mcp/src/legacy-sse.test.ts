import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpManagerDetails } from "./mcp-manager-support.js";
import { type HttpServerProcess, setupMcp, startLegacySse, textOf } from "./__fixtures__/test-servers.js";

describe("legacy SSE server without an endpoint event", () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await startLegacySse();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("uses messageUrl (relative to url) after waiting 3 s for the endpoint", async () => {
    const setup = await setupMcp([{ id: "old", transport: "sse", url: server.url, messageUrl: "/messages", timeoutMs: 15_000 }]);
    try {
      const result = await setup.registry.executeToolCall({ id: "1", name: "mcp_old_echo", arguments: { text: "hi" } });
      expect(result.isError).toBe(false);
      expect(textOf(result)).toBe("legacy: hi");
    } finally {
      await setup.close();
    }
  });

  it("without messageUrl, McpManager test fails and suggests setting it", async () => {
    const setup = await setupMcp([]);
    try {
      const result = await setup.registry.executeToolCall({ id: "2", name: "McpManager", arguments: { action: "test", server: { id: "old", transport: "sse", url: server.url } } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/announced no message endpoint within 3000 ms/);
      expect((result.details as McpManagerDetails).suggestions?.join("\n")).toMatch(/messageUrl/);
    } finally {
      await setup.close();
    }
  });

  it("suggests checking the credentials on a 401", async () => {
    const setup = await setupMcp([]);
    try {
      const url = server.url.replace("/sse", "/secure/mcp");
      const result = await setup.registry.executeToolCall({ id: "3", name: "McpManager", arguments: { action: "diagnose", server: { id: "locked", transport: "http", url, headers: { Authorization: "Bearer wrong" } } } });
      const details = result.details as McpManagerDetails;
      expect(details.ok).toBe(false);
      expect(details.phase).toBe("connect");
      expect(details.suggestions?.join("\n")).toMatch(/credentials/);
      expect(JSON.stringify(result)).not.toContain("Bearer wrong");
    } finally {
      await setup.close();
    }
  });
});
