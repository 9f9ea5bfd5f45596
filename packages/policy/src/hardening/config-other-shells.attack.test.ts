/**
 * Attacks outside Bash parsing (issue 35): a command the rules deny, run
 * through the other tool that runs commands (ManagedProcess), and
 * bypassPermissions' protection of `.git` and the data directory escaped
 * through a shell tool's `cwd`. Real processes; a marker file proves a run.
 */
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type ToolBundle, type ToolRegistry, defineTool } from "@agent-tools/core";
import { z } from "zod";
import { afterAll, describe, expect, it } from "vitest";
import { attackDirs, attackRegistry, textOf } from "./__fixtures__/attack-registry.js";

const dirs = attackDirs("policy-shells-attack-");
afterAll(() => dirs.cleanup());

async function using<T>(pending: Promise<ToolRegistry>, use: (registry: ToolRegistry) => Promise<T>): Promise<T> {
  const registry = await pending;
  try {
    return await use(registry);
  } finally {
    await registry.close();
  }
}

/** Lets a started process finish (a ManagedProcess start returns while it runs). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1_500));

describe("a Bash deny rule holds for every tool that runs commands", () => {
  it.each([
    ["approval allows the rest", { deny: ["Bash(rm *)"] }, { defaultDecision: "allow" as const }],
    ["bypassPermissions", { deny: ["Bash(rm *)"], defaultMode: "bypassPermissions" as const }, undefined],
    ["an ask rule", { ask: ["Bash(rm *)"] }, { defaultDecision: "allow" as const }],
  ])("ManagedProcess start 'rm -f keep' is not run (%s)", async (_, permissions, approval) => {
    const { workdir, dataDir } = dirs.make();
    writeFileSync(path.join(workdir, "keep"), "k");
    await using(attackRegistry({ workdir, dataDir, permissions, ...(approval ? { approval } : {}) }), async (registry) => {
      const result = await registry.executeToolCall({ id: "m", name: "ManagedProcess", arguments: { action: "start", command: "rm -f keep" } });
      await settle();
      expect(result.error?.code, textOf(result)).toBe("permission_denied");
      expect(existsSync(path.join(workdir, "keep"))).toBe(true);
    });
  });

  it("an allow-list of Bash commands does not let ManagedProcess run other commands (dontAsk)", async () => {
    const { workdir, dataDir } = dirs.make();
    await using(attackRegistry({ workdir, dataDir, permissions: { allow: ["Bash(echo *)"], defaultMode: "dontAsk" } }), async (registry) => {
      const result = await registry.executeToolCall({ id: "m", name: "ManagedProcess", arguments: { action: "start", command: "touch pwned" } });
      await settle();
      expect(result.error?.code, textOf(result)).toBe("permission_denied");
      expect(existsSync(path.join(workdir, "pwned"))).toBe(false);
    });
  });
});

/**
 * A stand-in of cron's CronTaskManager (its name, metadata and the fields the
 * rules read): the cron package sits above this one. It records what it was
 * asked to schedule; a scheduled bash script runs later without any call the
 * rules would see.
 */
function cronStandIn(scheduled: string[]): ToolBundle {
  const tool = defineTool({
    name: "CronTaskManager",
    description: "Schedules tasks (test stand-in).",
    inputSchema: z.object({
      action: z.enum(["create", "read", "update", "delete", "list_logs"]),
      task_id: z.string().optional(),
      name: z.string().optional(),
      cron: z.string().optional(),
      type: z.enum(["bash", "http", "prompt"]).optional(),
      script: z.string().optional(),
    }),
    metadata: { isReadOnly: false, groupId: "system", kind: "cron" },
    execute: (input: { script?: string }) => {
      scheduled.push(input.script ?? "");
      return { content: "scheduled" };
    },
  });
  return { id: "cron-stand-in", trusted: true, listTools: () => [tool] };
}

describe("a Bash deny rule holds for a scheduled bash script", () => {
  it.each([
    ["create", { action: "create", name: "x", cron: "0 * * * * *", type: "bash", script: "echo ok; rm -rf ~/work" }],
    ["update", { action: "update", task_id: "t1", script: "rm -rf ~/work" }],
    ["create (no type)", { action: "create", name: "x", cron: "0 * * * * *", script: "sudo rm -rf /" }],
  ])("CronTaskManager %s of a script the rules deny is refused (approval allows the tool)", async (_, args) => {
    const { workdir, dataDir } = dirs.make();
    const scheduled: string[] = [];
    await using(
      attackRegistry({
        workdir,
        dataDir,
        permissions: { deny: ["Bash(rm *)"] },
        approval: { policies: { CronTaskManager: "allow" } },
        extraBundles: [cronStandIn(scheduled)],
      }),
      async (registry) => {
        const result = await registry.executeToolCall({ id: "c", name: "CronTaskManager", arguments: args });
        expect(result.error?.code, textOf(result)).toBe("permission_denied");
        const fine = await registry.executeToolCall({ id: "d", name: "CronTaskManager", arguments: { ...args, script: "echo ok" } });
        expect(fine.isError, textOf(fine)).toBe(false);
      },
    );
    expect(scheduled).toEqual(["echo ok"]);
  });
});

describe("bypassPermissions still asks for changes in .git and the data directory", () => {
  it.each([
    ["Bash", { command: "touch pwned", cwd: ".git" }],
    ["Bash", { command: "touch pwned", cwd: ".git/hooks" }],
    ["Bash", { command: "touch pwned", cwd: "./.git/hooks" }],
    ["Bash", { command: "touch pwned", cwd: "gitlink" }],
    ["Bash", { command: "touch gitlink/pwned" }],
    ["ManagedProcess", { action: "start", command: "touch pwned", cwd: ".git" }],
    ["Bash", { command: "touch .gi?/pwned" }],
    ["Bash", { command: "touch .g[i]t/pwned" }],
    ["Bash", { command: "cd .gi* && touch pwned" }],
  ])("%s %j asks (refused without onAsk)", async (name, args) => {
    const { workdir, dataDir } = dirs.make();
    mkdirSync(path.join(workdir, ".git", "hooks"), { recursive: true });
    symlinkSync(path.join(workdir, ".git"), path.join(workdir, "gitlink"));
    await using(attackRegistry({ workdir, dataDir, permissions: { defaultMode: "bypassPermissions" } }), async (registry) => {
      const result = await registry.executeToolCall({ id: "b", name, arguments: args });
      if (name === "ManagedProcess") await settle();
      expect(result.error?.code, textOf(result)).toBe("permission_denied");
      for (const where of [".git", ".git/hooks", "."]) expect(existsSync(path.join(workdir, where, "pwned"))).toBe(false);
    });
  });

  it("Bash with its cwd in the data directory asks", async () => {
    const { workdir, dataDir } = dirs.make();
    mkdirSync(dataDir, { recursive: true });
    await using(attackRegistry({ workdir, dataDir, permissions: { defaultMode: "bypassPermissions" } }), async (registry) => {
      const result = await registry.executeToolCall({ id: "d", name: "Bash", arguments: { command: "touch pwned", cwd: dataDir } });
      expect(result.error?.code, textOf(result)).toBe("permission_denied");
      expect(existsSync(path.join(dataDir, "pwned"))).toBe(false);
    });
  });
});
