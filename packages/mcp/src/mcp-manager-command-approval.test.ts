import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ToolRegistry } from "@agent-tools/core";
import { afterAll, describe, expect, it } from "vitest";
import { setupMcp } from "./__fixtures__/test-servers.js";
import { resourceStdio } from "./resources/__fixtures__/resource-servers.js";

const work = mkdtempSync(path.join(os.tmpdir(), "mcp-manager-command-approval-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("McpManager in a registry without a Bash tool (attack F15 of issue 39)", () => {
  it("refuses a model-written stdio server (fail closed), still runs the host's stored one; without an approval view nothing is judged", async () => {
    const marker = path.join(work, "marker");
    const inline = {
      id: "inline",
      command: process.execPath,
      args: ["-e", `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran")`],
      timeoutMs: 5_000,
    };
    let registry: ToolRegistry | undefined;
    const setup = await setupMcp([resourceStdio("res")], { approvalView: { approvalDecision: (name, input) => registry!.approvalDecision(name, input) } });
    registry = setup.registry;
    try {
      expect(registry.approvalDecision("Bash")).toBe("deny");
      const refused = await registry.executeToolCall({ id: "1", name: "McpManager", arguments: { action: "test", server: inline } });
      expect(refused.error?.code).toBe("permission_denied");
      expect(refused.error?.message).toContain("Bash is denied or not in this registry");
      const created = await registry.executeToolCall({ id: "2", name: "McpManager", arguments: { action: "create", server: inline } });
      expect(created.error?.code).toBe("permission_denied");
      expect(existsSync(marker)).toBe(false);
      const stored = await registry.executeToolCall({ id: "3", name: "McpManager", arguments: { action: "test", server_id: "res" } });
      expect(stored.isError, JSON.stringify(stored.content)).toBe(false);
    } finally {
      await setup.close();
    }
    const unjudged = await setupMcp([]);
    try {
      const ran = await unjudged.registry.executeToolCall({ id: "4", name: "McpManager", arguments: { action: "test", server: inline } });
      expect(ran.error?.code).not.toBe("permission_denied");
      expect(existsSync(marker)).toBe(true);
    } finally {
      await unjudged.close();
    }
  }, 60_000);
});
