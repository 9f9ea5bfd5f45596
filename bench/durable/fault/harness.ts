/**
 * The fault-injection harness: runs episodes of the scripted loop in host
 * processes, SIGKILLs each host (and its tree) at drawn points and restarts
 * it with the same run id until one run finishes the loop, until `kills`
 * kills are done; then counts what each episode left (see
 * episode-analysis.ts).
 */
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { CallLedgerEntry } from "@agent-tools/core/durable";
import { type EpisodeEvidence, type FaultCounts, addCounts, analyzeEpisode, emptyCounts } from "./episode-analysis.js";
import { type FaultHostConfig, type LedgerBackend, episodePaths } from "./host-config.js";
import { type EngineDriver, type FaultEngine, createEngineDriver } from "./engine-driver.js";
import { type HostProcess, startHostProcess } from "./host-process.js";
import { type KillPlan, type RandomSource, createRandomSource, drawKillPlan } from "./kill-plan.js";
import { scriptedCalls } from "./scripted-calls.js";

/** Options of {@link runFaultInjection}. */
export interface FaultInjectionOptions {
  readonly backend: LedgerBackend;
  /** The engine the loop runs in (default none: the plain host). */
  readonly engine?: FaultEngine;
  /** DBOS's system database (PostgreSQL URL), for `engine: "dbos"`. */
  readonly systemDatabaseUrl?: string;
  /** SIGKILLs in total. */
  readonly kills: number;
  /** A fresh directory for the episodes and the SQLite data directory. */
  readonly directory: string;
  /** The PostgreSQL URL for `backend: "postgres"`. */
  readonly connectionString?: string;
  /** Groups of five calls in the script (default 6: 31 calls). */
  readonly groups?: number;
  /** At most this many kills per episode (default 6; each episode draws 1..max). */
  readonly maxKillsPerEpisode?: number;
  /** Seed of the kill points (default: from the clock; printed). */
  readonly seed?: number;
  /** Run id prefix (default `fault-<backend>`). */
  readonly runIdPrefix?: string;
  /** Progress lines. */
  readonly log?: (line: string) => void;
  /**
   * Kill points to use, in order, instead of drawn ones (one per kill; the
   * episode's kill count is then the list's length). For tests that need a
   * kill at a known place.
   */
  readonly killPlans?: readonly KillPlan[];
  /** Keep the episodes' directories (default: only those with findings). */
  readonly keepEpisodes?: boolean;
}

