import { randomUUID } from "node:crypto";
/**
 * The CLI as a function: parse flags, pick the model (configured or demo),
 * build the registry, run the agent loop with the live display or the JSON
 * stream, and return the exit code.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SdkError } from "@agent-tools/core";
import type { ModelClient, ToolRegistry } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import type { AgentEvent, SessionEndEvent } from "./agent/agent-events.js";
import { defaultSystemPrompt, runAgentLoop } from "./agent/run-agent-loop.js";
import { createApprovalOptions } from "./approval/approval-prompt.js";
import { type CliOptions, USAGE, UsageError, parseCliOptions, usesConfiguredModel } from "./cli-options.js";
import { createDemoModelClient } from "./demo/demo-model.js";
import { DEMO_PROMPT, DemoScript } from "./demo/demo-script.js";
import { type DemoProject, type SampleTestRun, prepareDemoProject, runSampleTests } from "./demo/sample-project.js";
import { createJsonEventWriter } from "./display/json-display.js";
import { createTerminalElicitation } from "./elicitation/terminal-elicitation.js";
import { createTerminalOAuthAuthorization } from "./mcp-oauth/redirect-listener.js";
import { readMcpSettingsFile } from "./mcp-settings-file.js";
import { type CliPolicySettings, ignoredKeysNotice, readSettingsFile } from "./policy/settings-file.js";
import { TerminalDisplay } from "./display/terminal-display.js";
import { createConfiguredModelClient } from "./model-selection.js";

/** The process surroundings of a CLI run; tests pass their own. */
export interface CliEnvironment {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream;
  /** Aborts the session (Ctrl-C). */
  signal?: AbortSignal;
}

/** Exit codes of the CLI. */
export const EXIT_CODES = { ok: 0, failed: 1, usage: 2, maxTurns: 3, aborted: 130 } as const;

/**
 * Runs the CLI and resolves with its exit code. Never calls `process.exit`.
 *
 * @example
 * const code = await runCli({ argv: ["--demo", "--yes"], env: process.env, cwd: process.cwd(), stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
 */
