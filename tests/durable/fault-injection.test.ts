// A short run of the fault-injection harness of bench/durable (the bench runs 200 kills): real host
// processes running the SDK's registry with a call ledger on SQLite and on the test PostgreSQL, SIGKILLed
// with their whole tree at chosen points (inside the unsafe Bash call, right after the MCP count, inside an
// Edit) and restarted until the loop finishes. No side effect of an unsafe tool may happen twice and no
// completed result may change. The control run without a ledger shows the same counters do see duplicates.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { usePostgresTestCluster } from "@agent-tools/storage/testing";
import { afterAll, describe, expect, it } from "vitest";
import { runFaultInjection } from "../../bench/durable/fault/harness.js";
import type { KillPlan } from "../../bench/durable/fault/kill-plan.js";

const work = mkdtempSync(path.join(os.tmpdir(), "fault-injection-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Two groups of five calls and a Glob: call-2 Bash, call-3 Edit, call-4 MCP count, call-7 Bash, call-9 MCP count.
const plans: KillPlan[] = [
  { kind: "in-call", callId: "call-2", delayMs: 5 },
  { kind: "after-result", callId: "call-4" },
  { kind: "in-call", callId: "call-8", delayMs: 0 },
];

const cluster = usePostgresTestCluster();

describe("fault injection (SIGKILLed hosts resumed with the same run id)", () => {
  it("on SQLite: no duplicate side effect, no lost result", async () => {
    const report = await runFaultInjection({
      backend: "sqlite",
      kills: plans.length,
      killPlans: plans,
      groups: 2,
      seed: 1,
      directory: path.join(work, "sqlite"),
    });
    expect(report.findings).toEqual([]);
    expect(report).toMatchObject({ kills: 3, duplicates: 0, lost: 0, missingEffects: 0, unsettledEntries: 0, wrongFiles: 0 });
    expect(report.episodes).toBeGreaterThanOrEqual(1);
  }, 300_000);

  it("on PostgreSQL: no duplicate side effect, no lost result", async () => {
    const connectionString = await cluster().createDatabase("fault");
    const report = await runFaultInjection({
      backend: "postgres",
      connectionString,
      kills: 1,
      killPlans: plans.slice(0, 1),
      groups: 2,
      seed: 2,
      directory: path.join(work, "postgres"),
    });
    expect(report.findings).toEqual([]);
    expect(report).toMatchObject({ kills: 1, duplicates: 0, lost: 0, missingEffects: 0, unsettledEntries: 0, wrongFiles: 0 });
  }, 300_000);

  it("without a ledger (control): the restart repeats the Bash line and the MCP count, and the counters see it", async () => {
    const report = await runFaultInjection({
      backend: "none",
      kills: 1,
      killPlans: [plans[1] as KillPlan],
      groups: 2,
      seed: 3,
      directory: path.join(work, "control"),
    });
    expect(report.kills).toBe(1);
    // call-2 (Bash) and call-4 (MCP count) ran before the kill and run again after it.
    expect(report.duplicates).toBeGreaterThanOrEqual(2);
    expect(report.findings).toContain(`fault-none-none-3-1 call-2 (Bash): side effect seen 2 times`);
  }, 300_000);
});
