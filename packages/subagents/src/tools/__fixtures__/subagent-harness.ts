import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ModelClient, type ToolRegistry, type ToolResult, createToolRegistry } from "@agent-tools/core";
import { GitCliClient } from "@agent-tools/git";
import { ExecaProcessRunner } from "@agent-tools/node";
import { createFsToolBundle } from "@agent-tools/tools-fs";
import { createShellToolBundle } from "@agent-tools/tools-shell";
import { InMemorySubagentStore } from "../../ports/in-memory-subagent-store.js";
import type { SubagentStore } from "../../ports/subagent-store.js";
import { GitSubagentWorktrees } from "../../runtime/git-subagent-worktrees.js";
import { type SubagentToolBundle, type SubagentToolBundleOptions, createSubagentToolBundle } from "../subagent-tool-bundle.js";
import { runTestGit } from "@agent-tools/git/testing";

/** Runs git in `cwd` with a fixed identity and no global or system config. */
export const git = runTestGit;

/** A temp git repository with a few committed files; returns its real path. */
export function makeRepository(
  files: Record<string, string> = { "README.md": "# demo\n", "src/a.ts": "export const a = 1;\n", "src/b.ts": "export const b = 2;\n" },
): string {
  const parent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "subagents-tools-")));
  const root = path.join(parent, "repo");
  fs.mkdirSync(root);
  git(root, "init", "-q", "-b", "main");
  for (const [relative, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
  }
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "init");
  return root;
}

/** What a harness holds. */
export interface SubagentHarness {
  readonly registry: ToolRegistry;
  readonly bundle: SubagentToolBundle;
  readonly store: SubagentStore;
  readonly workdir: string;
  call(args: unknown, id?: string): Promise<ToolResult & { updates: unknown[] }>;
  close(): Promise<void>;
}

/** The parent registry over `workdir` with fs, shell and subagent tools (worktrees through the git CLI). */
export function openHarness(workdir: string, model: ModelClient, extra: Partial<SubagentToolBundleOptions> & { store?: SubagentStore } = {}): SubagentHarness {
  const processRunner = new ExecaProcessRunner();
  const gitClient = new GitCliClient();
  const store = extra.store ?? new InMemorySubagentStore();
  const dataDir = path.join(path.dirname(workdir), ".data");
  let registry: ToolRegistry;
  const worktreeRegistries: ToolRegistry[] = [];
  const bundle = createSubagentToolBundle({
    model,
    parentRegistry: () => registry,
    store,
    conversationId: "conversation-1",
    worktrees: new GitSubagentWorktrees({ git: gitClient }),
    async createWorktreeRegistry(options) {
      const child = createToolRegistry({
        workdir: options.workdir,
        dataDir,
        additionalRoots: options.additionalRoots,
        bundles: [createFsToolBundle(), createShellToolBundle()],
        ports: { processRunner, gitClient },
        loopBreaker: false,
      });
      worktreeRegistries.push(child);
      return child;
    },
    ...extra,
  });
  registry = createToolRegistry({
    workdir,
    dataDir,
    bundles: [createFsToolBundle(), createShellToolBundle(), bundle],
    ports: { processRunner, gitClient },
    loopBreaker: false,
  });
  let calls = 0;
  return {
    registry,
    bundle,
    store,
    workdir,
    async call(args, id = `agent_call_${++calls}`) {
      const updates: unknown[] = [];
      const result = await registry.executeToolCall(
        { id, name: "Agent", arguments: args },
        { onUpdate: (event) => updates.push((event as { update?: { data?: unknown } }).update?.data) },
      );
      return { ...result, updates };
    },
    async close() {
      await registry.close();
    },
  };
}

/** The agent id a child's request is for (from its system prompt). */
export function agentOf(request: { messages: readonly { role: string; content: string }[] }): string {
  const system = request.messages.find((message) => message.role === "system")?.content ?? "";
  return /\(agent id: ([^)]+)\)/.exec(system)?.[1] ?? "?";
}
