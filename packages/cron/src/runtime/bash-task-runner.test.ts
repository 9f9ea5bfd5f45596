import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ExecaProcessRunner } from "@agent-tools/node";
import { afterAll, describe, expect, it } from "vitest";
import { CRON_LIMITS } from "../domain/cron-types.js";
import { testTask } from "../__fixtures__/cron-test-tasks.js";
import { runBashTask } from "./bash-task-runner.js";

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-cron-bash-"));
const processRunner = new ExecaProcessRunner();
afterAll(async () => {
  await processRunner.close();
  fs.rmSync(temporary, { recursive: true, force: true });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie still answers signal 0: read its state.
    const state = execFileSync("ps", ["-o", "stat=", "-p", String(pid)], { encoding: "utf8" }).trim();
    return state !== "" && !state.startsWith("Z");
  } catch {
    return false;
  }
}

describe("runBashTask", () => {
  it("runs the script with bash in the workdir, stdout and stderr merged in order, exit code 0 = success", async () => {
    const outcome = await runBashTask(
      testTask({ type: "bash", workdir: temporary, script: 'echo "out $(pwd)"; sleep 0.2; echo err >&2; sleep 0.2; [[ abc == a* ]] && echo b' }),
      { processRunner },
    );
    expect(outcome.success).toBe(true);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.output).toBe(`out ${fs.realpathSync(temporary)}\nerr\nb\n`);
  });

  it("records a non-zero exit code as a failure with the output", async () => {
    const outcome = await runBashTask(testTask({ type: "bash", workdir: temporary, script: "echo broken; exit 3" }), { processRunner });
    expect(outcome).toMatchObject({ success: false, exitCode: 3 });
    expect(outcome.output).toBe("broken\nExit code 3.");
    expect(outcome.disableTask).toBeUndefined();
  });

  it("kills the whole process tree on timeout, a background grandchild included", async () => {
    const pidFile = path.join(temporary, "grandchild.pid");
    const started = Date.now();
    const outcome = await runBashTask(
      testTask({ type: "bash", workdir: temporary, timeoutSeconds: 1, script: `sleep 1000 & echo $! > ${pidFile}; echo started; sleep 1000` }),
      { processRunner },
    );
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(outcome.success).toBe(false);
    expect(outcome.exitCode).toBeNull();
    expect(outcome.output).toContain("started\n");
    expect(outcome.output).toContain("Timed out after 1 s");
    const grandchild = Number(fs.readFileSync(pidFile, "utf8").trim());
    expect(grandchild).toBeGreaterThan(0);
    expect(isAlive(grandchild)).toBe(false);
  });

  it("ends background processes the script left behind when it exits", async () => {
    const pidFile = path.join(temporary, "leftover.pid");
    const outcome = await runBashTask(testTask({ type: "bash", workdir: temporary, script: `sleep 1000 > /dev/null 2>&1 & echo $! > ${pidFile}; echo done` }), {
      processRunner,
    });
    expect(outcome.success).toBe(true);
    expect(isAlive(Number(fs.readFileSync(pidFile, "utf8").trim()))).toBe(false);
  });

  it("kills the tree when the signal aborts", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const outcome = await runBashTask(testTask({ type: "bash", workdir: temporary, script: "sleep 1000" }), { processRunner, signal: controller.signal });
    expect(outcome.success).toBe(false);
    expect(outcome.output).toContain("cancelled");
  });

  it("fails with a clear output and asks to disable the task when the workdir is missing", async () => {
    const missing = path.join(temporary, "gone");
    const outcome = await runBashTask(testTask({ type: "bash", workdir: missing, script: "echo hi" }), { processRunner });
    expect(outcome).toMatchObject({ success: false, exitCode: null, disableTask: true });
    expect(outcome.output).toContain(`The working directory ${missing} of task cron_test does not exist`);
    const file = path.join(temporary, "a-file");
    fs.writeFileSync(file, "x");
    const notDir = await runBashTask(testTask({ type: "bash", workdir: file, script: "echo hi" }), { processRunner });
    expect(notDir.disableTask).toBe(true);
    expect(notDir.output).toContain("is not a directory");
  });

  it("caps the output at the run output limit", async () => {
    const outcome = await runBashTask(
      testTask({ type: "bash", workdir: temporary, script: "head -c 200000 /dev/zero | tr '\\0' 'x'; echo; echo tail-marker" }),
      {
        processRunner,
      },
    );
    expect(outcome.success).toBe(true);
    expect(outcome.output.length).toBeLessThanOrEqual(CRON_LIMITS.outputMaxChars);
    expect(outcome.output).toContain("characters truncated");
  });

  it("refuses an empty script", async () => {
    const outcome = await runBashTask(testTask({ type: "bash", workdir: temporary, script: "  " }), { processRunner });
    expect(outcome).toMatchObject({ success: false });
    expect(outcome.output).toContain("has no script");
  });
});
