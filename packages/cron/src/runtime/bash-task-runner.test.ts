import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ExecaProcessRunner } from "@agent-tools/node";
import { afterAll, describe, expect, it } from "vitest";
import { CRON_LIMITS } from "../domain/cron-types.js";
import type { CommandSandbox, SpawnOptions } from "@agent-tools/core";
import { testPolicy, testTask } from "../__fixtures__/cron-test-tasks.js";
import { type CronBashConfinementRequest, type CronBashSandbox, runBashTask } from "./bash-task-runner.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-cron-bash-")));
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

  describe("under the task's recorded policy", () => {
    /** A sandbox that records what it was asked and runs the command as given (the real bubblewrap runs are the SDK's and attack suite's). */
    function recordingSandbox(answer?: { unavailable: string }) {
      const requests: CronBashConfinementRequest[] = [];
      const confined: SpawnOptions[] = [];
      const sandbox: CommandSandbox = {
        mechanism: "recording",
        confine(options) {
          confined.push(options);
          return options;
        },
      };
      const bashSandbox: CronBashSandbox = {
        async confinementFor(request) {
          requests.push(request);
          return (
            answer ?? { sandbox, policy: { writableRoots: request.writableRoots, readOnlyRoots: request.readOnlyRoots, hiddenPaths: [], allowNetwork: false } }
          );
        },
      };
      return { bashSandbox, requests, confined };
    }

    function layout() {
      const base = fs.mkdtempSync(path.join(temporary, "policy-"));
      for (const name of ["workspace/sub", "shared", "outside"]) fs.mkdirSync(path.join(base, name), { recursive: true });
      const workspace = path.join(base, "workspace");
      const policy = testPolicy(workspace, { roots: [{ alias: "shared", path: path.join(base, "shared"), access: "write" }] });
      return { base, workspace, outside: path.join(base, "outside"), shared: path.join(base, "shared"), policy };
    }

    it("refuses, and asks to disable, a task without a recorded policy", async () => {
      const { workspace } = layout();
      const outcome = await runBashTask(testTask({ type: "bash", workdir: workspace, script: "touch ran", policy: undefined }), { processRunner });
      expect(outcome).toMatchObject({ success: false, exitCode: null, disableTask: true });
      expect(outcome.output).toMatch(/no record of the roots, sandbox and network of the registry that created it \(workdir .*\)/);
      expect(fs.existsSync(path.join(workspace, "ran"))).toBe(false);
    });

    it("refuses a workdir outside the writable roots: `/`, an outside folder, a symlink leading out", async () => {
      const { workspace, outside, shared, policy } = layout();
      fs.symlinkSync(outside, path.join(workspace, "escape"));
      for (const workdir of ["/", outside, path.join(workspace, "escape"), path.join(workspace, "sub", "..", "..", "outside")]) {
        const outcome = await runBashTask(testTask({ type: "bash", workdir, script: "touch ran", policy }), { processRunner });
        expect(outcome, workdir).toMatchObject({ success: false, disableTask: true });
        expect(outcome.output).toContain(
          `is outside the directories the registry that created the task may write: the workspace ${workspace} and root://shared (${shared})`,
        );
      }
      expect(fs.readdirSync(outside)).toEqual([]);
      // A write root that no longer resolves to itself counts for nothing.
      fs.renameSync(shared, `${shared}-moved`);
      fs.symlinkSync(outside, shared);
      const drifted = await runBashTask(testTask({ type: "bash", workdir: shared, script: "touch ran", policy }), { processRunner });
      expect(drifted.output).toMatch(/no longer resolves to itself and counts for nothing/);
      expect(fs.readdirSync(outside)).toEqual([]);
    });

    it("confines with the policy's live roots, never the workdir, and runs in the canonical workdir", async () => {
      const { base, workspace, shared, policy } = layout();
      const reference = path.join(base, "reference");
      fs.mkdirSync(reference);
      fs.symlinkSync(path.join(workspace, "sub"), path.join(workspace, "alias"));
      const recorded = {
        ...policy,
        roots: [
          ...policy.roots,
          { alias: "reference", path: reference, access: "read" as const },
          { alias: "gone", path: path.join(base, "gone"), access: "write" as const },
        ],
      };
      const { bashSandbox, requests, confined } = recordingSandbox();
      const outcome = await runBashTask(testTask({ type: "bash", workdir: path.join(workspace, "alias"), script: "pwd", policy: recorded }), {
        processRunner,
        sandbox: bashSandbox,
      });
      expect(outcome.success).toBe(true);
      expect(outcome.output.trim()).toBe(path.join(workspace, "sub"));
      expect(requests).toEqual([{ policy: recorded, writableRoots: [workspace, shared], readOnlyRoots: [reference] }]);
      expect(confined.map((spawn) => spawn.cwd)).toEqual([path.join(workspace, "sub")]);
    });

    it("refuses to run unconfined a task whose registry had a sandbox, and reports a sandbox that cannot start", async () => {
      const { workspace, policy } = layout();
      const sandboxed = { ...policy, sandbox: { enabled: true } };
      const none = await runBashTask(testTask({ type: "bash", workdir: workspace, script: "touch ran", policy: sandboxed }), { processRunner });
      expect(none.success).toBe(false);
      expect(none.output).toMatch(/confines its commands in a sandbox, and this scheduler has none/);
      const { bashSandbox } = recordingSandbox({ unavailable: "bubblewrap was not found" });
      const unavailable = await runBashTask(testTask({ type: "bash", workdir: workspace, script: "touch ran", policy: sandboxed }), {
        processRunner,
        sandbox: bashSandbox,
      });
      expect(unavailable.output).toBe("The script was not run: bubblewrap was not found");
      expect(fs.existsSync(path.join(workspace, "ran"))).toBe(false);
    });
  });
});
