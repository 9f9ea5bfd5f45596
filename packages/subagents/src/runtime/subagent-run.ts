import type { ModelMessage, ToolRegistry } from "@agent-tools/core";
import { renderBusDelta, renderBusSnapshot, visibleTo } from "../domain/message-bus.js";
import { BUS_REFRESH_HEADER, buildContinuationMessage, buildSubagentSystemPrompt, buildTaskMessage } from "../domain/subagent-prompts.js";
import { type SubagentReportDetails, subagentRunId } from "../domain/subagent-protocol.js";
import { truncateSummary } from "../domain/subagent-summary.js";
import {
  PARENT_AGENT_ID,
  type ResolvedAgentEntry,
  SUBAGENT_LIMITS,
  type SubagentMessage,
  type SubagentRunRecord,
  type SubagentRunStatus,
} from "../domain/subagent-types.js";
import type { SubagentApplyRecorder, SubagentWorktree } from "../ports/subagent-worktrees.js";
import { createChildToolbox } from "./child-toolbox.js";
import type { SubagentEnvironment } from "./subagent-environment.js";
import { settleWorktree } from "./subagent-settle.js";
import { runSubagentToolLoop } from "./subagent-tool-loop.js";

/** One agent of an Agent call, ready to run. */
export interface SubagentRunRequest {
  readonly entry: ResolvedAgentEntry;
  /** The parent's Agent call id. */
  readonly parentToolCallId: string;
  readonly signal: AbortSignal;
  /** Records the parent's files around a worktree apply (the Agent call's file checkpoint). */
  readonly applyRecorder?: SubagentApplyRecorder;
  /** Progress of this agent (for its card): called when it starts, after each round and at the end. */
  onProgress?(report: SubagentReportDetails): void;
}

/**
 * Runs one subagent through its whole life: its identity stored (with this
 * run's mode), a worktree provisioned in worktree mode, the context started
 * fresh or resumed from the agent's latest run, the tool loop with the bus
 * refreshed at each turn boundary and the run persisted after every round,
 * the worktree settled (apply and cleanup), and the report. Never throws: a
 * failure is a `failed` (or, on abort, `cancelled`) report.
 */
