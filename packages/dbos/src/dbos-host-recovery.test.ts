import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ToolCall, ToolResult } from "@agent-tools/core";
import { usePostgresTestCluster } from "@agent-tools/storage/testing";
import { afterAll, describe, expect, it } from "vitest";
import {
  type DbosToolHostConfig,
  type DbosToolHostResult,
  countDbosKillAnomalies,
  mixedDbosToolCalls,
  readDbosToolHostEffects,
  runDbosToolHostToEnd,
  runDbosToolHostUnderKills,
  startDbosToolHost,
} from "./testing/index.js";
import { openHostLedger } from "./__fixtures__/open-postgres-ledger.js";

const hostScript = path.join(path.dirname(fileURLToPath(import.meta.url)), "__fixtures__", "dbos-tool-host-main.ts");
const temporary = realpathSync(mkdtempSync(path.join(os.tmpdir(), "agent-tools-dbos-host-")));
afterAll(() => rmSync(temporary, { recursive: true, force: true }));
const cluster = usePostgresTestCluster();
// Each host start loads DBOS and the sources under tsx (2-6 s on 2 loaded cores): the cases allow for it.
const HOST_CASE_TIMEOUT = 180_000;

async function hostConfig(name: string, calls: readonly ToolCall[]): Promise<DbosToolHostConfig> {
  const workdir = path.join(temporary, name);
  rmSync(workdir, { recursive: true, force: true });
  mkdirSync(workdir);
  const systemDatabaseUrl = await cluster().createDatabase("dbos");
  const ledgerUrl = await cluster().createDatabase("ledger");
  return { systemDatabaseUrl, ledgerUrl, workdir, workflowId: `turn-${name}`, calls };
}

async function ledgerEntries(config: DbosToolHostConfig) {
  const opened = await openHostLedger(config.ledgerUrl);
  try {
    return await opened.ledger.list(config.workflowId);
  } finally {
    await opened.close();
  }
}

function append(id: string, holdUntil?: string): ToolCall {
  return { id, name: "AppendLine", arguments: { text: `line of ${id}`, ...(holdUntil ? { holdUntil } : {}) } };
}
function setValue(id: string, key: string, holdUntil?: string): ToolCall {
  return { id, name: "SetValue", arguments: { key, value: `value of ${id}`, ...(holdUntil ? { holdUntil } : {}) } };
}
function readValue(id: string, key: string): ToolCall {
  return { id, name: "ReadValue", arguments: { key } };
}
function text(result: ToolResult): string {
  return result.content.map((part) => ("text" in part ? part.text : "")).join("");
}
function byId(results: readonly DbosToolHostResult[]): Map<string, ToolResult> {
  return new Map(results.map((entry) => [entry.callId, entry.result]));
}

