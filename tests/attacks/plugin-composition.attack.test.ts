/**
 * Attacks on the plugin composition's worktree children (issue 31), made as
 * the model driving a parent and its worktree child, and as a host building
 * registries, through `buildBuiltinToolRegistry` / `buildToolRegistry` and
 * `executeToolCall`, with real git worktrees, processes and SQLite:
 *
 * - A worktree child has none of the host's tools and bundles, system tools,
 *   skills (SkillsManager, `skill://`, the skills folder through a granted
 *   root), CronTaskManager, Agent/SendMessage, the parent's plan mode or
 *   checkpoint, the host's dialogs; MemoryManager and McpManager only read.
 *   Tried by exact name, case variants, ToolSearch and `allow` rules.
 * - The parent's approval rules apply in the child; a rule naming a host tool
 *   the child lacks does not break the child's build.
 * - The parent's sandbox confines the child's Bash: the data directory stays
 *   masked, and so does a skills root outside it.
 * - The host's `mcp.onReady` is not handed a child's MCP runtime.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type ModelRequest,
  type ToolBundle,
  type ToolPlugin,
  type ToolPluginHost,
  type ToolRegistry,
  type ToolResult,
  defineTool,
  toolResultText,
} from "../../packages/core/src/index.js";
import { ScriptedModelClient, type ScriptedModelResponse } from "../../packages/core/src/testing/index.js";
import { type BuiltinToolRegistryOptions, buildBuiltinToolRegistry, buildToolRegistry, builtinToolPlugins } from "../../packages/sdk/src/index.js";
import { createCommittedRepository } from "../../packages/sdk/src/__fixtures__/committed-repository.js";

const hasBubblewrap = fs.existsSync("/usr/bin/bwrap");
const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-plugin-attack-")));
// Outside /tmp (the sandbox's /tmp is private): the host and the sandbox both see it through the read-only root.
const hostVisible = fs.realpathSync(fs.mkdtempSync(path.join(os.homedir(), ".agent-tools-plugin-attack-")));
afterAll(() => {
  fs.rmSync(temporary, { recursive: true, force: true });
  fs.rmSync(hostVisible, { recursive: true, force: true });
});

let counter = 0;
const fresh = (name: string, base = temporary) => fs.mkdtempSync(path.join(base, `${name}-${(counter += 1)}-`));
const text = (result: ToolResult) => toolResultText(result, "");

/** Host tools whose every run is recorded: a child reaching one shows up here. */
function hostSurface() {
  const ran: string[] = [];
  const HostSecret = defineTool({
    name: "HostSecret",
    description: "Returns the host's secret.",
    inputSchema: z.object({}),
    metadata: { isReadOnly: true, kind: "custom" },
    execute: () => {
      ran.push("HostSecret");
      return { content: "host-secret-1234" };
    },
  });
  const BundleSecret = defineTool({
    name: "BundleSecret",
    description: "Returns the bundle's secret.",
    inputSchema: z.object({}),
    metadata: { isReadOnly: true, kind: "custom" },
    execute: () => {
      ran.push("BundleSecret");
      return { content: "bundle-secret-5678" };
    },
  });
  const bundle: ToolBundle = { id: "host-bundle", trusted: true, listTools: () => [BundleSecret] };
  const dialogs: string[] = [];
  return {
    ran,
    dialogs,
    options: {
      tools: [HostSecret],
      bundles: [bundle],
      systemTools: ["HttpGetTest"],
      interaction: {
        onAskUserQuestion: async () => {
          dialogs.push("ask");
          return { answers: {} } as never;
        },
        onExitPlanMode: async () => {
          dialogs.push("exit");
          return { approved: true } as never;
        },
      },
    } satisfies Partial<BuiltinToolRegistryOptions>,
  };
}

/** A plugin that keeps every host it is created on (the parent's first), inherited by children. */
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

/** A registry of every built-in plugin plus the spy; the child is built as a worktree agent's would be. */
async function parentAndChild(options: Omit<BuiltinToolRegistryOptions, "workdir"> & { workdir?: string }, childRoots = options.additionalRoots ?? []) {
  const workdir = options.workdir ?? createCommittedRepository(fresh("repo"), "repo", { "README.md": "# demo\n" });
  const full: BuiltinToolRegistryOptions = { dataDir: fresh("data"), ...options, workdir };
  const hosts: ToolPluginHost[] = [];
  const parent = await buildToolRegistry({ ...full, plugins: [...builtinToolPlugins(full), hostSpy(hosts)] });
  const childDir = fresh("child-worktree");
  fs.writeFileSync(path.join(childDir, "README.md"), "# demo\n");
  const child = await (hosts[0] as ToolPluginHost).createChildRegistry({ workdir: childDir, additionalRoots: childRoots });
  return { parent, child, childDir, workdir, dataDir: full.dataDir as string, hosts };
}

