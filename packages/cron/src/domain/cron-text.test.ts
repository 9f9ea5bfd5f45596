import { describe, expect, it } from "vitest";
import { cronErrorText, cronRunStatus, formatCronRunLog, formatCronRunLogs, formatCronTaskLine, formatNextFireTimes } from "./cron-text.js";
import { testTask } from "../__fixtures__/cron-test-tasks.js";
import type { CronRunRecord, CronTask } from "./cron-types.js";

const TASK: CronTask = testTask({ id: "cron_abc", name: "nightly backup", cron: "0 0 3 * * *", type: "bash", script: "./backup.sh", workdir: "/repo" });

function run(fields: Partial<CronRunRecord>): CronRunRecord {
  return {
    id: "run_1",
    taskId: "cron_abc",
    scheduledAt: 0,
    state: "done",
    success: true,
    startedAt: Date.UTC(2026, 0, 1, 3),
    durationMs: 12,
    output: "",
    ...fields,
  };
}

describe("formatCronTaskLine", () => {
  it("prints every field in order, unlimited for null and none without a last error", () => {
    expect(formatCronTaskLine(TASK)).toBe(
      'task_id=cron_abc | name="nightly backup" | type=bash | cron=0 0 3 * * * | enabled=true | remaining_executions=unlimited | timeout_seconds=300 | last_error=none',
    );
  });

  it("prints counts, disabled tasks, quoted names and the last error folded onto one line and cut", () => {
    const line = formatCronTaskLine({
      ...TASK,
      name: 'say "hi"',
      enabled: false,
      remainingExecutions: 0,
      timeoutSeconds: 60,
      lastError: "exit 1\n  permission denied  ",
    });
    expect(line).toBe(
      'task_id=cron_abc | name="say \\"hi\\"" | type=bash | cron=0 0 3 * * * | enabled=false | remaining_executions=0 | timeout_seconds=60 | last_error=exit 1 permission denied',
    );
    const long = formatCronTaskLine({ ...TASK, lastError: "e".repeat(400) });
    expect(long.endsWith(`last_error=${"e".repeat(300)}...`)).toBe(true);
    expect(formatCronTaskLine({ ...TASK, lastError: "  " })).toContain("last_error=none");
  });
});

describe("run logs", () => {
  it("maps states to statuses", () => {
    expect(cronRunStatus({ state: "done", success: true })).toBe("success");
    expect(cronRunStatus({ state: "done", success: false })).toBe("failed");
    expect(cronRunStatus({ state: "expired", success: false })).toBe("expired");
    expect(cronRunStatus({ state: "leased", success: false })).toBe("running");
    expect(cronRunStatus({ state: "pending", success: false })).toBe("pending");
  });

  it("prints the header and the output, cut at 600 characters with the marker", () => {
    expect(formatCronRunLog(run({ output: "backup done" }), 1)).toBe("1. [success] started_at=2026-01-01T03:00:00.000Z duration_ms=12\nbackup done");
    expect(formatCronRunLog(run({ success: false, durationMs: 5, output: "" }), 3)).toBe("3. [failed] started_at=2026-01-01T03:00:00.000Z duration_ms=5");
    expect(formatCronRunLog(run({ output: "x".repeat(600) }), 1)).toBe(`1. [success] started_at=2026-01-01T03:00:00.000Z duration_ms=12\n${"x".repeat(600)}`);
    expect(formatCronRunLog(run({ state: "expired", success: false, output: "y".repeat(601) }), 2)).toBe(
      `2. [expired] started_at=2026-01-01T03:00:00.000Z duration_ms=12\n${"y".repeat(600)}...[truncated]`,
    );
  });

  it("numbers logs from 1 under a header, or says there are none", () => {
    expect(formatCronRunLogs("cron_abc", [])).toBe("No runs yet for task cron_abc.");
    expect(formatCronRunLogs("cron_abc", [run({ output: "b" }), run({ success: false, output: "a" })])).toBe(
      [
        "Runs of task cron_abc (2, newest first):",
        "1. [success] started_at=2026-01-01T03:00:00.000Z duration_ms=12",
        "b",
        "2. [failed] started_at=2026-01-01T03:00:00.000Z duration_ms=12",
        "a",
      ].join("\n"),
    );
  });
});

describe("next fire times and errors", () => {
  it("lists ISO times, none, and the disabled note", () => {
    expect(formatNextFireTimes([Date.UTC(2026, 0, 1, 3), Date.UTC(2026, 0, 2, 3)])).toBe("next_fire_times=2026-01-01T03:00:00.000Z, 2026-01-02T03:00:00.000Z");
    expect(formatNextFireTimes([])).toBe("next_fire_times=none (the schedule matches no future date)");
    expect(formatNextFireTimes([0], false)).toBe("next_fire_times=1970-01-01T00:00:00.000Z (disabled: it will not fire until enabled)");
  });

  it("prefixes every error", () => {
    expect(cronErrorText("task_id is required.")).toBe("Cron task manager failed: task_id is required.");
  });
});
