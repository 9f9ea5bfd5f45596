import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { McpServerConfigInput } from "@agent-tools/mcp";
import { afterAll, describe, expect, it } from "vitest";
import { resourceStdio } from "../../mcp/src/resources/__fixtures__/resource-servers.js";
import { mcpRegistryOptions, type Registry, manage } from "./__fixtures__/mcp-registry-options.js";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import type { BuiltinToolRegistryOptions } from "./builtin-tool-registry-options.js";

const work = realpathSync(mkdtempSync(path.join(os.tmpdir(), "sdk-mcp-manager-deny-")));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const options = (name: string, servers: McpServerConfigInput[], extra: Partial<BuiltinToolRegistryOptions> = {}) =>
  mcpRegistryOptions(work, name, servers, extra);

const stateOf = async (registry: Registry, serverId: string) => (await registry.mcp?.servers())?.find((server) => server.serverId === serverId)?.state;

describe("McpManager and a server the host's approval denies (attack F14 of issue 39)", () => {
  const cases: Array<[string, Partial<BuiltinToolRegistryOptions>]> = [["server:<id> deny", { approval: { policies: { "server:res": "deny" } } }]];
  for (const [label, extra] of cases) {
    it(`${label}: restart, test, tools, diagnose and login are permission_denied and start nothing; list, read and stop work`, async () => {
      const registry = await buildBuiltinToolRegistry(options(label.replace(/\W+/g, "-"), [resourceStdio("res"), resourceStdio("open")], extra));
      try {
        const stop = await manage(registry, { action: "stop", server_id: "res" });
        expect(stop.isError, JSON.stringify(stop.content)).toBe(false);
        const stopped = await stateOf(registry, "res");
        expect(["started", "invoked"]).not.toContain(stopped);
        for (const action of ["restart", "test", "tools", "diagnose", "login"]) {
          const refused = await manage(registry, { action, server_id: "res" });
          expect(refused.error?.code, action).toBe("permission_denied");
        }
        // An inline configuration under the denied id is the same server to approval.
        const inline = await manage(registry, { action: "test", server: { id: "res", command: process.execPath, args: ["-e", ""] } });
        expect(inline.error?.code).toBe("permission_denied");
        expect(await stateOf(registry, "res")).toBe(stopped);
        expect((await manage(registry, { action: "list" })).isError).toBe(false);
        expect((await manage(registry, { action: "read", server_id: "res" })).isError).toBe(false);
        // Another server is unaffected.
        const other = await manage(registry, { action: "restart", server_id: "open" });
        expect(other.isError, JSON.stringify(other.content)).toBe(false);
        expect(await stateOf(registry, "open")).toBe("started");
      } finally {
        await registry.close();
      }
    }, 60_000);
  }

  it("server:<id> ask asks the host with the server's id before a restart; a refusal starts nothing, an approval restarts", async () => {
    const asked: Array<[string, string | undefined]> = [];
    let answer = false;
    const registry = await buildBuiltinToolRegistry(
      options("ask", [resourceStdio("res")], {
        approval: {
          policies: { "server:res": "ask" },
          onAsk: (request) => {
            asked.push([request.toolName, request.metadata.serverId]);
            return answer;
          },
        },
      }),
    );
    try {
      expect(registry.approvalDecision("McpManager", { action: "restart", server_id: "res" })).toBe("ask");
      expect(registry.approvalDecision("McpManager", { action: "stop", server_id: "res" })).toBe("allow");
      expect((await manage(registry, { action: "stop", server_id: "res" })).isError).toBe(false);
      expect(asked).toEqual([]);
      const refused = await manage(registry, { action: "restart", server_id: "res" });
      expect(refused.error?.code).toBe("permission_denied");
      expect(["started", "invoked"]).not.toContain(await stateOf(registry, "res"));
      answer = true;
      const restarted = await manage(registry, { action: "restart", server_id: "res" });
      expect(restarted.isError, JSON.stringify(restarted.content)).toBe(false);
      expect(await stateOf(registry, "res")).toBe("started");
      expect(asked).toEqual([
        ["McpManager", "res"],
        ["McpManager", "res"],
      ]);
    } finally {
      await registry.close();
    }
  }, 60_000);
});