const call = (registry: ToolRegistry, name: string, args: Record<string, unknown> = {}) =>
  registry.executeToolCall({ id: `call_${(counter += 1)}`, name, arguments: args });

const HOST_ONLY = ["HostSecret", "BundleSecret", "HttpGetTest", "SkillsManager", "CronTaskManager", "Agent", "SendMessage"];

describe("a worktree child's registry holds none of the parent's host-only tools", () => {
  it("lists and runs none of them by exact name, case variants or ToolSearch, even with allow rules naming them", async () => {
    const surface = hostSurface();
    const model = new ScriptedModelClient({ respond: () => "done" });
    const { parent, child } = await parentAndChild({
      ...surface.options,
      skills: {},
      cron: {},
      subagents: { model, conversationId: "chat-1" },
      mcp: { getSettings: () => ({ servers: [], selected: [] }), applyOps: () => undefined },
      approval: { policies: { HostSecret: "allow", BundleSecret: "allow", SkillsManager: "allow", Agent: "allow", CronTaskManager: "allow" } },
      checkpoints: { id: "parent-turn-1" },
      conversationId: "chat-1",
    });
    try {
      const parentNames = parent.tools.map((tool) => tool.name);
      expect(parentNames).toEqual(expect.arrayContaining([...HOST_ONLY, "AskUserQuestion", "McpManager"]));
      const childNames = child.tools.map((tool) => tool.name);
      for (const name of [...HOST_ONLY, "AskUserQuestion", "ExitPlanMode"]) expect(childNames).not.toContain(name);
      expect(childNames).toEqual(expect.arrayContaining(["Read", "Write", "Bash", "MemoryManager", "McpManager"]));

      for (const name of [
        ...HOST_ONLY,
        ...HOST_ONLY.map((n) => n.toLowerCase()),
        ...HOST_ONLY.map((n) => n.toUpperCase()),
        "AskUserQuestion",
        "ExitPlanMode",
      ]) {
        const result = await call(
          child,
          name,
          name.toLowerCase() === "askuserquestion" ? { questions: [{ question: "Deploy?", options: ["yes", "no"] }] } : {},
        );
        expect(result.isError, name).toBe(true);
        expect(text(result)).not.toMatch(/secret-\d{4}/);
      }
      for (const query of ["select:HostSecret", "select:BundleSecret,SkillsManager,Agent", "HostSecret", "secret"]) {
        const found = await call(child, "ToolSearch", { query });
        expect(text(found)).not.toMatch(/HostSecret|BundleSecret|SkillsManager|"Agent"/);
      }
      expect(surface.ran).toEqual([]);
      expect(surface.dialogs).toEqual([]);

      // Memory: reads answer, writes are refused; MCP settings: read, never applied.
      const write = await call(child, "MemoryManager", {
        action: "write",
        slug: "child-note",
        scope: "global",
        type: "user",
        description: "x",
        body: "child wrote this",
      });
      expect(write.isError).toBe(true);
      expect((await call(child, "MemoryManager", { action: "list" })).isError).toBe(false);
      const create = await call(child, "McpManager", { action: "create", server: { id: "evil", command: "sh", args: ["-c", "id"] } });
      expect(create.isError).toBe(true);
      expect(text(await call(parent, "McpManager", { action: "list" }))).not.toContain("evil");

      // skill:// is no path in the child.
      await call(parent, "SkillsManager", { action: "list" });
      const skill = await call(child, "Read", { path: "skill://skill-creator/SKILL.md" });
      expect(skill.isError).toBe(true);

      // Neither plan mode nor the checkpoint reach the child.
      parent.setPlanMode(true);
      expect(child.planMode).toBe(false);
      const written = await call(child, "Write", { path: "child.txt", content: "from the child\n" });
      expect(written.isError).toBe(false);
    } finally {
      await child.close();
      await parent.close();
    }
  }, 120_000);

  // Was a hole: the child's path policy had no skill rules (the skills plugin was `child: "omit"`), so a skills root
  // inside a root the parent granted (and the child gets) was plain files there: Read and Grep showed a skill the
  // parent's policy hides (the parent refuses the same path). Now the child gets the skills guard.
  it("a skills folder inside a root the parent granted is not readable through the child's file tools", async () => {
    const shared = fresh("granted");
    const skillsRoot = path.join(shared, "skills");
    fs.mkdirSync(path.join(skillsRoot, "hidden"), { recursive: true });
    fs.writeFileSync(path.join(skillsRoot, "hidden", "SKILL.md"), "---\nname: hidden\ndescription: x\n---\nhidden-skill-body-9911\n");
    fs.mkdirSync(path.join(skillsRoot, "ok"), { recursive: true });
    fs.writeFileSync(path.join(skillsRoot, "ok", "SKILL.md"), "---\nname: ok\ndescription: y\n---\nok\n");
    const roots = [{ alias: "shared", path: shared, access: "read" as const }];
    const { parent, child } = await parentAndChild({ additionalRoots: roots, skills: { rootDir: skillsRoot, policy: { allowedSkillNames: ["ok"] } } });
    try {
      const viaParent = await call(parent, "Read", { path: "root://shared/skills/hidden/SKILL.md" });
      expect(viaParent.isError).toBe(true);
      for (const tool of ["Read", "Grep"] as const) {
        const args = tool === "Read" ? { path: "root://shared/skills/hidden/SKILL.md" } : { pattern: "hidden-skill-body", path: "root://shared" };
        const viaChild = await call(child, tool, args);
        expect(text(viaChild), tool).not.toContain("hidden-skill-body-9911");
      }
    } finally {
      await child.close();
      await parent.close();
    }
  }, 60_000);
});

