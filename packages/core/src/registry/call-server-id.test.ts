import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { ToolDefinition } from "../types.js";
import { createToolRegistry } from "./create-tool-registry.js";
import { defineTool } from "./define-tool.js";

const work = mkdtempSync(path.join(os.tmpdir(), "core-call-server-id-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A read-only tool whose calls act on the server their input names. */
function readOn(ran: string[]): ToolDefinition {
  const tool = defineTool({
    name: "ReadOn",
    description: "Reads from a server.",
    inputSchema: z.object({ server: z.string() }),
    metadata: { groupId: "mcp", kind: "read", isReadOnly: true },
    execute: ({ server }) => {
      ran.push(server);
      return { content: `read ${server}` };
    },
  });
  return { ...tool, callServerId: (input: { server?: unknown }) => (typeof input.server === "string" ? input.server : undefined) };
}

describe("ToolDefinition.callServerId", () => {
  it("makes approval judge each call as the named server's: server:<id> deny and ask apply, onAsk sees the id", async () => {
    const ran: string[] = [];
    const asked: Array<string | undefined> = [];
    const registry = createToolRegistry({
      workdir: work,
      dataDir: path.join(work, ".data"),
      bundles: [{ id: "reads", trusted: true, listTools: () => [readOn(ran)], approvalTargets: () => ({ serverIds: ["x", "y", "z"] }) }],
      approval: {
        policies: { "server:x": "deny", "server:y": "ask" },
        onAsk: (request) => {
          asked.push(request.metadata.serverId);
          return false;
        },
      },
    });
    try {
      expect(registry.approvalDecision("ReadOn")).toBe("allow");
      expect(["x", "y", "z"].map((server) => registry.approvalDecision("ReadOn", { server }))).toEqual(["deny", "ask", "allow"]);
      const denied = await registry.executeToolCall({ id: "1", name: "ReadOn", arguments: { server: "x" } });
      expect(denied.error?.code).toBe("permission_denied");
      const declined = await registry.executeToolCall({ id: "2", name: "ReadOn", arguments: { server: "y" } });
      expect(declined.error?.code).toBe("permission_denied");
      expect(asked).toEqual(["y"]);
      const allowed = await registry.executeToolCall({ id: "3", name: "ReadOn", arguments: { server: "z" } });
      expect(allowed.isError).toBe(false);
      expect(ran).toEqual(["z"]);
    } finally {
      await registry.close();
    }
  });
});