export async function runSubagent(environment: SubagentEnvironment, request: SubagentRunRequest): Promise<SubagentReportDetails> {
  const { entry, signal } = request;
  const { conversation } = environment;
  const startedAt = environment.now();
  const runId = subagentRunId(request.parentToolCallId, entry.index + 1, entry.identity.id, environment.randomId());
  const persistenceWarnings: string[] = [];
  let report: SubagentReportDetails = {
    id: entry.identity.id,
    runId,
    name: entry.identity.name,
    role: entry.identity.role,
    prompt: entry.prompt,
    ...(entry.identity.templateId === undefined ? {} : { templateId: entry.identity.templateId }),
    mode: entry.mode,
    applyPolicy: entry.applyPolicy,
    allowedOutputPaths: [...entry.allowedOutputPaths],
    status: "running",
    summary: "",
    durationMs: 0,
    rounds: 0,
    toolCalls: 0,
    persistenceWarnings,
  };
  const progress = (patch: Partial<SubagentReportDetails>) => {
    report = { ...report, ...patch, durationMs: environment.now() - startedAt };
    request.onProgress?.(report);
  };
  const fail = (status: "failed" | "cancelled", error: string) => {
    progress({ status, error, summary: truncateSummary("") });
    return report;
  };
  progress({});

  // Provision: identity, then the worktree.
  try {
    await conversation.upsertIdentity({ ...entry.identity, lastMode: entry.mode, updatedAt: startedAt });
  } catch (error) {
    return fail("failed", `provision_failed: ${messageOf(error)}`);
  }
  let worktree: SubagentWorktree | undefined;
  if (entry.mode === "worktree") {
    if (environment.createWorktreeRegistry === undefined || environment.worktrees === undefined) {
      return fail("failed", "worktree_unavailable: Agent mode=worktree is not available in this runtime.");
    }
    try {
      const label = `${environment.sessionLabel}-${request.parentToolCallId}-${entry.index + 1}-${entry.identity.id}`;
      worktree = await environment.worktrees.create({ workdir: environment.parentWorkdir, label, signal });
      progress({ worktreePath: worktree.path, branch: worktree.branch });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return fail("failed", `${code === "worktree_unavailable" ? "worktree_unavailable" : "provision_failed"}: ${messageOf(error)}`);
    }
  }

  const lifecycle = { agent_id: entry.identity.id, agent_name: entry.identity.name, agent_role: entry.identity.role, run_id: runId, mode: entry.mode };
  await notifyPolicy(environment, "SubagentStart", { ...lifecycle, prompt: entry.prompt });
  let worktreeRegistry: ToolRegistry | undefined;
  const own = conversation.persistent ? environment.ownTools({ agentId: entry.identity.id, name: entry.identity.name, runId }) : undefined;
  let status: SubagentRunStatus = "running";
  let summary = "";
  let error: string | undefined;
  let record: SubagentRunRecord | undefined;
  try {
    if (worktree !== undefined) {
      worktreeRegistry = await environment.createWorktreeRegistry!({
        workdir: worktree.workdir,
        additionalRoots: environment.additionalRoots.map((root) => ({ ...root, access: "read" as const })),
      });
    }
    const toolbox = createChildToolbox({
      mode: entry.mode,
      base: worktreeRegistry ?? environment.parentRegistry(),
      ...(own === undefined ? {} : { own }),
      strictReadOnly: environment.strictReadOnly,
      bash: environment.scheduler.bash,
    });
    const names = await rosterNames(environment);
    const system: ModelMessage = {
      role: "system",
      content: buildSubagentSystemPrompt({
        identity: entry.identity,
        mode: entry.mode,
        applyPolicy: entry.applyPolicy,
        allowedOutputPaths: entry.allowedOutputPaths,
        parentWorkdir: environment.parentWorkdir,
        ...(entry.template === undefined ? {} : { template: entry.template }),
        ...(worktree === undefined ? {} : { worktree: { path: worktree.path, workdir: worktree.workdir, branch: worktree.branch } }),
      }),
    };
    // Context: resumed from the latest run, or fresh.
    const visible = async (afterSeq: number) => (await conversation.messagesAfter(afterSeq)).filter((message) => visibleTo(message, entry.identity.id));
    let cursor = 0;
    let snapshotDelivered = false;
    const snapshotOf = (messages: readonly SubagentMessage[]) => renderBusSnapshot({ messages, viewerId: entry.identity.id, names });
    const messages: ModelMessage[] = [system];
    const previous = entry.resume ? await conversation.latestRun(entry.identity.id) : undefined;
    const hydrated = previous === undefined ? undefined : await conversation.hydrate(previous.runId);
    if (hydrated !== undefined && hydrated.contextSchemaVersion === SUBAGENT_LIMITS.contextSchemaVersion && hydrated.messages.length > 0) {
      const earlier = (hydrated.messages as ModelMessage[]).filter((message) => message.role !== "system");
      const bus = await visible(0);
      const snapshot = snapshotOf(bus);
      cursor = snapshot.renderedSeq;
      snapshotDelivered = true;
      messages.push(...earlier, {
        role: "user",
        content: buildContinuationMessage({
          identity: entry.identity,
          previousRunId: hydrated.runId,
          previousMode: hydrated.mode,
          mode: entry.mode,
          prompt: entry.prompt,
          busSnapshot: snapshot.text,
        }),
      });
    } else messages.push({ role: "user", content: buildTaskMessage(entry.prompt) });

    let savedCount = 0;
    let rounds = 0;
    let toolCalls = 0;
    const save = async (patch: Partial<SubagentRunRecord>, force = false) => {
      if (!force && messages.length === savedCount) return; // nothing new since the last save
      record = {
        runId,
        agentId: entry.identity.id,
        status: "running",
        mode: entry.mode,
        prompt: entry.prompt,
        messages: structuredClone(messages),
        contextSchemaVersion: SUBAGENT_LIMITS.contextSchemaVersion,
        rounds,
        toolCalls,
        ...(worktree === undefined ? {} : { worktreePath: worktree.path }),
        startedAt,
        updatedAt: environment.now(),
        ...patch,
      };
      savedCount = messages.length;
      try {
        await conversation.saveRun(record);
      } catch (saveError) {
        persistenceWarnings.push(`Saving run ${runId} failed: ${messageOf(saveError)}`);
      }
    };
    await save({}, true);
    const result = await runSubagentToolLoop({
      model: environment.model,
      toolbox,
      messages,
      signal,
      maxRounds: environment.maxRounds,
      // The bus at each turn boundary: the first delivery is a snapshot (its omitted messages come later by delta),
      // later ones a delta of what arrived since; nothing when no one else wrote.
      beforeTurn: async () => {
        if (!conversation.persistent) return [];
        const fresh = await visible(cursor);
        if (!fresh.some((message) => message.senderId.toLowerCase() !== entry.identity.id.toLowerCase())) return [];
        if (cursor === 0 && !snapshotDelivered) {
          snapshotDelivered = true;
          const snapshot = snapshotOf(fresh);
          cursor = snapshot.renderedSeq;
          return [{ role: "user", content: `${BUS_REFRESH_HEADER}\n\n${snapshot.text}` }];
        }
        const delta = renderBusDelta({ messages: fresh, viewerId: entry.identity.id, sinceSeq: cursor, names });
        cursor = Math.max(cursor, ...fresh.map((message) => message.seq));
        return delta === "" ? [] : [{ role: "user", content: delta }];
      },
      afterRound: async (loopProgress) => {
        rounds = loopProgress.rounds;
        toolCalls = loopProgress.toolCalls;
        await save({});
        progress({ rounds, toolCalls });
      },
    });
    rounds = result.rounds;
    toolCalls = result.toolCalls;
    status = "completed";
    summary = truncateSummary(result.finalText);
    await save({ status, summary, rounds, toolCalls, endedAt: environment.now() }, true);
  } catch (loopError) {
    status = signal.aborted ? "cancelled" : "failed";
    error = signal.aborted ? "Cancelled" : messageOf(loopError);
    summary = truncateSummary("");
    // The context saved after the last completed round stays the one to resume from.
    const last = record;
    const ended = { status, error, summary, endedAt: environment.now(), updatedAt: environment.now() };
    try {
      await conversation.saveRun(last === undefined ? minimalRecord(entry, runId, startedAt, ended) : { ...last, ...ended });
    } catch (saveError) {
      persistenceWarnings.push(`Saving run ${runId} failed: ${messageOf(saveError)}`);
    }
  } finally {
    await worktreeRegistry?.close().catch(() => undefined);
    await own?.close().catch(() => undefined);
  }
  progress({ status, summary, ...(error === undefined ? {} : { error }) });
  await notifyPolicy(environment, "SubagentStop", { ...lifecycle, status, summary, ...(error === undefined ? {} : { error }) });
  if (worktree !== undefined && environment.worktrees !== undefined) {
    progress(
      await settleWorktree({
        worktrees: environment.worktrees,
        worktree,
        entry,
        status,
        scheduler: environment.scheduler,
        parentWorkdir: environment.parentWorkdir,
        ...(request.applyRecorder === undefined ? {} : { applyRecorder: request.applyRecorder }),
      }),
    );
  }
  return report;
}

