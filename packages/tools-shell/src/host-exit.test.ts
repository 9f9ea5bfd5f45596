import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isProcessAlive } from "@agent-tools/node/internal";
import { processTreeScript, waitForPidFiles } from "@agent-tools/node/testing";
import { afterEach, describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
let scratch: string;
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

describe("host exit", () => {
  it("a host killed with SIGKILL leaves no live process of its running Bash sessions", async () => {
    scratch = realpathSync(mkdtempSync(path.join(os.tmpdir(), "shell-host-exit-")));
    const pidDir = path.join(scratch, "pids");
    mkdirSync(pidDir);
    writeFileSync(path.join(scratch, "tree.sh"), processTreeScript(pidDir, 30));
    const host = `
      import { createToolRegistry } from "@agent-tools/core";
      import { ExecaProcessRunner } from "@agent-tools/node";
      import { createShellToolBundle } from "@agent-tools/tools-shell";
      const ports = { processRunner: new ExecaProcessRunner() };
      const registry = createToolRegistry({ workdir: ${JSON.stringify(scratch)}, dataDir: ${JSON.stringify(scratch)}, bundles: [createShellToolBundle()], ports });
      const result = await registry.executeToolCall({ id: "1", name: "Bash", arguments: { command: "sh tree.sh", yield_time_ms: 250 } });
      console.log(result.details.status);
      setInterval(() => undefined, 1000);
    `;
    const child = spawn(process.execPath, ["--import", "tsx", "--conditions=@agent-tools/source", "--input-type=module", "-e", host], {
      cwd: packageDir,
      stdio: ["ignore", "pipe", "inherit"],
    });
    const pids = await waitForPidFiles(pidDir, 30);
    expect(pids.every((pid) => isProcessAlive(pid))).toBe(true);
    child.kill("SIGKILL");
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && pids.some((pid) => isProcessAlive(pid))) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pids.filter((pid) => isProcessAlive(pid))).toEqual([]);
  });
});
