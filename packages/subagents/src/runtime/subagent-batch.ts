import { type PathPolicy, ToolError } from "@agent-tools/core";
import { renderAgentRejection } from "../domain/agent-rejection.js";
import { offeredTemplates } from "../domain/agent-templates.js";
import { validateAgentBatch } from "../domain/agent-batch-validation.js";
import type { SubagentBatchDetails, SubagentReportDetails } from "../domain/subagent-protocol.js";
import type { AgentPromptTemplate, ResolvedAgentEntry, SubagentIdentity, SubagentIssue } from "../domain/subagent-types.js";
import type { SubagentApplyRecorder } from "../ports/subagent-worktrees.js";
import type { SubagentEnvironment } from "./subagent-environment.js";
import { runSubagent } from "./subagent-run.js";

/** One Agent call as the tool hands it over. */
export interface AgentBatchRequest {
  /** The raw arguments (validated here, every issue at once). */
  readonly input: unknown;
  readonly parentToolCallId: string;
  readonly signal: AbortSignal;
  /** The parent's path policy: output paths must resolve inside the workspace for writing. */
  readonly paths: PathPolicy;
  readonly templates: readonly AgentPromptTemplate[];
  /** Plan mode: no worktree children. */
  readonly forceReadonly: boolean;
  /** Records the parent's files around each worktree apply (the call's file checkpoint). */
  readonly applyRecorder?: SubagentApplyRecorder;
  /** Each agent's progress (its card), index 1-based. */
  onAgentProgress?(index: number, total: number, concurrency: number, report: SubagentReportDetails): void;
}

/** What the Agent tool answers. */
export interface AgentBatchOutcome {
  readonly text: string;
  readonly details: SubagentBatchDetails;
  readonly isError: boolean;
}

/**
 * Runs one Agent call: validates it atomically (a rejected call starts
 * nothing and lists every issue, the roster and the templates), then runs
 * its agents on a pool of `concurrency` workers, each run holding one of
 * the registry's run slots and its agent's lock (runs of one agent never
 * overlap, across calls too), and reports every agent.
 */
export async function runAgentBatch(environment: SubagentEnvironment, request: AgentBatchRequest): Promise<AgentBatchOutcome> {
  const started = environment.now();
  const { conversation, scheduler } = environment;
  const { roster, storeIssue } = await readRoster(environment);
  const templates = offeredTemplates(request.templates);
  const validation = validateAgentBatch(request.input, { roster, templates, forceReadonly: request.forceReadonly, now: started });
  const issues: SubagentIssue[] = [
    ...(storeIssue === undefined ? [] : [storeIssue]),
    ...(validation.ok ? outputPathIssues(validation.entries, request.paths) : validation.issues),
  ];
  if (!validation.ok || issues.length > 0) {
    const rejection = renderAgentRejection({ issues, roster, templates, concurrency: validation.concurrency, rosterUnavailable: storeIssue !== undefined });
    return { text: rejection.text, details: rejection.details, isError: true };
  }
  const { entries, concurrency } = validation;
  const reports: SubagentReportDetails[] = new Array(entries.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < entries.length; index = next++) {
      const entry = entries[index]!;
      const key = `${conversation.conversationId}\u0000${entry.identity.id.toLowerCase()}`;
      const onProgress = (report: SubagentReportDetails) => request.onAgentProgress?.(index + 1, entries.length, concurrency, report);
      reports[index] = await scheduler.agents
        .run(
          key,
          () =>
            scheduler.runs.run(
              () =>
                runSubagent(environment, {
                  entry,
                  parentToolCallId: request.parentToolCallId,
                  signal: request.signal,
                  ...(request.applyRecorder === undefined ? {} : { applyRecorder: request.applyRecorder }),
                  onProgress,
                }),
              request.signal,
            ),
          request.signal,
        )
        .catch((error: unknown) => cancelledReport(entry, error));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, entries.length) }, worker));
  const modes = new Set(entries.map((entry) => entry.mode));
  const details: SubagentBatchDetails = {
    kind: "subagent_batch",
    status: "ok",
    agentCount: entries.length,
    concurrency,
    totalDurationMs: environment.now() - started,
    mode: modes.size > 1 ? "mixed" : (entries[0]?.mode ?? "readonly"),
    agents: reports,
  };
  return { text: renderBatchText(reports), details, isError: reports.some((report) => report.status !== "completed") };
}

