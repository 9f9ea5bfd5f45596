import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { NodeDurableProcessLauncher, isProcessAlive } from "@agent-tools/node/internal";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHarness, detailsOf, textOf } from "../__fixtures__/harness.js";
import { createNodeToolRegistry } from "../__fixtures__/node-tool-registry.js";
import { createShellToolBundle } from "../shell-tool-bundle.js";

let dir: string;
let harnesses: ReturnType<typeof createHarness>[] = [];
const launcher = new NodeDurableProcessLauncher();

beforeEach(() => {
  dir = path.join(realpathSync(mkdtempSync(path.join(os.tmpdir(), "shell-durable-dir-"))), "sessions");
  harnesses = [];
});
afterEach(async () => {
  // Durable sessions outlive their registry by design: end every one a test left.
  for (const name of existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : [])
    if (name.isDirectory()) await launcher.stop(path.join(dir, name.name), { graceMs: 50 });
  for (const harness of harnesses) await harness.cleanup();
  rmSync(path.dirname(dir), { recursive: true, force: true });
});

/** A host of the tests' project; `workdir` of an earlier host makes it the same project (a restarted host). */
function host(workdir?: string) {
  const harness = createHarness("chat", { durableSessions: { dir } }, workdir);
  harnesses.push(harness);
  return harness;
}

