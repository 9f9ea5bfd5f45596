import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { McpServerConfigInput } from "@agent-tools/mcp";
import { afterAll, describe, expect, it } from "vitest";
import { resourceStdio } from "../../mcp/src/resources/__fixtures__/resource-servers.js";
import { manage, mcpRegistryOptions } from "./__fixtures__/mcp-registry-options.js";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import type { BuiltinToolRegistryOptions } from "./builtin-tool-registry-options.js";

const work = realpathSync(mkdtempSync(path.join(os.tmpdir(), "sdk-mcp-manager-inline-")));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const options = (name: string, servers: McpServerConfigInput[], extra: Partial<BuiltinToolRegistryOptions> = {}) =>
  mcpRegistryOptions(work, name, servers, extra, { applyOps: () => undefined });

/** An inline stdio server that leaves `marker` behind when its process starts. */
function marking(id: string, marker: string): McpServerConfigInput {
  return { id, command: process.execPath, args: ["-e", `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran")`], timeoutMs: 5_000 };
}

describe("McpManager: a stdio server the model writes is judged as a Bash call (attack F15 of issue 39)", () => {
  it("Bash deny: inline test, tools and diagnose are permission_denied and start no process; create and a command update are refused", async () => {
    const marker = path.join(work, "deny-marker");
    const registry = await buildBuiltinToolRegistry(options("deny", [resourceStdio("res")], { approval: { policies: { Bash: "deny" } } }));
    try {
      for (const action of ["test", "tools", "diagnose"]) {
        const refused = await manage(registry, { action, server: marking("inline", marker) });
        expect(refused.error?.code, action).toBe("permission_denied");
        expect(refused.error?.message, action).toContain("denies shell commands");
      }
      expect(existsSync(marker)).toBe(false);
      const created = await manage(registry, { action: "create", server: marking("made", marker) });
      expect(created.error?.code).toBe("permission_denied");
      const updated = await manage(registry, { action: "update", server_id: "res", patch: { command: "sh", args: ["-c", "true"] } });
      expect(updated.error?.code).toBe("permission_denied");
      // The host's own stored server still runs, and a patch that does not change what it runs is not judged.
      const stored = await manage(registry, { action: "test", server_id: "res" });
      expect(stored.isError, JSON.stringify(stored.content)).toBe(false);
      const timeout = await manage(registry, { action: "update", server_id: "res", patch: { timeoutMs: 15_000 } });
      expect(timeout.isError, JSON.stringify(timeout.content)).toBe(false);
    } finally {
      await registry.close();
    }
  }, 60_000);

  it("Bash allow: an inline stdio server runs (test lists its tools)", async () => {
    const registry = await buildBuiltinToolRegistry(options("allow", [], { approval: { policies: { Bash: "allow" } } }));
    try {
      const tested = await manage(registry, { action: "test", server: resourceStdio("fresh") });
      expect(tested.isError, JSON.stringify(tested.content)).toBe(false);
      expect(JSON.stringify(tested.content)).toContain("test=ok");
    } finally {
      await registry.close();
    }
  }, 60_000);

  it("a copy of a server:<id>-denied server under another id is refused as that server, Bash allowed or not", async () => {
    const registry = await buildBuiltinToolRegistry(
      options("copy", [resourceStdio("res")], { approval: { policies: { "server:res": "deny", Bash: "allow" } } }),
    );
    try {
      const copy = { ...resourceStdio("res"), id: "copy" };
      expect(registry.approvalDecision("McpManager", { action: "test", server: copy })).toBe("deny");
      for (const action of ["test", "tools", "diagnose"]) {
        const refused = await manage(registry, { action, server: copy });
        expect(refused.error?.code, action).toBe("permission_denied");
      }
      const created = await manage(registry, { action: "create", server: copy });
      expect(created.error?.code).toBe("permission_denied");
      expect(created.error?.message).toContain("MCP server res");
      // Another command is not that server.
      const other = await manage(registry, { action: "test", server: { ...copy, args: [...copy.args, "--other"] } });
      expect(other.isError, JSON.stringify(other.content)).toBe(false);
    } finally {
      await registry.close();
    }
  }, 60_000);

  it("Bash ask: refused while McpManager is not asked; with McpManager ask, onAsk sees the command line and its answer decides", async () => {
    const marker = path.join(work, "ask-marker");
    const notAsked = await buildBuiltinToolRegistry(options("ask-bash", [], { approval: { policies: { Bash: "ask" }, onAsk: () => true } }));
    try {
      const refused = await manage(notAsked, { action: "test", server: marking("inline", marker) });
      expect(refused.error?.code).toBe("permission_denied");
      expect(refused.error?.message).toContain("asks before shell commands run");
      expect(existsSync(marker)).toBe(false);
    } finally {
      await notAsked.close();
    }
    const asked: unknown[] = [];
    let answer = false;
    const registry = await buildBuiltinToolRegistry(
      options("ask-both", [], {
        approval: {
          policies: { Bash: "ask", McpManager: "ask" },
          onAsk: (request) => {
            asked.push(request.arguments.server);
            return answer;
          },
        },
      }),
    );
    try {
      const declined = await manage(registry, { action: "test", server: resourceStdio("fresh") });
      expect(declined.error?.code).toBe("permission_denied");
      answer = true;
      const approved = await manage(registry, { action: "test", server: resourceStdio("fresh") });
      expect(approved.isError, JSON.stringify(approved.content)).toBe(false);
      expect(asked).toHaveLength(2);
      expect(asked[0]).toMatchObject({ command: process.execPath, args: resourceStdio("fresh").args });
    } finally {
      await registry.close();
    }
  }, 60_000);
});
