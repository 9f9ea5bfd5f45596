/**
 * Attacks outside Bash parsing (issue 35): a command the rules deny, run
 * through the other tool that runs commands (ManagedProcess), and
 * bypassPermissions' protection of `.git` and the data directory escaped
 * through a shell tool's `cwd`. Real processes; a marker file proves a run.
 */
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ToolRegistry } from "@agent-tools/core";
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