describe("the parent's approval rules in the child", () => {
  it("a deny in the parent denies in the child, and a rule naming a host tool the child lacks builds", async () => {
    const surface = hostSurface();
    let asked = 0;
    const { parent, child, childDir } = await parentAndChild({
      ...surface.options,
      approval: {
        policies: { Write: "deny", HostSecret: "allow", BundleSecret: "deny", Bash: "ask" },
        onAsk: () => {
          asked += 1;
          return "deny";
        },
      },
    });
    try {
      const write = await call(child, "Write", { path: "denied.txt", content: "x" });
      expect(write.isError).toBe(true);
      expect(fs.existsSync(path.join(childDir, "denied.txt"))).toBe(false);
      const bash = await call(child, "Bash", { command: "echo ran > bash.txt" });
      expect(bash.isError).toBe(true);
      expect(asked).toBe(1);
      expect(fs.existsSync(path.join(childDir, "bash.txt"))).toBe(false);
    } finally {
      await child.close();
      await parent.close();
    }
  }, 60_000);

  it("through a real worktree agent: the child's denied Write changes nothing and the host tool is not offered", async () => {
    const surface = hostSurface();
    const offered: string[][] = [];
    const results: string[] = [];
    const model = new ScriptedModelClient({
      respond: (request: ModelRequest): ScriptedModelResponse | string => {
        if (!String(request.messages[0]?.content).includes("agent id")) return "parent";
        if (request.messages.some((message) => message.role === "assistant")) {
          results.push(...request.messages.filter((message) => message.role === "tool").map((message) => String(message.content)));
          return "done";
        }
        offered.push((request.tools ?? []).map((tool) => tool.name));
        return {
          toolCalls: [
            { name: "Write", arguments: { path: "README.md", content: "pwned\n" } },
            { name: "HostSecret", arguments: {} },
            { name: "hostsecret", arguments: {} },
            { name: "SkillsManager", arguments: { action: "list" } },
            { name: "AskUserQuestion", arguments: { questions: [{ question: "Deploy?", options: ["yes", "no"] }] } },
          ],
        };
      },
    });
    const workdir = createCommittedRepository(fresh("repo"), "repo", { "README.md": "# demo\n" });
    const registry = await buildBuiltinToolRegistry({
      ...surface.options,
      workdir,
      dataDir: fresh("data"),
      skills: {},
      subagents: { model, conversationId: "wt-chat" },
      approval: { policies: { Write: "deny", Edit: "deny", HostSecret: "allow" } },
    });
    try {
      const result = await call(registry, "Agent", { agents: [{ id: "writer", prompt: "Change README.", mode: "worktree", apply_policy: "auto" }] });
      expect(text(result)).not.toMatch(/secret-\d{4}/);
      expect(offered[0]).toBeDefined();
      for (const name of ["HostSecret", "SkillsManager", "AskUserQuestion", "Agent"]) expect(offered[0]).not.toContain(name);
      expect(results.join("\n")).not.toMatch(/secret-\d{4}/);
      expect(surface.ran).toEqual([]);
      expect(surface.dialogs).toEqual([]);
      expect(fs.readFileSync(path.join(workdir, "README.md"), "utf8")).toBe("# demo\n");
    } finally {
      await registry.close();
    }
  }, 120_000);
});

