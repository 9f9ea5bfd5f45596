import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { McpServerConfigInput } from "@agent-tools/mcp";
import { afterAll, describe, expect, it } from "vitest";
import { resourceStdio } from "../../mcp/src/resources/__fixtures__/resource-servers.js";
import { mcpRegistryOptions } from "./__fixtures__/mcp-registry-options.js";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import type { BuiltinToolRegistryOptions } from "./builtin-tool-registry-options.js";

const work = realpathSync(mkdtempSync(path.join(os.tmpdir(), "sdk-mcp-resources-")));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const options = (name: string, servers: McpServerConfigInput[], extra: Partial<BuiltinToolRegistryOptions> = {}) =>
  mcpRegistryOptions(work, name, servers, extra);

const read = { id: "r", name: "ReadMcpResource", arguments: { server: "res", uri: "mem://notes/readme" } };

describe("buildBuiltinToolRegistry: MCP resources and prompts", () => {
  it("gives registry.mcp, whose prompts() lists the servers' prompts; undefined without MCP", async () => {
    const registry = await buildBuiltinToolRegistry(options("prompts", [resourceStdio("res"), resourceStdio("other", { RES_RESOURCES: "0" })]));
    try {
      const prompts = (await registry.mcp?.prompts()) ?? [];
      expect(prompts.map((prompt) => prompt.name).sort()).toEqual(["other_greet", "other_summary", "res_greet", "res_summary"]);
      const filled = await registry.mcp?.getPrompt("res", "res_summary");
      expect(filled?.messages).toEqual([{ role: "user", content: { type: "text", text: "Summarise res." } }]);
      const result = await registry.executeToolCall(read);
      expect(result.isError).toBe(false);
    } finally {
      await registry.close();
    }
    const plain = await buildBuiltinToolRegistry({ workdir: path.join(work, "prompts", "project"), dataDir: path.join(work, "none-data"), memory: false });
    try {
      expect(plain.mcp).toBeUndefined();
    } finally {
      await plain.close();
    }
  }, 60_000);

  it("refuses the resources of a server the approval denies (server:<id>), and of one a permission rule denies (mcp_<id>_*)", async () => {
    const cases: Array<[string, Partial<BuiltinToolRegistryOptions>]> = [
      ["approval", { approval: { policies: { "server:res": "deny" } } }],
      ["permissions", { permissions: { deny: ["mcp_res_*"] } }],
    ];
    for (const [name, extra] of cases) {
      const registry = await buildBuiltinToolRegistry(options(name, [resourceStdio("res"), resourceStdio("open")], extra));
      try {
        expect(registry.hasTool("mcp_res_bump"), name).toBe(false);
        const refused = await registry.executeToolCall(read);
        expect(refused.error?.code, name).toBe("permission_denied");
        // server:<id> is the registry's own check of the call (the server it names); mcp_<id>_* the resource tool's.
        expect(refused.error?.message, name).toMatch(name === "approval" ? /ReadMcpResource is denied by the host's approval policy/ : /deny MCP server res/);
        const listed = await registry.executeToolCall({ id: "l", name: "ListMcpResources", arguments: { server: "res" } });
        expect(listed.error?.code, name).toBe("permission_denied");
        // Listing every server leaves the denied one out; the other still reads.
        const all = await registry.executeToolCall({ id: "a", name: "ListMcpResources", arguments: {} });
        expect(
          (all.details as { servers: Array<{ serverId: string }> }).servers.map((server) => server.serverId),
          name,
        ).toEqual(["open"]);
        const open = await registry.executeToolCall({ ...read, arguments: { server: "open", uri: "mem://notes/readme" } });
        expect(open.isError, name).toBe(false);
      } finally {
        await registry.close();
      }
    }
  }, 60_000);

  it("asks the host about a server:<id> ask rule, with the server's id in the request; without onAsk it refuses", async () => {
    const asked: Array<string | undefined> = [];
    const registry = await buildBuiltinToolRegistry(
      options("ask", [resourceStdio("res")], {
        approval: {
          policies: { "server:res": "ask" },
          onAsk: (request) => {
            asked.push(request.metadata.serverId);
            return true;
          },
        },
      }),
    );
    try {
      expect(registry.approvalDecision("ReadMcpResource", { server: "res" })).toBe("ask");
      expect(registry.approvalDecision("ReadMcpResource")).toBe("allow");
      const result = await registry.executeToolCall(read);
      expect(result.isError).toBe(false);
      expect(asked).toEqual(["res"]);
      // Listing every server leaves out one that needs asking (nothing is started for it unasked).
      const all = await registry.executeToolCall({ id: "a", name: "ListMcpResources", arguments: {} });
      expect(all.details).toEqual({ servers: [] });
    } finally {
      await registry.close();
    }
  }, 60_000);
});
