/**
 * Counts what one episode (one run id, killed and resumed until its loop
 * finished) left behind:
 * - duplicate side effects: lines of `effects.log` (Bash) or of the MCP
 *   counter file naming the same call more than once (each extra line counts);
 * - lost completed results: a call whose results, across the restarts,
 *   disagree (a result the host got before a kill is not the one it got after),
 *   a call the finishing run got no result for, or a completed / failed
 *   ledger entry whose recorded result is not the one the finishing run got;
 * - outcome_unknown results of the finishing run, and how many of those calls
 *   had in fact run (their line is there) or not;
 * - other error results of the finishing run (by code), successful unsafe
 *   calls with no side effect, ledger entries left without an outcome, and
 *   note files whose content is not the script's.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { CallLedgerEntry } from "@agent-tools/core/durable";
import { canonicalHash } from "./canonical-hash.js";
import type { ResultLine } from "./host-config.js";
import { EFFECTS_LOG, type ScriptedCall } from "./scripted-calls.js";

/** The counts of one episode (added up over a run of the harness). */
export interface FaultCounts {
  duplicates: number;
  lost: number;
  outcomeUnknown: number;
  unknownThatRan: number;
  unknownThatDidNotRun: number;
  missingEffects: number;
  unsettledEntries: number;
  wrongFiles: number;
  otherErrors: Record<string, number>;
  /** One line per finding, for the report. */
  findings: string[];
}

/** Zero counts. */
export function emptyCounts(): FaultCounts {
  return {
    duplicates: 0,
    lost: 0,
    outcomeUnknown: 0,
    unknownThatRan: 0,
    unknownThatDidNotRun: 0,
    missingEffects: 0,
    unsettledEntries: 0,
    wrongFiles: 0,
    otherErrors: {},
    findings: [],
  };
}

/** Adds `more` into `total`. */
export function addCounts(total: FaultCounts, more: FaultCounts): void {
  for (const key of [
    "duplicates",
    "lost",
    "outcomeUnknown",
    "unknownThatRan",
    "unknownThatDidNotRun",
    "missingEffects",
    "unsettledEntries",
    "wrongFiles",
  ] as const) {
    total[key] += more[key];
  }
  for (const [code, count] of Object.entries(more.otherErrors)) total.otherErrors[code] = (total.otherErrors[code] ?? 0) + count;
  total.findings.push(...more.findings);
}

/** What one episode left: its files, and its ledger entries (undefined for the control run). */
export interface EpisodeEvidence {
  readonly runId: string;
  readonly script: readonly ScriptedCall[];
  readonly workdir: string;
  readonly resultsLog: string;
  readonly counterFile: string;
  /** The pid of the host that printed `finished`. */
  readonly finishingPid: number;
  readonly entries?: readonly CallLedgerEntry[];
}

function lines(file: string): string[] {
  return existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line !== "")
    : [];
}

function tally(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

function checkResults(evidence: EpisodeEvidence, results: readonly ResultLine[], counts: FaultCounts): Map<string, ResultLine> {
  const final = new Map<string, ResultLine>();
  for (const line of results) if (line.pid === evidence.finishingPid) final.set(line.callId, line);
  for (const { call } of evidence.script) {
    const hashes = new Set(results.filter((line) => line.callId === call.id).map((line) => line.resultHash));
    if (hashes.size > 1) {
      counts.lost += 1;
      counts.findings.push(`${evidence.runId} ${call.id} (${call.name}): ${hashes.size} different results across restarts`);
    }
    if (!final.has(call.id)) {
      counts.lost += 1;
      counts.findings.push(`${evidence.runId} ${call.id} (${call.name}): no result in the finishing run`);
    }
  }
  return final;
}

function checkLedger(evidence: EpisodeEvidence, final: Map<string, ResultLine>, counts: FaultCounts): void {
  for (const entry of evidence.entries ?? []) {
    if (entry.state !== "completed" && entry.state !== "failed") {
      counts.unsettledEntries += 1;
      counts.findings.push(`${evidence.runId} ${entry.callId}: ledger entry left ${entry.state}`);
      continue;
    }
    const returned = final.get(entry.callId);
    if (returned === undefined || canonicalHash(entry.result) !== returned.resultHash) {
      counts.lost += 1;
      counts.findings.push(`${evidence.runId} ${entry.callId}: the ledger's ${entry.state} result is not the one the resumed loop got`);
    }
  }
}

function checkEffects(evidence: EpisodeEvidence, final: Map<string, ResultLine>, counts: FaultCounts): void {
  const appended = tally(lines(path.join(evidence.workdir, EFFECTS_LOG)));
  const counted = tally(lines(evidence.counterFile));
  for (const { call, effect } of evidence.script) {
    if (effect !== "bash-append" && effect !== "mcp-count") continue;
    const times = (effect === "bash-append" ? appended : counted).get(call.id) ?? 0;
    if (times > 1) {
      counts.duplicates += times - 1;
      counts.findings.push(`${evidence.runId} ${call.id} (${call.name}): side effect seen ${times} times`);
    }
    const result = final.get(call.id);
    if (result?.code === "outcome_unknown") {
      if (times > 0) counts.unknownThatRan += 1;
      else counts.unknownThatDidNotRun += 1;
    } else if (result !== undefined && !result.isError && times === 0) {
      counts.missingEffects += 1;
      counts.findings.push(`${evidence.runId} ${call.id} (${call.name}): reported done, no side effect`);
    }
  }
}

function checkFiles(evidence: EpisodeEvidence, counts: FaultCounts): void {
  const expected = new Map<string, string>();
  for (const { call } of evidence.script) {
    const args = call.arguments as { path?: string; content?: string; old_string?: string; new_string?: string };
    if (call.name === "Write" && args.path !== undefined) expected.set(args.path, args.content ?? "");
    if (call.name === "Edit" && args.path !== undefined) {
      const before = expected.get(args.path) ?? "";
      expected.set(args.path, before.replace(args.old_string ?? "", args.new_string ?? ""));
    }
  }
  for (const [file, content] of expected) {
    const absolute = path.join(evidence.workdir, file);
    const actual = existsSync(absolute) ? readFileSync(absolute, "utf8") : undefined;
    if (actual !== content) {
      counts.wrongFiles += 1;
      counts.findings.push(`${evidence.runId} ${file}: content is not the script's`);
    }
  }
}

/** The counts of one finished episode. */
export function analyzeEpisode(evidence: EpisodeEvidence): FaultCounts {
  const counts = emptyCounts();
  const results = lines(evidence.resultsLog).map((line) => JSON.parse(line) as ResultLine);
  const final = checkResults(evidence, results, counts);
  checkLedger(evidence, final, counts);
  checkEffects(evidence, final, counts);
  checkFiles(evidence, counts);
  for (const line of final.values()) {
    if (line.code === "outcome_unknown") counts.outcomeUnknown += 1;
    else if (line.isError) counts.otherErrors[line.code ?? "other"] = (counts.otherErrors[line.code ?? "other"] ?? 0) + 1;
  }
  return counts;
}