describe.skipIf(!hasBubblewrap)("the parent's sandbox in the child", () => {
  it("masks the data directory from the child's Bash and writes nothing outside the worktree", async () => {
    const dataDir = fresh("data", hostVisible);
    fs.writeFileSync(path.join(dataDir, "data-secret.txt"), "data-secret-4455\n");
    const skillsRoot = fresh("skills", hostVisible);
    fs.mkdirSync(path.join(skillsRoot, "hidden"));
    fs.writeFileSync(path.join(skillsRoot, "hidden", "SKILL.md"), "---\nname: hidden\ndescription: x\n---\nhidden-skill-body-7788\n");
    const outside = fresh("outside", hostVisible);
    const { parent, child } = await parentAndChild({
      dataDir,
      sandbox: { enabled: true },
      skills: { rootDir: skillsRoot, policy: { allowedSkillNames: [] } },
    });
    try {
      // The parent hides both.
      const parentRead = await call(parent, "Bash", { command: `cat ${dataDir}/data-secret.txt ${skillsRoot}/hidden/SKILL.md; true` });
      expect(text(parentRead)).not.toMatch(/data-secret-4455|hidden-skill-body-7788/);
      const childRead = await call(child, "Bash", { command: `cat ${dataDir}/data-secret.txt; ls -la ${dataDir}; true` });
      expect(text(childRead)).toContain("sandbox: bubblewrap");
      expect(text(childRead)).not.toContain("data-secret-4455");
      const childWrite = await call(child, "Bash", { command: `echo pwned > ${outside}/x.txt; echo pwned > ${dataDir}/y.txt; true` });
      expect(text(childWrite)).toContain("sandbox: bubblewrap");
      expect(fs.existsSync(path.join(outside, "x.txt"))).toBe(false);
      expect(fs.existsSync(path.join(dataDir, "y.txt"))).toBe(false);
    } finally {
      await child.close();
      await parent.close();
    }
  }, 60_000);

  // Was a hole: the skills plugin was `child: "omit"`, so a worktree child got none of its sandbox mounts; with
  // `skills.rootDir` outside the dataDir (which is masked) the child's confined Bash read every skill, also those
  // the parent's policy hides. Now the child gets the skills guard (no tools, no skill enabled, root masked).
  // The path is decoded in the shell so that the command-line guard cannot see it: the sandbox alone must hide it.
  it("masks a skills root outside the data directory from the child's Bash as the parent's sandbox does", async () => {
    const skillsRoot = fresh("skills", hostVisible);
    fs.mkdirSync(path.join(skillsRoot, "hidden"));
    fs.writeFileSync(path.join(skillsRoot, "hidden", "SKILL.md"), "---\nname: hidden\ndescription: x\n---\nhidden-skill-body-7788\n");
    const { parent, child } = await parentAndChild({
      dataDir: fresh("data", hostVisible),
      sandbox: { enabled: true },
      skills: { rootDir: skillsRoot, policy: { allowedSkillNames: [] } },
    });
    try {
      const hiddenPath = Buffer.from(`${skillsRoot}/hidden/SKILL.md`).toString("base64");
      const command = `cat "$(echo ${hiddenPath} | base64 -d)"; true`;
      const parentRead = await call(parent, "Bash", { command });
      expect(text(parentRead)).toContain("sandbox: bubblewrap");
      expect(text(parentRead)).not.toContain("hidden-skill-body-7788");
      const childRead = await call(child, "Bash", { command });
      expect(text(childRead)).toContain("sandbox: bubblewrap");
      expect(text(childRead)).not.toContain("hidden-skill-body-7788");
    } finally {
      await child.close();
      await parent.close();
    }
  }, 60_000);
});

describe("the host's MCP handle", () => {
  // Was a hole: mcpTools' readonlyChild kept `onReady`, so building a worktree child handed the host the child's MCP
  // runtime (closed when the child ends) in place of the parent's. Now the child variant drops onReady.
  it("mcp.onReady is told of the parent's MCP runtime only, not of a worktree child's", async () => {
    const ready: unknown[] = [];
    const { parent, child } = await parentAndChild({ mcp: { getSettings: () => ({ servers: [], selected: [] }), onReady: (mcp) => ready.push(mcp) } });
    try {
      expect(ready).toHaveLength(1);
    } finally {
      await child.close();
      await parent.close();
    }
  }, 60_000);
});