/**
 * The roster, or an empty one and a `provision_failed` issue when the store
 * cannot be read (no agent could be provisioned: nothing starts). A
 * `ToolError` (the SDK's SQLite store explains what failed and how to fix
 * it) is quoted as is, any other error after a sentence naming the store.
 */
async function readRoster(environment: SubagentEnvironment): Promise<{ roster: readonly SubagentIdentity[]; storeIssue?: SubagentIssue }> {
  try {
    return { roster: await environment.conversation.roster() };
  } catch (error) {
    const message =
      error instanceof ToolError ? error.message : `The subagent store could not be read (${error instanceof Error ? error.message : String(error)}).`;
    return { roster: [], storeIssue: { code: "provision_failed", message } };
  }
}

/** `output_path_outside_workspace` for every output path that does not resolve inside the workspace for writing. */
function outputPathIssues(entries: readonly ResolvedAgentEntry[], paths: PathPolicy): SubagentIssue[] {
  const issues: SubagentIssue[] = [];
  for (const entry of entries) {
    for (const pattern of entry.allowedOutputPaths) {
      const literal = literalPrefix(pattern);
      let problem: string | undefined;
      try {
        const resolved = paths.resolve(literal === "" ? "." : literal, { intent: "write" });
        if (resolved.scope !== "workspace") problem = `resolves to ${resolved.scope} scope, not the workspace`;
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
      }
      if (problem !== undefined) {
        issues.push({
          code: "output_path_outside_workspace",
          agentId: entry.identity.id,
          message: `allowed_output_paths entry "${pattern}" must be a writable path inside the workspace (${problem}).`,
        });
      }
    }
  }
  return issues;
}

/** The part of a glob before its first wildcard segment (`src/**\/*.ts` -> `src`). */
function literalPrefix(pattern: string): string {
  const segments = pattern.split("/");
  const literal: string[] = [];
  for (const segment of segments) {
    if (/[*?[\]{}]/.test(segment)) break;
    literal.push(segment);
  }
  return literal.join("/");
}

function cancelledReport(entry: ResolvedAgentEntry, error: unknown): SubagentReportDetails {
  return {
    id: entry.identity.id,
    runId: "",
    name: entry.identity.name,
    role: entry.identity.role,
    prompt: entry.prompt,
    mode: entry.mode,
    applyPolicy: entry.applyPolicy,
    allowedOutputPaths: [...entry.allowedOutputPaths],
    status: "cancelled",
    summary: "(subagent returned an empty report)",
    durationMs: 0,
    rounds: 0,
    toolCalls: 0,
    error: error instanceof Error ? error.message : String(error),
    persistenceWarnings: [],
  };
}

/** The model-facing text of a batch: one section per agent. */
function renderBatchText(reports: readonly SubagentReportDetails[]): string {
  return reports
    .map((report) => {
      const lines = [`## ${report.name} (${report.id}): ${report.status}, ${report.rounds} rounds, ${report.toolCalls} tool calls`];
      if (report.error !== undefined) lines.push(`error: ${report.error}`);
      if (report.mode === "worktree") {
        const apply =
          report.applyStatus === undefined
            ? "not applied"
            : `apply ${report.applyStatus}${report.applyMethod ? ` (${report.applyMethod})` : ""}${report.skipReason ? ` (${report.skipReason})` : ""}`;
        lines.push(
          `worktree: ${apply}; changed ${report.changedPaths?.length ?? 0} paths; worktree ${report.worktreeCleanupStatus ?? "kept"}${report.worktreePath && report.worktreeCleanupStatus !== "removed" ? ` at ${report.worktreePath}` : ""}`,
        );
        if (report.applyError !== undefined) lines.push(`apply error: ${report.applyError}`);
        // Changes that could not even be read (e.g. too large): say why instead of a bare "not applied".
        if (report.applyStatus === undefined && report.cleanupReason !== undefined && report.worktreeCleanupStatus !== "removed") {
          lines.push(`kept because: ${report.cleanupReason}`);
        }
        if (report.conflictFiles?.length) lines.push(`conflicts: ${report.conflictFiles.join(", ")}`);
        if (report.candidateArtifacts?.length) lines.push(`not applied (candidates): ${report.candidateArtifacts.join(", ")}`);
      }
      for (const warning of report.persistenceWarnings ?? []) lines.push(`warning: ${warning}`);
      lines.push("", report.summary);
      return lines.join("\n");
    })
    .join("\n\n");
}
