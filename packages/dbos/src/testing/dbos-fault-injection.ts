/**
 * Fault injection for the DBOS tool host: a scripted list of mixed calls,
 * a loop that SIGKILLs the host at random points and starts it again until
 * its workflow finishes, and the count of what must never happen
 * (an unsafe effect twice, a completed result lost).
 */
import { SdkError, type ToolCall, type ToolResult } from "@agent-tools/core";
import type { CallLedger, CallLedgerEntry } from "@agent-tools/core/durable";
import { type DbosToolHostEffects, readDbosToolHostEffects, runDbosToolHostToEnd, startDbosToolHost } from "./dbos-host-harness.js";
import type { DbosToolHostConfig, DbosToolHostResult } from "./dbos-tool-host.js";

/**
 * `count` calls cycling AppendLine (unsafe), SetValue (idempotent) and
 * ReadValue (read-only) over four keys; call ids `a<i>`, `s<i>`, `r<i>`.
 */
export function mixedDbosToolCalls(count: number): ToolCall[] {
  const calls: ToolCall[] = [];
  for (let index = 0; index < count; index += 1) {
    const key = `k${index % 4}`;
    if (index % 3 === 0) calls.push({ id: `a${index}`, name: "AppendLine", arguments: { text: `line ${index}` } });
    else if (index % 3 === 1) calls.push({ id: `s${index}`, name: "SetValue", arguments: { key, value: `value ${index}` } });
    else calls.push({ id: `r${index}`, name: "ReadValue", arguments: { key } });
  }
  return calls;
}

/** A small seeded generator (mulberry32), so a run can be repeated from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Options of {@link runDbosToolHostUnderKills}. */
export interface DbosKillOptions {
  /** SIGKILLs to deliver at most (fewer when the workflow finishes first). */
  readonly kills: number;
  /** Seed of the kill points. */
  readonly seed: number;
  /** A kill comes after 1 to this many tool runs of the host process (default 3), plus 0-40 ms. */
  readonly maxRunsBeforeKill?: number;
  /** The host script (see `DbosToolHostStartOptions.hostScript`). */
  readonly hostScript: string;
  /** The child's working directory (see `DbosToolHostStartOptions.cwd`). */
  readonly cwd?: string;
  /** The host's ledger (the same database the host script opens), read at the end. */
  readonly ledger: CallLedger;
}

/** What {@link runDbosToolHostUnderKills} observed. */
export interface DbosKillRun {
  /** Kills delivered while the host was running. */
  readonly kills: number;
  /** The results of the workflow's final run. */
  readonly results: DbosToolHostResult[];
  readonly effects: DbosToolHostEffects;
  /** The ledger's entries of the run, after the end. */
  readonly entries: CallLedgerEntry[];
}

/**
 * Starts the host on `config`, kills it after a random number of tool runs,
 * starts it again, `options.kills` times at most, then lets it finish.
 */
export async function runDbosToolHostUnderKills(config: DbosToolHostConfig, options: DbosKillOptions): Promise<DbosKillRun> {
  const random = seededRandom(options.seed);
  const maxRuns = options.maxRunsBeforeKill ?? 3;
  let kills = 0;
  while (kills < options.kills) {
    const runsBeforeKill = 1 + Math.floor(random() * maxRuns);
    const delay = Math.floor(random() * 40);
    let runs = 0;
    let reached: () => void = () => {};
    const enough = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const host = startDbosToolHost(config, {
      hostScript: options.hostScript,
      cwd: options.cwd,
      onLine: (line) => {
        if (line.startsWith("run ") && ++runs >= runsBeforeKill) reached();
      },
    });
    const finished = await Promise.race([enough.then(() => false), host.exited.then(() => true)]);
    if (finished) {
      if ((await host.exited) !== 0) throw new SdkError("unsupported", `The DBOS tool host exited with an error: ${host.errors()}`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    const stillRunning = host.child.exitCode === null;
    await host.kill();
    if (stillRunning) kills += 1;
  }
  const results = await runDbosToolHostToEnd(config, { hostScript: options.hostScript, cwd: options.cwd });
  return { kills, results, effects: readDbosToolHostEffects(config.workdir), entries: await options.ledger.list(config.workflowId) };
}

/** What must stay 0, and what is counted. */
export interface DbosKillAnomalies {
  /** Unsafe effects beyond the first (an AppendLine line written twice for one call). */
  readonly duplicates: number;
  /** Calls recorded completed in the ledger whose result the workflow did not return identical, or calls without a result. */
  readonly lostCompleted: number;
  /** Calls the workflow got back as `outcome_unknown`. */
  readonly outcomeUnknown: number;
  /** Unsafe calls not reported `outcome_unknown` whose effect is missing. */
  readonly missingEffects: number;
}

function sameResult(left: ToolResult | undefined, right: ToolResult | undefined): boolean {
  return left !== undefined && right !== undefined && JSON.stringify(left) === JSON.stringify(right);
}

/** Counts the anomalies of a run of {@link mixedDbosToolCalls}-style calls. */
export function countDbosKillAnomalies(calls: readonly ToolCall[], run: DbosKillRun): DbosKillAnomalies {
  const results = new Map(run.results.map((entry) => [entry.callId, entry.result]));
  const entries = new Map(run.entries.map((entry) => [entry.callId, entry]));
  let duplicates = 0;
  let lostCompleted = 0;
  let outcomeUnknown = 0;
  let missingEffects = 0;
  for (const call of calls) {
    const result = results.get(call.id);
    const entry = entries.get(call.id);
    if (result === undefined) lostCompleted += 1;
    else if (entry?.state === "completed" && !sameResult(entry.result, result)) lostCompleted += 1;
    const unknown = result?.error?.code === "outcome_unknown";
    if (unknown) outcomeUnknown += 1;
    if (call.name === "AppendLine") {
      const appended = run.effects.appended.get(call.id) ?? 0;
      duplicates += Math.max(0, appended - 1);
      if (!unknown && appended === 0) missingEffects += 1;
    }
  }
  return { duplicates, lostCompleted, outcomeUnknown, missingEffects };
}