function stateOf(sessionId: string): Record<string, any> {
  return JSON.parse(readFileSync(path.join(dir, sessionId, "state.json"), "utf8")) as Record<string, any>;
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("durable Bash sessions", () => {
  it("a command that ends within the yield answers as usual, stdout and stderr in one stream, from a 0700 directory of its own", async () => {
    const harness = host();
    const result = await harness.call("Bash", { command: "echo out; echo err >&2; exit 3" });
    const details = detailsOf(result);
    expect(details).toMatchObject({ status: "failed", exit_code: 3, durable: true, has_more: false });
    expect(textOf(result)).toContain("out\nerr\n");
    expect(result.isError).toBe(true);
    const sessionDir = path.join(dir, details.session_id);
    expect(statSync(sessionDir).mode & 0o777).toBe(0o700);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readFileSync(path.join(sessionDir, "output.log"), "utf8")).toBe("out\nerr\n");
    // The command's environment is never written to the session directory.
    expect(readFileSync(path.join(sessionDir, "spec.json"), "utf8")).not.toContain("PATH");
  });

  it("reports processes the shell left running after it exited, and ProcessStop ends them", async () => {
    const harness = host();
    const pidFile = path.join(harness.workdir, "bg.pid");
    const result = await harness.call("Bash", { command: `sh -c 'echo $$ > ${pidFile}; exec sleep 300' >/dev/null 2>&1 & echo started` });
    const details = detailsOf(result);
    expect(details).toMatchObject({ status: "completed", exit_code: 0 });
    await until(() => statSafe(pidFile));
    const pid = Number(readFileSync(pidFile, "utf8"));
    await until(() => stateOf(details.session_id).descendantsAlive.includes(pid));
    const waited = await harness.call("ProcessWait", { session_id: details.session_id, yield_time_ms: 5_000 });
    expect(detailsOf(waited).descendants_alive).toContain(pid);
    expect(textOf(waited)).toContain("descendants_alive: 1");
    expect(textOf(waited)).toContain("ProcessStop(session_id) ends them");
    const stopped = await harness.call("ProcessStop", { session_id: details.session_id });
    // The shell had ended on its own: its status stays.
    expect(detailsOf(stopped)).toMatchObject({ status: "completed" });
    expect(detailsOf(stopped).descendants_alive).toBeUndefined();
    expect(isProcessAlive(pid)).toBe(false);
    await until(() => stateOf(details.session_id).treeEnded === true);
  });

  it("reports lost, with the last cursor and the output logged, when the command and its supervisor died with no host there", async () => {
    const first = host();
    const started = await first.call("Bash", { command: "echo before; exec sleep 300", yield_time_ms: 250 });
    const sessionId = detailsOf(started).session_id as string;
    expect(detailsOf(started)).toMatchObject({ status: "running", cursor: 7 });
    const state = stateOf(sessionId);
    process.kill(state.supervisorPid, "SIGKILL");
    process.kill(state.pid, "SIGKILL");
    await until(() => !isProcessAlive(state.pid) && !isProcessAlive(state.supervisorPid));
    const second = host(first.workdir);
    const lost = await second.call("ProcessWait", { session_id: sessionId, yield_time_ms: 5_000 });
    expect(detailsOf(lost)).toMatchObject({ status: "lost", cursor: 7, output: [], session_id: sessionId });
    expect(lost.isError).toBe(true);
    expect(textOf(lost)).toContain("exit status is unknown");
    const reread = await second.call("ProcessWait", { session_id: sessionId, cursor: 0, yield_time_ms: 5_000 });
    expect(detailsOf(reread)).toMatchObject({ status: "lost", cursor: 7, output: [{ stream: "stdout", text: "before\n" }] });
  });

  it("a call that runs again after a crash (same call id) reads from the same start; a new call goes on after it", async () => {
    const harness = host();
    const gate = path.join(harness.workdir, "go");
    const started = await harness.call("Bash", { command: `echo one; while [ ! -f ${gate} ]; do sleep 0.05; done; echo two`, yield_time_ms: 250 });
    const sessionId = detailsOf(started).session_id as string;
    writeFileSync(gate, "");
    const call = (id: string) => harness.registry.executeToolCall({ id, name: "ProcessWait", arguments: { session_id: sessionId, yield_time_ms: 5_000 } });
    const first = detailsOf(await call("wait-1"));
    expect(first).toMatchObject({ status: "completed", output: [{ text: "two\n" }], cursor: 8 });
    // A second host runs the same call again (its result was never recorded): the same bytes.
    const again = createHarness("chat", { durableSessions: { dir } }, harness.workdir);
    harnesses.push(again);
    const rerun = detailsOf(
      await again.registry.executeToolCall({ id: "wait-1", name: "ProcessWait", arguments: { session_id: sessionId, yield_time_ms: 5_000 } }),
    );
    expect(rerun).toMatchObject({ output: [{ text: "two\n" }], cursor: 8 });
    const next = detailsOf(await call("wait-2"));
    expect(next).toMatchObject({ output: [], cursor: 8 });
  });

  it("keeps a session to its project: a registry of another workdir sharing the directory does not find it", async () => {
    const harness = host();
    const started = await harness.call("Bash", { command: "echo up; exec sleep 300", yield_time_ms: 250 });
    const sessionId = detailsOf(started).session_id as string;
    const elsewhere = host();
    for (const tool of ["ProcessWait", "ProcessStop"]) {
      const result = await elsewhere.call(tool, { session_id: sessionId, ...(tool === "ProcessWait" ? { yield_time_ms: 500 } : {}) });
      expect(result.error?.code).toBe("not_found");
    }
    expect(isProcessAlive(stateOf(sessionId).pid as number)).toBe(true);
    const same = host(harness.workdir);
    expect(detailsOf(await same.call("ProcessStop", { session_id: sessionId })).status).toBe("cancelled");
  });

  it("enforces timeout_ms in the supervisor: the tree is killed and the status is timed_out", async () => {
    const harness = host();
    const started = await harness.call("Bash", { command: "echo start; exec sleep 300", timeout_ms: 1_000, yield_time_ms: 250 });
    const sessionId = detailsOf(started).session_id as string;
    const pid = stateOf(sessionId).pid as number;
    const waited = await harness.call("ProcessWait", { session_id: sessionId, yield_time_ms: 10_000 });
    expect(detailsOf(waited)).toMatchObject({ status: "timed_out", timeout_ms: 1_000 });
    expect(isProcessAlive(pid)).toBe(false);
  });

  it("refuses session ids that are not a plain name, and an id no directory has is not found", async () => {
    const harness = host();
    // A directory beside the sessions directory that a traversal would reach.
    mkdirSync(path.join(path.dirname(dir), "victim"));
    for (const sessionId of ["../victim", "a/b", "..", "bash-1/../../victim"]) {
      const result = await harness.call("ProcessWait", { session_id: sessionId, yield_time_ms: 5_000 });
      expect(result.error?.code).toBe("invalid_arguments");
    }
    for (const sessionId of ["bash:1", "bash-0000"]) {
      const result = await harness.call("ProcessWait", { session_id: sessionId, yield_time_ms: 5_000 });
      expect(result.error?.code).toBe("not_found");
    }
  });

  it("holds at most maxSessions running sessions in the directory, also those another host started", async () => {
    const first = createHarness("chat", { durableSessions: { dir }, maxSessions: 1 });
    harnesses.push(first);
    const running = await first.call("Bash", { command: "echo up; exec sleep 300", yield_time_ms: 250 });
    expect(detailsOf(running).status).toBe("running");
    const second = createHarness("chat", { durableSessions: { dir }, maxSessions: 1 });
    harnesses.push(second);
    const refused = await second.call("Bash", { command: "echo second" });
    expect(refused.error?.code).toBe("limit_reached");
    await first.call("ProcessStop", { session_id: detailsOf(running).session_id });
    await until(() => stateOf(detailsOf(running).session_id).treeEnded === true);
    await until(() => !isProcessAlive(stateOf(detailsOf(running).session_id).supervisorPid));
    expect(detailsOf(await second.call("Bash", { command: "echo second" })).status).toBe("completed");
  });

  it("removes the directories of sessions over for longer than retentionMs, never one still supervised", async () => {
    const first = createHarness("chat", { durableSessions: { dir, retentionMs: 0 } });
    harnesses.push(first);
    const over = detailsOf(await first.call("Bash", { command: "echo done" })).session_id as string;
    const alive = detailsOf(await first.call("Bash", { command: "echo up; exec sleep 300", yield_time_ms: 250 })).session_id as string;
    await until(() => !isProcessAlive(stateOf(over).supervisorPid));
    writeFileSync(path.join(dir, "not-a-session.txt"), "kept");
    // A new host prunes at its first start.
    const second = createHarness("chat", { durableSessions: { dir, retentionMs: 0 } });
    harnesses.push(second);
    const fresh = detailsOf(await second.call("Bash", { command: "echo fresh" })).session_id as string;
    expect(readdirSync(dir).sort()).toEqual([alive, fresh, "not-a-session.txt"].sort());
  });

  it("fails closed on the option: unknown keys, a relative dir, a dir inside the workspace", async () => {
    expect(() => createShellToolBundle({ durableSessions: { dir, ttl: 1 } as never })).toThrow(/Unknown durableSessions option\(s\): ttl/);
    expect(() => createShellToolBundle({ durableSessions: { dir: "relative/sessions" } })).toThrow(/absolute/);
    expect(() => createShellToolBundle({ durableSessions: { dir, retentionMs: -1 } })).toThrow(/retentionMs/);
    const workdir = path.join(path.dirname(dir), "work");
    mkdirSync(workdir);
    const registry = createNodeToolRegistry({
      workdir,
      dataDir: workdir,
      bundles: [createShellToolBundle({ durableSessions: { dir: path.join(workdir, ".sessions") } })],
    });
    const result = await registry.executeToolCall({ id: "1", name: "Bash", arguments: { command: "echo hi" } });
    await registry.close();
    expect(result.error?.code).toBe("unavailable");
    expect(textOf(result)).toContain("inside the workspace");
  });
});

function statSafe(file: string): boolean {
  try {
    return statSync(file).size > 0;
  } catch {
    return false;
  }
}