/** What a run of the harness measured. */
export interface FaultInjectionReport extends FaultCounts {
  readonly backend: LedgerBackend;
  readonly engine: FaultEngine;
  readonly seed: number;
  kills: number;
  episodes: number;
  /** Host processes started. */
  starts: number;
  /** Kills by where they were aimed. */
  readonly killsByKind: Record<KillPlan["kind"], number>;
  runtimeMs: number;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `work`, unless `failure` rejects first: then the host is killed and the error thrown. */
async function untilFailure<T>(work: Promise<T>, failure: Promise<never>, host: HostProcess): Promise<T> {
  try {
    return await Promise.race([work, failure]);
  } catch (error) {
    host.kill();
    await host.exited;
    throw error;
  }
}

/** Waits until the plan's moment, or until the host ends first (false). */
async function reachKillPoint(host: HostProcess, plan: KillPlan): Promise<boolean> {
  if (plan.kind === "startup") {
    await Promise.race([sleep(plan.delayMs), host.exited]);
  } else if (plan.kind === "anywhere") {
    if (!(await host.waitForLine("ready"))) return false;
    await Promise.race([sleep(plan.delayMs), host.exited]);
  } else if (plan.kind === "in-call") {
    if (!(await host.waitForLine(`start ${plan.callId}`))) return false;
    if (plan.delayMs > 0) await Promise.race([sleep(plan.delayMs), host.exited]);
  } else if (!(await host.waitForLine(`done ${plan.callId}`))) {
    return false;
  }
  return !host.finished();
}

interface EpisodeState {
  readonly startedAt: number;
  done: Set<string>;
  loopMs: number;
  /** The host running now, killed if the harness itself is stopped. */
  host?: HostProcess;
}

async function listEntries(options: FaultInjectionOptions, dataDir: string, runId: string): Promise<CallLedgerEntry[] | undefined> {
  if (options.backend === "none") return undefined;
  // Imported only when used: the control run needs no ledger package.
  const { openLedger } = await import("./open-ledger.js");
  const opened = await openLedger({ backend: options.backend, dataDir, connectionString: options.connectionString });
  try {
    return await opened.ledger.list(runId);
  } finally {
    await opened.close();
  }
}

/** Runs one episode: kills `killsWanted` times (fewer when the loop ends first), then lets it finish. */
async function runEpisode(
  options: FaultInjectionOptions,
  driver: EngineDriver,
  report: FaultInjectionReport,
  random: RandomSource,
  state: EpisodeState,
): Promise<void> {
  const startedAt = state.startedAt;
  const index = report.episodes + 1;
  const directory = path.join(options.directory, `episode-${index}`);
  const dataDir = path.join(options.directory, "data");
  const runId = `${options.runIdPrefix ?? `fault-${driver.engine}-${options.backend}`}-${report.seed}-${index}`;
  const script = scriptedCalls(options.groups ?? 6);
  const config: FaultHostConfig = {
    ...episodePaths(directory),
    dataDir,
    backend: options.backend,
    connectionString: options.connectionString,
    runId,
    groups: options.groups ?? 6,
  };
  const callIds = script.map(({ call }) => call.id);
  const fixed = options.killPlans;
  const killsWanted =
    fixed === undefined
      ? Math.min(options.kills - report.kills, 1 + Math.floor(random.next() * (options.maxKillsPerEpisode ?? 6)))
      : fixed.length - report.kills;
  state.done.clear();
  let killed = 0;
  for (;;) {
    const started = Date.now();
    let readyAt = started;
    const host = startHostProcess(driver.command(config), (line) => {
      if (line === "ready") readyAt = Date.now();
      if (line.startsWith("done ")) state.done.add(line.slice(5));
      if (line === "finished") state.loopMs = Math.max(200, Date.now() - readyAt);
    });
    report.starts += 1;
    state.host = host;
    // The engine's step once the host is up (Restate: the invocation); its failure is reported below.
    const readyStep = host.waitForLine("ready").then((ready) => (ready ? driver.onReady(config) : undefined));
    // Never settles when the step succeeds; rejects with its error.
    const readyFailure = readyStep.then(() => new Promise<never>(() => undefined));
    readyFailure.catch(() => undefined);
    if (killed < killsWanted) {
      const plan =
        fixed?.[report.kills] ??
        drawKillPlan(random, {
          callIds,
          done: Math.max(
            0,
            callIds.findIndex((id) => !state.done.has(id)),
          ),
          loopMs: state.loopMs,
        });
      const reached = await untilFailure(reachKillPoint(host, plan), readyFailure, host);
      options.log?.(
        `  start ${report.starts}: ${JSON.stringify(plan)} ${reached ? "killed" : "missed (the host ended first)"} after ${Date.now() - started} ms`,
      );
      if (reached) {
        host.kill();
        await host.exited;
        killed += 1;
        report.kills += 1;
        report.killsByKind[plan.kind] += 1;
        continue;
      }
    }
    await untilFailure(Promise.race([host.waitForLine("finished"), host.exited]), readyFailure, host);
    if (host.finished()) {
      await readyStep;
      await driver.afterFinished(host);
    }
    const exit = await host.exited;
    // The Restate endpoint stays up after the loop: afterFinished stopped it.
    if (!host.finished() || (driver.engine !== "restate" && exit.code !== 0)) {
      throw new Error(`host of ${runId} ended without finishing (code ${exit.code}, signal ${exit.signal}):\n${exit.stderrTail}`);
    }
    const evidence: EpisodeEvidence = {
      runId,
      script,
      workdir: config.workdir,
      resultsLog: config.resultsLog,
      counterFile: config.counterFile,
      finishingPid: host.pid,
      entries: await listEntries(options, dataDir, runId),
    };
    const counts = analyzeEpisode(evidence);
    addCounts(report, counts);
    report.episodes = index;
    options.log?.(
      `episode ${index}: ${killed} kills, ${counts.duplicates} duplicates, ${counts.lost} lost, ${counts.outcomeUnknown} outcome_unknown; ` +
        `so far ${report.kills} kills, ${report.duplicates} duplicates, ${report.lost} lost, ${report.outcomeUnknown} outcome_unknown, ${Math.round((Date.now() - startedAt) / 1000)} s`,
    );
    if (!options.keepEpisodes && counts.findings.length === 0) rmSync(directory, { recursive: true, force: true });
    return;
  }
}

/** Runs episodes until `options.kills` kills are done and every episode finished; answers the counts. */
export async function runFaultInjection(options: FaultInjectionOptions): Promise<FaultInjectionReport> {
  if (options.backend === "postgres" && !options.connectionString) throw new Error("runFaultInjection: postgres needs connectionString");
  mkdirSync(options.directory, { recursive: true });
  const seed = options.seed ?? Date.now() % 2 ** 31;
  const random = createRandomSource(seed);
  const report: FaultInjectionReport = {
    ...emptyCounts(),
    backend: options.backend,
    engine: options.engine ?? "none",
    seed,
    kills: 0,
    episodes: 0,
    starts: 0,
    killsByKind: { startup: 0, "in-call": 0, "after-result": 0, anywhere: 0 },
    runtimeMs: 0,
  };
  const started = Date.now();
  const state: EpisodeState = { startedAt: started, done: new Set(), loopMs: 2000 };
  const driver = await createEngineDriver(options.engine ?? "none", options.systemDatabaseUrl);
  // A stopped harness (Ctrl-C, a timeout) must not leave its detached host behind.
  const onSignal = (signal: NodeJS.Signals) => {
    state.host?.kill();
    process.kill(process.pid, signal);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const killsTotal = options.killPlans?.length ?? options.kills;
    while (report.kills < killsTotal || report.episodes === 0) {
      await runEpisode(options, driver, report, random, state);
    }
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await driver.close();
  }
  report.runtimeMs = Date.now() - started;
  return report;
}
