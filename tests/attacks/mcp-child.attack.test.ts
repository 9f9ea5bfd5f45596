/**
 * Issue 39, a worktree child's registry (as an Agent in a worktree gets it):
 * the parent's `server:<id>` deny and ask hold for the child's resource
 * tools too (the denied server is not read, and not started by them), and
 * the child's McpManager cannot change the settings.
 */
import fs from "node:fs";
import path from "node:path";
import type { ToolPlugin, ToolPluginHost } from "@agent-tools/core";
import { afterAll, describe, expect, it } from "vitest";
import { type BuiltinToolRegistryOptions, buildToolRegistry, builtinToolPlugins } from "../../packages/sdk/src/index.js";
import { HOSTILE_SERVER, attackRoot, call, recordedPids, recordedRequests } from "./mcp-hostile-harness.js";

const root = attackRoot("attack-mcp-child-");
afterAll(() => root.cleanup());

/** A plugin that keeps every host it is created on (the parent's first). */
function hostSpy(hosts: ToolPluginHost[]): ToolPlugin {
  return {
    id: "spy",
    scopes: ["chat", "cron"],
    child: "inherit",
    create(host) {
      hosts.push(host);
      return [];
    },
  };
}

async function parentAndChild(label: string, decision: "deny" | "ask") {
  const base = path.join(root.dir, label);
  const workdir = path.join(base, "work");
  const records = path.join(base, "records");
  const childDir = path.join(base, "child");
  for (const dir of [workdir, records, childDir]) fs.mkdirSync(dir, { recursive: true });
  const server = {
    id: "hostile",
    enabled: true,
    transport: "stdio",
    command: process.execPath,
    args: [HOSTILE_SERVER, records, JSON.stringify({ resources: true, tools: [] })],
  };
  const options: BuiltinToolRegistryOptions = {
    workdir,
    dataDir: path.join(base, "data"),
    memory: false,
    approval: { policies: { "server:hostile": decision } },
    mcp: { getSettings: () => ({ servers: [server], selected: [] }) as never, toolSearch: false, applyOps: () => undefined },
  };
  const hosts: ToolPluginHost[] = [];
  const parent = await buildToolRegistry({ ...options, plugins: [...builtinToolPlugins(options), hostSpy(hosts)] });
  const child = await (hosts[0] as ToolPluginHost).createChildRegistry({ workdir: childDir });
  return { parent, child, records };
}

describe("attack: MCP resources through a worktree child", () => {
  for (const decision of ["deny", "ask"] as const) {
    it(`the parent's server:<id> ${decision} holds for the child's ReadMcpResource and ListMcpResources`, async () => {
      const { parent, child, records } = await parentAndChild(decision, decision);
      try {
        const startsBefore = recordedPids(records).length;
        const read = await call(child, "ReadMcpResource", { server: "hostile", uri: "secret://doc/0" });
        expect(read.text).not.toContain("secret of");
        const list = await call(child, "ListMcpResources", {});
        expect(list.text).not.toContain("secret://doc/0");
        // The child's settings are read-only.
        for (const action of ["enable", "disable", "delete"]) {
          const managed = await call(child, "McpManager", { action, server_id: "hostile" });
          expect(managed.isError, `${action}: ${managed.text}`).toBe(true);
        }
        expect(recordedRequests(records)).not.toContain("resources/read");
        expect(recordedPids(records).length).toBe(startsBefore);
      } finally {
        await child.close();
        await parent.close();
      }
    });
  }
});