describe("tool calls as DBOS steps in a host process", () => {
  it(
    "runs a workflow of calls once; a host started again gets the recorded results and runs nothing",
    async () => {
      const calls = [append("a1"), setValue("s1", "color"), readValue("r1", "color"), append("a2")];
      const config = await hostConfig("normal", calls);
      const results = await runDbosToolHostToEnd(config, { hostScript });
      expect(results.map((entry) => [entry.callId, entry.result.isError, text(entry.result)])).toEqual([
        ["a1", false, "appended a1"],
        ["s1", false, "set color=value of s1"],
        ["r1", false, "value of s1"],
        ["a2", false, "appended a2"],
      ]);
      const effects = readDbosToolHostEffects(config.workdir);
      expect(Object.fromEntries(effects.runs)).toEqual({ a1: 1, s1: 1, r1: 1, a2: 1 });
      expect(Object.fromEntries(effects.appended)).toEqual({ a1: 1, a2: 1 });
      const entries = await ledgerEntries(config);
      expect(entries.map((entry) => [entry.callId, entry.state, entry.effects, entry.attempts])).toEqual([
        ["a1", "completed", "unsafe", 1],
        ["s1", "completed", "idempotent", 1],
        ["r1", "completed", "none", 1],
        ["a2", "completed", "unsafe", 1],
      ]);
      for (const entry of entries) expect(entry.result).toEqual(byId(results).get(entry.callId));

      const again = await runDbosToolHostToEnd(config, { hostScript });
      expect(again).toEqual(results);
      expect(Object.fromEntries(readDbosToolHostEffects(config.workdir).runs)).toEqual({ a1: 1, s1: 1, r1: 1, a2: 1 });
    },
    HOST_CASE_TIMEOUT,
  );

  it(
    "recovers the workflow after SIGKILLs: an unsafe call cut mid-run is outcome_unknown (appended once), an idempotent one runs again, finished steps do not",
    async () => {
      const calls = [
        append("a1"),
        setValue("s1", "size"),
        append("a2", "release-a2"),
        setValue("s2", "shape", "release-s2"),
        append("a3"),
        readValue("r1", "shape"),
      ];
      const config = await hostConfig("killed", calls);

      const first = startDbosToolHost(config, { hostScript });
      await first.waitForLine("holding a2");
      await first.kill();
      expect(Object.fromEntries(readDbosToolHostEffects(config.workdir).appended)).toEqual({ a1: 1, a2: 1 });
      // Released before the restart: a wrongful second run would append again instead of blocking.
      writeFileSync(path.join(config.workdir, "release-a2"), "");

      const second = startDbosToolHost(config, { hostScript });
      await second.waitForLine("holding s2");
      await second.kill();
      writeFileSync(path.join(config.workdir, "release-s2"), "");

      const results = byId(await runDbosToolHostToEnd(config, { hostScript }));
      expect([...results.keys()]).toEqual(["a1", "s1", "a2", "s2", "a3", "r1"]);
      expect(results.get("a2")?.isError).toBe(true);
      expect(results.get("a2")?.error?.code).toBe("outcome_unknown");
      for (const id of ["a1", "s1", "s2", "a3", "r1"]) expect(results.get(id)?.isError, id).toBe(false);
      expect(text(results.get("r1") as ToolResult)).toBe("value of s2");

      const effects = readDbosToolHostEffects(config.workdir);
      expect(Object.fromEntries(effects.appended)).toEqual({ a1: 1, a2: 1, a3: 1 });
      expect(Object.fromEntries(effects.runs)).toEqual({ a1: 1, s1: 1, a2: 1, s2: 2, a3: 1, r1: 1 });
      const entries = new Map((await ledgerEntries(config)).map((entry) => [entry.callId, entry]));
      expect(entries.get("a2")?.state).toBe("failed");
      expect(entries.get("s2")).toMatchObject({ state: "completed", attempts: 2 });
      for (const [id, result] of results) expect(entries.get(id)?.result, id).toEqual(result);
    },
    HOST_CASE_TIMEOUT,
  );

  // 5 kills in the suite; DBOS_KILLS=50 (or more) for a longer soak; bench/durable runs hundreds.
  const KILLS = Math.max(5, Number(process.env.DBOS_KILLS ?? 5));
  it(
    `loses no completed result and repeats no unsafe effect over ${KILLS} random SIGKILLs of a loop of mixed calls`,
    async () => {
      const calls = mixedDbosToolCalls(Math.max(18, KILLS * 3));
      const config = await hostConfig("random-kills", calls);
      const seed = Number(process.env.DBOS_KILL_SEED ?? Date.now() % 100_000);
      const opened = await openHostLedger(config.ledgerUrl);
      const run = await runDbosToolHostUnderKills(config, { kills: KILLS, seed, hostScript, ledger: opened.ledger }).finally(() => opened.close());
      const anomalies = countDbosKillAnomalies(calls, run);
      console.log(`DBOS host, seed ${seed}: ${run.kills} kills, ${JSON.stringify(anomalies)}`);
      expect(run.kills, `seed ${seed}`).toBeGreaterThan(0);
      expect(anomalies, `seed ${seed}`).toMatchObject({ duplicates: 0, lostCompleted: 0, missingEffects: 0 });
      expect(run.results.map((entry) => entry.callId)).toEqual(calls.map((call) => call.id));
      // A read returns what the last write of its key before it wrote: replayed and re-run steps kept the order.
      const results = byId(run.results);
      calls.forEach((call, index) => {
        if (call.name !== "ReadValue") return;
        const key = (call.arguments as { key: string }).key;
        const lastWrite = calls.slice(0, index).findLast((earlier) => earlier.name === "SetValue" && (earlier.arguments as { key: string }).key === key);
        const expected = lastWrite ? (lastWrite.arguments as { value: string }).value : `(no value for ${key})`;
        expect(text(results.get(call.id) as ToolResult), `${call.id} (seed ${seed})`).toBe(expected);
      });
      for (const call of calls) {
        if (call.name !== "AppendLine") expect(results.get(call.id)?.isError, `${call.id} (seed ${seed})`).toBe(false);
      }
    },
    HOST_CASE_TIMEOUT * Math.ceil(KILLS / 5),
  );
});
