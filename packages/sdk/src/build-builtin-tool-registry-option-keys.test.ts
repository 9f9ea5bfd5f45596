import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SdkError } from "@agent-tools/core";
import { ScriptedModelClient, type ScriptedModelResponse } from "@agent-tools/core/testing";
import type { SubagentBatchDetails } from "@agent-tools/subagents";
import { afterAll, describe, expect, it } from "vitest";
import { createCommittedRepository } from "./__fixtures__/committed-repository.js";
import { type BuiltinToolRegistryOptions, buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import { startBuiltinCronScheduler } from "./start-builtin-cron-scheduler.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-option-keys-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const workdir = path.join(temporary, "project");
fs.mkdirSync(workdir, { recursive: true });
const dataDir = path.join(temporary, "data");

/** The SdkError a build with `options` rejects with (fails the test when it builds). */
async function rejection(options: Record<string, unknown>): Promise<SdkError> {
  const error = await buildBuiltinToolRegistry({ workdir, dataDir, ...options } as BuiltinToolRegistryOptions).then(
    async (registry) => {
      await registry.close();
      return undefined;
    },
    (thrown: unknown) => thrown,
  );
  expect(error, `${JSON.stringify(Object.keys(options))} built although a key is wrong`).toBeInstanceOf(SdkError);
  return error as SdkError;
}

const model = new ScriptedModelClient({ respond: () => "done" });

describe("buildBuiltinToolRegistry: unknown option keys throw", () => {
  it("names a misspelt top-level key with the closest known one", async () => {
    const error = await rejection({ workdri: "/x" });
    expect(error.code).toBe("invalid_options");
    expect(error.message).toMatch(/Unknown option workdri: did you mean workdir\?/);
    expect(error.details).toMatchObject({ option: "workdri", suggestion: "workdir" });
  });

  it("names a key in the wrong case (WorkDir) even without a workdir", async () => {
    const error = await buildBuiltinToolRegistry({ WorkDir: workdir } as unknown as BuiltinToolRegistryOptions).then(
      () => undefined,
      (thrown: unknown) => thrown as SdkError,
    );
    expect(error).toBeInstanceOf(SdkError);
    expect(error!.code).toBe("invalid_options");
    expect(error!.details).toMatchObject({ option: "WorkDir", suggestion: "workdir" });
  });

  it("names a misspelt key of a nested option object with its path and a suggestion", async () => {
    const cases: Array<[Record<string, unknown>, string, string | undefined]> = [
      [{ fs: { progresIntervalMs: 5 } }, "fs.progresIntervalMs", "fs.progressIntervalMs"],
      [{ fs: { RipgrepPath: false } }, "fs.RipgrepPath", "fs.ripgrepPath"],
      [{ shell: { bogus: 1 } }, "shell.bogus", undefined],
      [{ shell: { maxSesions: 3 } }, "shell.maxSesions", "shell.maxSessions"],
      [{ shell: { processLogRetention: { maxEntry: 3 } } }, "shell.processLogRetention.maxEntry", "shell.processLogRetention.maxEntries"],
      [{ memory: { bogus: 1 } }, "memory.bogus", undefined],
      [{ memory: { mdoe: "ro" } }, "memory.mdoe", "memory.mode"],
      [{ tasks: { Run: { conversationId: "c" } } }, "tasks.Run", "tasks.run"],
      [{ mcp: { getSettings: () => ({ servers: [], selected: [] }), loadFailureMod: "throw" } }, "mcp.loadFailureMod", "mcp.loadFailureMode"],
      [
        { mcp: { getSettings: () => ({ servers: [], selected: [] }), toolSearch: { tokenBuget: 10 } } },
        "mcp.toolSearch.tokenBuget",
        "mcp.toolSearch.tokenBudget",
      ],
      [
        { mcp: { getSettings: () => ({ servers: [], selected: [] }), oauth: { redirectURL: "http://127.0.0.1:1/cb" } } },
        "mcp.oauth.redirectURL",
        "mcp.oauth.redirectUrl",
      ],
      [{ subagents: { model, maxRound: 3 } }, "subagents.maxRound", "subagents.maxRounds"],
      [{ subagents: { model, limits: { run: 2 } } }, "subagents.limits.run", "subagents.limits.runs"],
      [{ skills: { rootdir: path.join(temporary, "skills") } }, "skills.rootdir", "skills.rootDir"],
      [{ skills: { policy: { allowSkilMutation: true } } }, "skills.policy.allowSkilMutation", "skills.policy.allowSkillMutation"],
      [{ cron: { timezone: "UTC" } }, "cron.timezone", "cron.timeZone"],
      [{ interaction: { onAskUserQuestions: async () => ({ answers: {} }) } }, "interaction.onAskUserQuestions", "interaction.onAskUserQuestion"],
      [{ telemetry: { recordArgs: true } }, "telemetry.recordArgs", "telemetry.recordArguments"],
      [{ checkpoints: { id: "c:1", Id: "c:2" } }, "checkpoints.Id", "checkpoints.id"],
      [{ checkpoints: { storag: undefined } }, "checkpoints.storag", "checkpoints.storage"],
    ];
    for (const [options, option, suggestion] of cases) {
      const error = await rejection(options);
      expect(error.code, option).toBe("invalid_options");
      expect(error.message, option).toContain(`Unknown option ${option}`);
      expect(error.details, option).toEqual(suggestion === undefined ? { option } : { option, suggestion });
      if (suggestion !== undefined) expect(error.message, option).toContain(`did you mean ${suggestion}?`);
    }
  });

  it("refuses an option group that is not an object, and sandbox keys through the sandbox check (with a suggestion)", async () => {
    expect((await rejection({ fs: "fast" })).message).toMatch(/^fs must be an object/);
    expect((await rejection({ memory: true })).message).toMatch(/^memory must be false or an object/);
    expect((await rejection({ shell: [] })).message).toMatch(/^shell must be an object/);
    const urlElicitation = await rejection({ mcp: { getSettings: () => ({ servers: [], selected: [] }), onUrlElicitation: "https://example.com" } });
    expect(urlElicitation.message).toMatch(/^mcp\.onUrlElicitation must be a function/);
    expect(urlElicitation.details).toEqual({ option: "mcp.onUrlElicitation" });
    const sandbox = await rejection({ sandbox: { enabled: false, allowNetwrk: true } });
    expect(sandbox.message).toMatch(/Unknown sandbox option "allowNetwrk". Did you mean "allowNetwork"\?/);
    expect(sandbox.details).toMatchObject({ option: "sandbox.allowNetwrk", suggestion: "sandbox.allowNetwork" });
  });

  it("checks before anything is built: no onReady of skills or subagents runs when a key is wrong", async () => {
    const ready: string[] = [];
    await rejection({
      skills: { rootDir: path.join(temporary, "skills-never"), onReady: () => ready.push("skills") },
      subagents: { model, onReady: () => ready.push("subagents") },
      shell: { bogus: true },
    });
    expect(ready).toEqual([]);
    expect(fs.existsSync(path.join(temporary, "skills-never"))).toBe(false);
  });

  it("checks startBuiltinCronScheduler's registryOptions when it starts, naming them under registryOptions", async () => {
    const registryOptions = { memory: { mdoe: "ro" } } as unknown as BuiltinToolRegistryOptions;
    const error = await startBuiltinCronScheduler({ dataDir: path.join(temporary, "cron-data"), registryOptions }).then(
      async (scheduler) => {
        await scheduler.stop();
        return undefined;
      },
      (thrown: unknown) => thrown as SdkError,
    );
    expect(error).toBeInstanceOf(SdkError);
    expect(error!.message).toMatch(/Unknown option registryOptions\.memory\.mdoe: did you mean registryOptions\.memory\.mode\?/);
    expect(error!.details).toEqual({ option: "registryOptions.memory.mdoe", suggestion: "registryOptions.memory.mode" });
  });

  it("checks startBuiltinCronScheduler's own option keys", async () => {
    const options = { dataDir: path.join(temporary, "cron-own"), tickMS: 50 } as unknown as Parameters<typeof startBuiltinCronScheduler>[0];
    const error = await startBuiltinCronScheduler(options).then(
      async (scheduler) => {
        await scheduler.stop();
        return undefined;
      },
      (thrown: unknown) => thrown as SdkError,
    );
    expect(error).toBeInstanceOf(SdkError);
    expect(error!.details).toEqual({ option: "startBuiltinCronScheduler.tickMS", suggestion: "startBuiltinCronScheduler.tickMs" });
    expect(fs.existsSync(path.join(temporary, "cron-own"))).toBe(false);
  });

  it("accepts every known key (undefined values included) and builds worktree children from the copied options", async () => {
    const repository = createCommittedRepository(temporary, "repository", { "README.md": "# demo\n" });
    const worker = new ScriptedModelClient({
      respond: (request): ScriptedModelResponse | string =>
        request.messages.some((message) => message.role === "assistant") ? "done" : { toolCalls: [{ name: "Read", arguments: { path: "README.md" } }] },
    });
    const registry = await buildBuiltinToolRegistry({
      workdir: repository,
      runtimeScope: "chat",
      dataDir: path.join(temporary, "full-data"),
      additionalRoots: [],
      ports: undefined,
      approval: { policies: { Bash: "allow" }, defaultDecision: "allow" },
      onEvent: () => {},
      logger: undefined,
      telemetry: { recordArguments: false, tracer: undefined },
      maxOutputChars: 50_000,
      fs: { ripgrepPath: undefined, progressIntervalMs: 500, regexTimeBudgetMs: 5_000, inlineHashLimitBytes: 1024, state: undefined },
      shell: {
        providerId: "codex",
        maxSessions: 8,
        sessionRetentionMs: 60_000,
        env: { ANY_NAME: "1" },
        processLogRetention: { maxEntries: 10, maxAgeMs: 60_000 },
      },
      conversationId: "conversation-1",
      tasks: { run: { runId: "turn-1" }, logger: undefined },
      memory: { mode: "rw", timeZone: "UTC", entriesPerScope: 50 },
      mcp: { getSettings: () => ({ servers: [], selected: [] }), toolSearch: { tokenBudget: 5_000 }, clientInfo: { name: "test", version: "1.0.0" } },
      systemTools: [],
      tools: [],
      bundles: [],
      subagents: { model: worker, maxRounds: 4, limits: { runs: 2, bash: 1 }, sessionLabel: "s1" },
      skills: { rootDir: path.join(temporary, "full-skills"), policy: { allowSkillMutation: false } },
      cron: { timeZone: "UTC", http: { allowedPrivateNetworks: [] } },
      interaction: { planMode: false, onAskUserQuestion: undefined },
      concurrency: { defaultLimit: 2 },
      sandbox: { enabled: false },
      checkpoints: { id: "conversation-1:1", store: undefined },
    });
    try {
      const result = await registry.executeToolCall({
        id: "agents",
        name: "Agent",
        arguments: { agents: [{ id: "writer", prompt: "Read the README.", mode: "worktree", apply_policy: "auto" }] },
      });
      expect(result.isError, JSON.stringify(result.content)).toBe(false);
      expect((result.details as SubagentBatchDetails).agents[0]).toMatchObject({ id: "writer", status: "completed" });
    } finally {
      await registry.close();
    }
    // false stays accepted where the type allows it.
    const off = await buildBuiltinToolRegistry({
      workdir,
      dataDir,
      memory: false,
      concurrency: false,
      mcp: { getSettings: () => ({ servers: [], selected: [] }), toolSearch: false },
    });
    await off.close();
  });
});
