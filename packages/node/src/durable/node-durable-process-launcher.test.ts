import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isProcessAlive } from "../process-tree.js";
import type { DurableProcessLauncher } from "./durable-process-types.js";
import { NodeDurableProcessLauncher, readStartTime } from "./node-durable-process-launcher.js";

let scratch: string;
const launcher = new NodeDurableProcessLauncher();
const started: string[] = [];

beforeEach(() => {
  scratch = realpathSync(mkdtempSync(path.join(os.tmpdir(), "durable-launcher-")));
});
afterEach(async () => {
  for (const directory of started.splice(0)) await launcher.stop(directory, { graceMs: 50 });
  rmSync(scratch, { recursive: true, force: true });
});

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function launchWith(subject: DurableProcessLauncher, name: string, command: string) {
  const directory = path.join(scratch, name);
  started.push(directory);
  const state = await subject.launch({ directory, command, shell: "/bin/sh", cwd: scratch, env: { DURABLE_TEST: "s3cr3t-value" } });
  return { directory, state };
}

describe("NodeDurableProcessLauncher", () => {
  it("runs the command under a detached supervisor: own group, log by the command itself, exit recorded, environment not on disk", async () => {
    const { directory, state } = await launchWith(launcher, "s1", 'echo "$DURABLE_TEST $AGENT_TOOLS_PROCESS_TREE"; echo err >&2; exit 4');
    expect(state.pid).toBeGreaterThan(0);
    expect(state.supervisorPid).not.toBe(process.pid);
    await until(() => launcher.inspect(directory).state?.treeEnded === true);
    const view = launcher.inspect(directory);
    expect(view.state).toMatchObject({ status: "exited", exitCode: 4, descendantsAlive: [] });
    expect(readFileSync(path.join(directory, "output.log"), "utf8")).toBe(`s3cr3t-value ${state.tag}\nerr\n`);
    expect(readFileSync(path.join(directory, "spec.json"), "utf8")).not.toContain("s3cr3t-value");
    await until(() => !launcher.inspect(directory).supervisorAlive);
  });

  it("refuses a directory that exists already (also a planted symlink)", async () => {
    const target = path.join(scratch, "elsewhere");
    mkdirSync(target);
    symlinkSync(target, path.join(scratch, "planted"));
    await expect(launcher.launch({ directory: path.join(scratch, "planted"), command: "true", shell: "/bin/sh", cwd: scratch })).rejects.toThrow(/EEXIST/);
    expect(existsSync(path.join(target, "spec.json"))).toBe(false);
  });

  it("never signals a recycled pid: a state naming a live process with another start time stops nothing", async () => {
    const bystander = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      const pid = bystander.pid!;
      await until(() => readStartTime(pid) !== undefined);
      const directory = path.join(scratch, "forged");
      mkdirSync(directory);
      const forged = { version: 1, supervisorPid: 0, supervisorStartTime: null, pid, pidStartTime: "1", tag: "dnotused", startedAt: 0, status: "running" };
      writeFileSync(
        path.join(directory, "state.json"),
        JSON.stringify({ ...forged, exitCode: null, signal: null, endedAt: null, descendantsAlive: [], treeEnded: false, updatedAt: 0 }),
      );
      expect(launcher.inspect(directory)).toMatchObject({ processAlive: false, supervisorAlive: false });
      expect(launcher.treeMembers(directory)).toEqual([]);
      await launcher.stop(directory, { graceMs: 50 });
      expect(isProcessAlive(pid)).toBe(true);
    } finally {
      bystander.kill("SIGKILL");
    }
  });

  it("does not follow a symlink planted as state.json or output.log", async () => {
    const { directory } = await launchWith(launcher, "s2", "echo hi");
    await until(() => launcher.inspect(directory).state?.treeEnded === true);
    const secret = path.join(scratch, "secret.txt");
    writeFileSync(secret, "do not read");
    rmSync(path.join(directory, "output.log"));
    symlinkSync(secret, path.join(directory, "output.log"));
    expect(launcher.readLog(directory, 0, 100).data.length).toBe(0);
    expect(launcher.logSize(directory)).toBe(0);
  });

  const dist = fileURLToPath(new URL("../../dist/durable/node-durable-process-launcher.js", import.meta.url));
  it.skipIf(!existsSync(dist))("runs from the built package too (dist finds the supervisor among the shipped sources)", async () => {
    const module = (await import(dist)) as { NodeDurableProcessLauncher: new () => DurableProcessLauncher };
    const built = new module.NodeDurableProcessLauncher();
    const { directory } = await launchWith(built, "from-dist", "echo built");
    await until(() => built.inspect(directory).state?.treeEnded === true);
    expect(readFileSync(path.join(directory, "output.log"), "utf8")).toBe("built\n");
  });
});
