import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ToolRegistry } from "@agent-tools/core";
import { NodeDurableProcessLauncher, isProcessAlive } from "@agent-tools/node/internal";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeToolRegistry } from "../__fixtures__/node-tool-registry.js";
import { createShellToolBundle } from "../shell-tool-bundle.js";

let scratch: string;
let workdir: string;
let dir: string;
const registries: ToolRegistry[] = [];

beforeEach(() => {
  scratch = realpathSync(mkdtempSync(path.join(os.tmpdir(), "shell-durable-managed-")));
  workdir = path.join(scratch, "work");
  dir = path.join(scratch, "sessions");
  mkdirSync(workdir);
});
afterEach(async () => {
  for (const registry of registries.splice(0)) await registry.close();
  const launcher = new NodeDurableProcessLauncher();
  for (const entry of existsSync(dir) ? readdirSync(dir) : []) await launcher.stop(path.join(dir, entry), { graceMs: 50 });
  rmSync(scratch, { recursive: true, force: true });
});

/** A registry as a host process builds it; a second one on the same directories is a restarted host. */
function host(): ToolRegistry {
  const registry = createNodeToolRegistry({
    workdir,
    dataDir: path.join(scratch, "data"),
    bundles: [createShellToolBundle({ durableSessions: { dir } })],
    loopBreaker: false,
  });
  registries.push(registry);
  return registry;
}

async function managed(registry: ToolRegistry, args: Record<string, unknown>): Promise<Record<string, any>> {
  const result = await registry.executeToolCall({ id: `m-${Math.random()}`, name: "ManagedProcess", arguments: args });
  expect(result.isError, JSON.stringify(result.details)).toBeFalsy();
  return result.details as Record<string, any>;
}

describe("durable ManagedProcess", () => {
  it("outlives the host that started it (not isolated), and a new host reads its log on and learns its exit code", async () => {
    const gate = path.join(scratch, "go");
    const first = host();
    const started = await managed(first, { action: "start", command: `echo first; while [ ! -f ${gate} ]; do sleep 0.05; done; echo second; exit 7` });
    const processId = started.process.process_id as string;
    expect(started.process).toMatchObject({ status: "running", durable: true, isolated: true });
    // Closing a registry ends its non-isolated managed processes; a durable one stays.
    await first.close();
    const second = host();
    const read = await managed(second, { action: "read_log", process_id: processId });
    expect(read.process.status).toBe("running");
    expect(read.log).toMatchObject({ output: "first\n", cursor: 6 });
    writeFileSync(gate, "");
    const waited = await managed(second, { action: "wait", process_id: processId, cursor: 6, yield_time_ms: 10_000 });
    expect(waited.process).toMatchObject({ status: "exited", exit_code: 7 });
    expect(waited.log).toMatchObject({ output: "second\n", cursor: 13 });
  });

  it("a new host stops it: the whole tree ends and the status reads stopped", async () => {
    const first = host();
    const pidFile = path.join(scratch, "child.pid");
    const started = await managed(first, { action: "start", command: `sh -c 'echo $$ > ${pidFile}; exec sleep 300' >/dev/null 2>&1 & wait` });
    const processId = started.process.process_id as string;
    const deadline = Date.now() + 10_000;
    let pid = 0;
    while (pid === 0 && Date.now() < deadline) {
      try {
        pid = Number(readFileSync(pidFile, "utf8"));
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
    await first.close();
    expect(isProcessAlive(pid)).toBe(true);
    const second = host();
    const stopped = await managed(second, { action: "stop", process_id: processId });
    expect(stopped).toMatchObject({ stopped: true, process: { status: "stopped" } });
    expect(isProcessAlive(pid)).toBe(false);
  });
});
