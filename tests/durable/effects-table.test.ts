/**
 * What running each built-in tool's call again would do (its `effects`, as
 * the registry's ledger resolves them), pinned in one literal table: every
 * tool a full `buildBuiltinToolRegistry` registers must be in it, and every
 * action of a tool with an `action` argument, so a new tool or action has
 * to say. docs/durable/effects.md explains each row.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ToolDefinition } from "@agent-tools/core";
import type { ToolEffects } from "@agent-tools/core/durable";
import { resolveToolEffects } from "@agent-tools/core/internal";
import { ScriptedModelClient } from "@agent-tools/core/testing";
import { type BuiltinToolRegistry, buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ANNOTATED_SERVER = fileURLToPath(new URL("./__fixtures__/annotated-mcp-server.mjs", import.meta.url));

type EffectsRow = ToolEffects | Readonly<Record<string, ToolEffects>>;

/** The table. A tool with an `action` argument has one entry per action. */
const BUILTIN_EFFECTS: Readonly<Record<string, EffectsRow>> = {
  Read: "none",
  Image: "none",
  List: "none",
  Glob: "none",
  Grep: "none",
  Write: "idempotent",
  Edit: "idempotent",
  ApplyPatch: "idempotent",
  NotebookEdit: "idempotent",
  Delete: "unsafe",
  Bash: "unsafe",
  ProcessWait: "idempotent",
  ProcessStop: "idempotent",
  ManagedProcess: { start: "unsafe", status: "none", read_log: "none", wait: "none", stop: "idempotent" },
  TaskCreate: "unsafe",
  TaskUpdate: "idempotent",
  TaskList: "none",
  MemoryManager: { list: "none", read: "none", search: "none", write: "unsafe", update: "unsafe", delete: "unsafe", accept: "idempotent" },
  SkillsManager: {
    read: "none",
    list: "none",
    install: "unsafe",
    create: "unsafe",
    validate: "none",
    package: "unsafe",
    delete: "unsafe",
    registry_search: "none",
    registry_install: "unsafe",
  },
  CronTaskManager: { create: "unsafe", read: "none", update: "idempotent", delete: "unsafe", list_logs: "none" },
  SSHManager: {
    list_hosts: "none",
    list_sessions: "none",
    create_session: "unsafe",
    read_session: "unsafe",
    send_input: "unsafe",
    close_session: "idempotent",
    exec: "unsafe",
    sftp_list: "none",
    sftp_stat: "none",
    sftp_read_text: "none",
    sftp_write_text: "idempotent",
    sftp_mkdir: "idempotent",
    sftp_rename: "unsafe",
    sftp_delete: "unsafe",
  },
  McpManager: {
    list: "none",
    read: "none",
    create: "unsafe",
    update: "idempotent",
    delete: "unsafe",
    enable: "idempotent",
    disable: "idempotent",
    validate: "none",
    test: "unsafe",
    diagnose: "unsafe",
    restart: "unsafe",
    stop: "idempotent",
    tools: "unsafe",
    login: "unsafe",
    logout: "unsafe",
  },
  ToolSearch: "none",
  HttpGetTest: "none",
  AskUserQuestion: "idempotent",
  ExitPlanMode: "idempotent",
  Agent: "unsafe",
  SendMessage: "unsafe",
  // MCP tools: from the server's annotations only (tests/durable/__fixtures__/annotated-mcp-server.mjs).
  mcp_annotated_lookup: "idempotent",
  mcp_annotated_upsert: "idempotent",
  mcp_annotated_send_email: "unsafe",
  mcp_annotated_append_row: "unsafe",
  mcp_annotated_purge: "unsafe",
  mcp_annotated_plain: "unsafe",
};

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-effects-table-")));
const workdir = path.join(temporary, "work");
fs.mkdirSync(workdir);
let registry: BuiltinToolRegistry;

beforeAll(async () => {
  const server = { id: "annotated", enabled: true, transport: "stdio", command: process.execPath, args: [ANNOTATED_SERVER], timeoutMs: 20_000 };
  registry = await buildBuiltinToolRegistry({
    workdir,
    dataDir: path.join(temporary, "data"),
    // Edit and ApplyPatch both (by default a registry lists one of them).
    editSurface: "both",
    systemTools: ["HttpGetTest"],
    // A budget the servers' schemas exceed, so ToolSearch is registered too (the MCP tools stay callable).
    mcp: { getSettings: () => ({ servers: [server], selected: [] }) as never, toolSearch: { tokenBudget: 1 } },
    subagents: { model: new ScriptedModelClient({ respond: () => "done" }), conversationId: "effects" },
    interaction: { onAskUserQuestion: async () => ({ declined: true }), onExitPlanMode: async () => ({ approved: false }) },
    cron: {},
    skills: {},
    // Never connected: the host only has to be configured for SSHManager to be registered.
    ssh: {
      hosts: [{ id: "dev", host: "127.0.0.1", port: 1, username: "nobody", password: "unused", hostKey: "SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU" }],
    },
  });
}, 60_000);
afterAll(async () => {
  await registry?.close();
  fs.rmSync(temporary, { recursive: true, force: true });
});

/** The values of a tool's `action` argument as the model sees them; undefined without one. */
function actionsOf(tool: ToolDefinition): readonly string[] | undefined {
  const schema = registry.tools.find((listed) => listed.name === tool.name)?.inputSchema as
    | { properties?: { action?: { enum?: readonly string[] } } }
    | undefined;
  return schema?.properties?.action?.enum;
}

/** What the registry's ledger records as the effects of each of a tool's calls (per action when it has them). */
function effectsOf(tool: ToolDefinition): EffectsRow {
  const actions = actionsOf(tool);
  if (actions === undefined) return resolveToolEffects(tool, {});
  return Object.fromEntries(actions.map((action) => [action, resolveToolEffects(tool, { action })]));
}

describe("the effects of every built-in tool", () => {
  it("registers exactly the tools of the table (a new tool must declare its effects here)", () => {
    expect(Object.keys(registry.metadataByName).sort()).toEqual(Object.keys(BUILTIN_EFFECTS).sort());
  });

  it("resolves each tool's (and each action's) effects as the table says", () => {
    const actual = Object.fromEntries(Object.keys(BUILTIN_EFFECTS).map((name) => [name, effectsOf(registry.getTool(name) as ToolDefinition)]));
    expect(actual).toEqual(BUILTIN_EFFECTS);
  });

  it("reads MemoryManager as changing nothing in the cron scope, where it is read-only", async () => {
    const cron = await buildBuiltinToolRegistry({ workdir, dataDir: path.join(temporary, "cron-data"), runtimeScope: "cron" });
    try {
      const tool = cron.getTool("MemoryManager") as ToolDefinition;
      for (const action of ["list", "write", "update", "delete", "accept"]) expect(resolveToolEffects(tool, { action })).toBe("none");
    } finally {
      await cron.close();
    }
  });
});