/**
 * Runs the parent registry's SubagentStart / SubagentStop hooks (its
 * permission policy's, when it has one). They observe; a failing hook is
 * logged by the policy and never fails the run.
 */
async function notifyPolicy(environment: SubagentEnvironment, event: "SubagentStart" | "SubagentStop", payload: Record<string, unknown>): Promise<void> {
  try {
    const policy = (environment.parentRegistry() as Partial<ToolRegistry>).policy;
    if (policy?.installed === true) await policy.notify(event, payload);
  } catch {
    // Observing hooks never decide a run.
  }
}

/** Display names of the roster for bus rendering (`parent` is "Parent Agent"). */
async function rosterNames(environment: SubagentEnvironment): Promise<ReadonlyMap<string, string>> {
  const names = new Map<string, string>([[PARENT_AGENT_ID, "Parent Agent"]]);
  for (const identity of await environment.conversation.roster()) names.set(identity.id, identity.name);
  return names;
}

function minimalRecord(entry: ResolvedAgentEntry, runId: string, startedAt: number, ended: Partial<SubagentRunRecord>): SubagentRunRecord {
  return {
    runId,
    agentId: entry.identity.id,
    status: "failed",
    mode: entry.mode,
    prompt: entry.prompt,
    messages: [],
    contextSchemaVersion: SUBAGENT_LIMITS.contextSchemaVersion,
    rounds: 0,
    toolCalls: 0,
    startedAt,
    updatedAt: startedAt,
    ...ended,
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
