import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isProcessAlive } from "@agent-tools/node/internal";
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, detailsOf, textOf } from "./__fixtures__/harness.js";
import { createNodeToolRegistry } from "./__fixtures__/node-tool-registry.js";
import { createShellToolBundle } from "./shell-tool-bundle.js";

let harness: ReturnType<typeof createHarness>;
afterEach(async () => {
  await harness?.cleanup();
});

describe("ManagedProcess", () => {
  it("starts a process with a log under <dataDir>/process-logs, waits, reads the log, lists and stops it", async () => {
    harness = createHarness();
    // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source written to a file
    writeFileSync(path.join(harness.workdir, "ticker.js"), "let n = 0; setInterval(() => console.log(`tick ${++n}`), 100);\n");
    const started = await harness.call("ManagedProcess", { action: "start", command: `${JSON.stringify(process.execPath)} ticker.js`, label: "ticker" });
    expect(started.isError).toBe(false);
    const processState = detailsOf(started).process;
    expect(processState.process_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(processState.log_path).toBe(path.join(harness.dataDir, "process-logs", `${processState.process_id}.log`));
    expect(textOf(started)).toContain("Do not use ProcessWait or ProcessStop with this id");
    const waited = await harness.call("ManagedProcess", { action: "wait", process_id: processState.process_id, cursor: 0, max_bytes: 14, yield_time_ms: 1 });
    expect(detailsOf(waited).log.output).toMatch(/^tick 1\ntick 2\n/);
    expect(detailsOf(waited).log.cursor).toBe(14);
    const read = await harness.call("ManagedProcess", { action: "read_log", process_id: processState.process_id, cursor: 7 });
    expect(detailsOf(read).log.output).toMatch(/^tick 2\n/);
    const status = await harness.call("ManagedProcess", { action: "status" });
    expect(detailsOf(status).processes).toHaveLength(1);
    expect(detailsOf(status).processes[0]).toMatchObject({ status: "running", label: "ticker" });
    const stopped = await harness.call("ManagedProcess", { action: "stop", process_id: processState.process_id });
    expect(detailsOf(stopped)).toMatchObject({ stopped: true, not_found: false });
    expect(detailsOf(stopped).process.status).toBe("stopped");
    expect(isProcessAlive(processState.pid)).toBe(false);
  });

  it("wait returns when the process exits, with its exit code", async () => {
    harness = createHarness();
    const started = await harness.call("ManagedProcess", { action: "start", command: "echo finished; exit 4" });
    const waited = await harness.call("ManagedProcess", { action: "wait", process_id: detailsOf(started).process.process_id });
    expect(detailsOf(waited).process).toMatchObject({ status: "exited", exit_code: 4 });
    expect(detailsOf(waited).log.output).toBe("finished\n");
  });

  it("stop on an unknown id is an error with not_found; missing arguments are explained", async () => {
    harness = createHarness();
    const result = await harness.call("ManagedProcess", { action: "stop", process_id: "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b" });
    expect(result.isError).toBe(true);
    expect(detailsOf(result)).toMatchObject({ stopped: false, not_found: true });
    const missing = await harness.call("ManagedProcess", { action: "wait" });
    expect(textOf(missing)).toMatch(/needs process_id/);
    const background = await harness.call("ManagedProcess", { action: "start", command: "server > log 2>&1 &" });
    expect(textOf(background)).toMatch(/remove the trailing "&"/);
  });

  it("non-isolated processes end with the registry; isolated ones outlive it and stay manageable from disk", async () => {
    harness = createHarness();
    const plain = await harness.call("ManagedProcess", { action: "start", command: "exec tail -f /dev/null" });
    const isolated = await harness.call("ManagedProcess", { action: "start", command: "exec tail -f /dev/null", isolated: true });
    const plainPid = detailsOf(plain).process.pid;
    const isolatedState = detailsOf(isolated).process;
    await harness.registry.close();
    expect(isProcessAlive(plainPid)).toBe(false);
    expect(isProcessAlive(isolatedState.pid)).toBe(true);
    const later = createNodeToolRegistry({ workdir: harness.workdir, dataDir: harness.dataDir, bundles: [createShellToolBundle()] });
    try {
      const status = await later.executeToolCall({ id: "s", name: "ManagedProcess", arguments: { action: "status", process_id: isolatedState.process_id } });
      expect(detailsOf(status).processes[0]).toMatchObject({ status: "running", isolated: true });
      const stop = await later.executeToolCall({ id: "t", name: "ManagedProcess", arguments: { action: "stop", process_id: isolatedState.process_id } });
      expect(detailsOf(stop).stopped).toBe(true);
      expect(isProcessAlive(isolatedState.pid)).toBe(false);
      expect(existsSync(isolatedState.log_path)).toBe(true);
    } finally {
      await later.close();
      if (isProcessAlive(isolatedState.pid)) process.kill(isolatedState.pid, "SIGKILL");
    }
  });
});