export async function runCli(environment: CliEnvironment): Promise<number> {
  let options: CliOptions;
  try {
    options = parseCliOptions(environment.argv, environment.env, environment.cwd);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    environment.stderr.write(`agent-tools-cli: ${error.message}\n\n${USAGE}`);
    return EXIT_CODES.usage;
  }
  if (options.help) {
    environment.stdout.write(USAGE);
    return EXIT_CODES.ok;
  }
  // --settings: permission rules and hooks, read before anything runs; a bad file is a usage error naming it.
  let policySettings: CliPolicySettings | undefined;
  if (options.settings !== undefined) {
    try {
      policySettings = readSettingsFile(options.settings);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      environment.stderr.write(`agent-tools-cli: ${error.message}\n`);
      return EXIT_CODES.usage;
    }
    const ignored = ignoredKeysNotice(options.settings, policySettings.ignoredKeys);
    if (ignored !== undefined) environment.stderr.write(`agent-tools-cli: ${ignored}\n`);
  }
  const demo = !usesConfiguredModel(options);
  // With no prompt, a configured model gets the demo's task on the sample project.
  const onSample = demo || options.prompt === "";
  if (onSample && options.runtimeScope !== "chat") {
    environment.stderr.write("agent-tools-cli: the demo needs --scope chat (it uses ProcessWait and the task tools).\n");
    return EXIT_CODES.usage;
  }

  const display = options.json ? undefined : new TerminalDisplay({ stream: environment.stdout });
  const onEvent: (event: AgentEvent) => void = display ? (event) => display.handle(event) : createJsonEventWriter(environment.stdout);
  const cleanups: Array<() => void | Promise<void>> = [];
  // The session's own signal: the caller's (Ctrl-C in main.ts) or a Ctrl-C at an approval question.
  const controller = new AbortController();
  const abort = () => controller.abort();
  if (environment.signal?.aborted) abort();
  environment.signal?.addEventListener("abort", abort, { once: true });
  cleanups.push(() => environment.signal?.removeEventListener("abort", abort));
  let registry: ToolRegistry | undefined;
  try {
    let workdir = options.workdir;
    let prompt = options.prompt;
    let script: DemoScript | undefined;
    let model: ModelClient;
    if (onSample) {
      const project: DemoProject = prepareDemoProject();
      workdir = project.workdir;
      prompt = DEMO_PROMPT;
      if (!options.keep) cleanups.push(() => project.remove());
      const who = demo
        ? "No model configured (set OPENAI_API_KEY or OPENAI_BASE_URL): running the offline scripted demo"
        : "No prompt given: running the demo task with your model";
      onEvent({ type: "notice", level: "info", message: `${who} on a temporary copy of the sample project in ${workdir}` });
      if (demo && (options.prompt !== "" || options.workdir !== path.resolve(environment.cwd))) {
        onEvent({
          type: "notice",
          level: "warning",
          message: "The scripted demo has its own task and project: your prompt and --workdir are used only with a configured model.",
        });
      }
    }
    if (demo) {
      script = new DemoScript();
      model = createDemoModelClient(script);
    } else {
      model = createConfiguredModelClient(options);
    }
    let dataDir = options.dataDir;
    if (dataDir === undefined && onSample) {
      const temporary = mkdtempSync(path.join(os.tmpdir(), "agent-tools-data-"));
      cleanups.push(() => rmSync(temporary, { recursive: true, force: true }));
      dataDir = temporary;
    }
    // `--yes` only where the user typed it; `--yes-if-scripted` (the demo script) only for the scripted model.
    const yes = options.yes || (demo && options.yesIfScripted);
    if (!demo && options.yesIfScripted && !options.yes) {
      onEvent({
        type: "notice",
        level: "info",
        message: "A real model is configured: tools that change files or run commands ask first (--yes approves them all).",
      });
    }
    const questionOptions = {
      input: environment.stdin,
      output: options.json ? environment.stderr : environment.stdout,
      onInterrupt: abort,
      pause: display ? () => display.pause() : undefined,
    };
    const approval = createApprovalOptions({ yes, onEvent, ...questionOptions });
    const mcpSettings = options.mcp === undefined ? undefined : readMcpSettingsFile(options.mcp);
    // The subagents' messages to the parent arrive after each turn's tool results (a failed read is re-delivered later).
    let parentBus: { delta(): Promise<string> } | undefined;
    // Skills under <dataDir>/skills: SkillsManager, skill:// paths, and the enabled skills listed in the system prompt.
    let skills: { renderPromptSection(): Promise<string> } | undefined;
    const conversationId = `cli-${randomUUID()}`;
    registry = await buildBuiltinToolRegistry({
      workdir,
      runtimeScope: options.runtimeScope,
      dataDir,
      additionalRoots: options.additionalRoots,
      approval,
      // --settings: the file's rules and hooks as they are; a mistake in them is an SdkError here (exit code 2).
      ...(policySettings?.permissions === undefined ? {} : { permissions: policySettings.permissions }),
      ...(policySettings?.hooks === undefined ? {} : { hooks: policySettings.hooks }),
      // This session's conversation: its task list (per workdir and conversation) and its subagents are kept under it.
      conversationId,
      // The edit surface follows the model: GPT-5 and Codex models edit with ApplyPatch, the others with Edit.
      modelId: model.id,
      // Agent and SendMessage: children run on the same model, persisted under this session.
      subagents: { model, conversationId, onReady: (bundle) => (parentBus = bundle.parentBus) },
      skills: { onReady: (bundle) => (skills = bundle) },
      // --mcp: the file's servers; a server's questions are asked at the terminal (declined without one);
      // an OAuth sign-in prints its URL and waits for the browser's redirect on 127.0.0.1.
      mcp:
        mcpSettings === undefined
          ? undefined
          : {
              getSettings: () => mcpSettings,
              onElicitation: createTerminalElicitation(questionOptions),
              oauth: { onAuthorization: createTerminalOAuthAuthorization({ output: questionOptions.output }) },
            },
    });
    const skillsSection = (await skills?.renderPromptSection().catch(() => "")) ?? "";
    const systemPrompt = skillsSection === "" ? defaultSystemPrompt(registry) : `${defaultSystemPrompt(registry)}\n\n${skillsSection}`;
    onEvent({
      type: "session-start",
      model: model.id,
      workdir: registry.workdir,
      runtimeScope: registry.runtimeScope,
      tools: registry.tools.map((tool) => tool.name),
      prompt,
    });
    // Notes about the session go before its summary line, which stays last.
    let sampleTests: SampleTestRun | undefined;
    const demoFailure = () => {
      const outcome = script?.outcome;
      return outcome && !(outcome.edited && outcome.testsPassed) ? (outcome.failure ?? "the fix or the test run is missing") : undefined;
    };
    const onLoopEvent = (event: AgentEvent) => {
      if (event.type === "session-end") {
        if (onSample && options.keep) onEvent({ type: "notice", level: "info", message: `The demo project was kept at ${workdir}` });
        const failure = event.status === "answered" ? demoFailure() : undefined;
        if (failure) onEvent({ type: "notice", level: "error", message: `The demo did not succeed: ${failure}` });
        if (onSample && !script && event.status === "answered") {
          // A real model did the demo task: check its work with the sample's own tests.
          sampleTests = runSampleTests(workdir);
          onEvent(
            sampleTests.passed
              ? { type: "notice", level: "info", message: `Checked: the sample's tests pass (${sampleTests.summary}).` }
              : { type: "notice", level: "error", message: `Checked: the sample's tests still fail (${sampleTests.summary}).` },
          );
        }
      }
      onEvent(event);
    };
    const { summary } = await runAgentLoop({
      model,
      registry,
      prompt,
      systemPrompt,
      maxTurns: options.maxTurns,
      signal: controller.signal,
      onEvent: onLoopEvent,
      explainCalls: options.explain,
      afterToolResults: async () => (parentBus === undefined ? "" : await parentBus.delta().catch(() => "")),
    });
    if (summary.status === "answered" && (demoFailure() || sampleTests?.passed === false)) return EXIT_CODES.failed;
    return exitCodeOf(summary);
  } catch (error) {
    if (error instanceof SdkError) {
      environment.stderr.write(`agent-tools-cli: ${error.message}\n`);
      return EXIT_CODES.usage;
    }
    environment.stderr.write(`agent-tools-cli: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_CODES.failed;
  } finally {
    await registry?.close();
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

/** Maps how a session ended to the process exit code. */
export function exitCodeOf(summary: SessionEndEvent): number {
  switch (summary.status) {
    case "answered":
      return EXIT_CODES.ok;
    case "max-turns":
      return EXIT_CODES.maxTurns;
    case "aborted":
      return EXIT_CODES.aborted;
    case "model-error":
      return EXIT_CODES.failed;
  }
}
