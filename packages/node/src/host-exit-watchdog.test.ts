import { spawn } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { processTreeScript, waitForPidFiles } from "./testing/process-runner-contract.js";
import { isProcessAlive } from "./process-tree.js";

// The host below imports the runner from its source file: the child runs without the `source` condition.
const runnerModule = fileURLToPath(new URL("../../node/src/execa-process-runner.ts", import.meta.url));
const directories: string[] = [];
afterEach(() => {
  for (const dir of directories.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

describe("host exit", () => {
  it("a SIGKILLed host leaves no live process of its runner's trees; isolated ones survive", async () => {
    const pidDir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "watchdog-")));
    directories.push(pidDir);
    const isolatedDir = path.join(pidDir, "isolated");
    const host = `
      import { mkdirSync } from "node:fs";
      const { ExecaProcessRunner } = await import(${JSON.stringify(runnerModule)});
      const runner = new ExecaProcessRunner();
      runner.spawn({ command: ${JSON.stringify(processTreeScript(pidDir, 21))}, shell: "/bin/sh", cwd: ${JSON.stringify(pidDir)} });
      mkdirSync(${JSON.stringify(isolatedDir)});
      runner.spawn({ command: "echo $$ > isolated.pid; exec sleep 300", shell: "/bin/sh", cwd: ${JSON.stringify(isolatedDir)}, isolated: true, logFile: ${JSON.stringify(path.join(pidDir, "isolated.log"))} });
      console.log("ready");
      setInterval(() => undefined, 1000);
    `;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", host], { stdio: ["ignore", "pipe", "inherit"] });
    const pids = await waitForPidFiles(pidDir, 21);
    const [isolatedPid] = await waitForPidFiles(isolatedDir, 1);
    expect(pids.every((pid) => isProcessAlive(pid))).toBe(true);
    child.kill("SIGKILL");
    const ended = await waitUntil(() => pids.every((pid) => !isProcessAlive(pid)), 5_000);
    expect(pids.filter((pid) => isProcessAlive(pid))).toEqual([]);
    expect(ended).toBe(true);
    expect(isProcessAlive(isolatedPid!)).toBe(true);
    process.kill(isolatedPid!, "SIGKILL");
  });
});
