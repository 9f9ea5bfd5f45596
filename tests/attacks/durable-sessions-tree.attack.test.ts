/**
 * Durable shell sessions (issue 36) against the command itself: processes that leave the tree with
 * nothing to find them by (no tag, own session, parent gone), and a command that kills its own
 * supervisor. The model controls the command line; ProcessWait/ProcessStop are its only other levers.
 * Every process started here is killed at the end by pid.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { NodeDurableProcessLauncher, isProcessAlive } from "@agent-tools/node/internal";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, afterEach, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-durable-tree-")));
const strays: number[] = [];
const sessionDirs: string[] = [];
let counter = 0;

afterEach(async () => {
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  const launcher = new NodeDurableProcessLauncher();
  for (const dir of sessionDirs.splice(0)) {
    for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      if (entry.isDirectory()) await launcher.stop(path.join(dir, entry.name), { graceMs: 50 });
    }
  }
});
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));

async function project(): Promise<{ workdir: string; dir: string; registry: Awaited<ReturnType<typeof buildBuiltinToolRegistry>> }> {
  counter += 1;
  const root = path.join(temporary, `case-${counter}`);
  const workdir = path.join(root, "work");
  const dir = path.join(root, "sessions");
  fs.mkdirSync(workdir, { recursive: true });
  sessionDirs.push(dir);
  const registry = await buildBuiltinToolRegistry({ workdir, shell: { durableSessions: { dir } } });
  return { workdir, dir, registry };
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function pidIn(file: string): number {
  return Number(fs.readFileSync(file, "utf8").trim());
}

describe("processes that leave the tree", () => {
  // Open (issue 36): a process that drops AGENT_TOOLS_PROCESS_TREE from its environment, starts a
  // session of its own and loses its parent (double fork) keeps no link the supervisor or the host can
  // follow: its parent is init (or the nearest subreaper), its group and session are its own, its
  // environment has no tag. Finding it needs the supervisor to be a child subreaper
  // (prctl(PR_SET_CHILD_SUBREAPER), which Node cannot call) or a cgroup per session (delegation is not
  // available to every host); without one, "ProcessStop kills the whole tree" holds for processes that
  // keep the tag, their group, their session or a parent in the tree, not for this one.
  it.fails("ProcessStop kills, and ProcessWait reports, a double-forked process with no tag in a session of its own", async () => {
    const { workdir, registry } = await project();
    try {
      const started = await registry.executeToolCall({
        id: "b1",
        name: "Bash",
        arguments: { command: "env -u AGENT_TOOLS_PROCESS_TREE setsid sh -c 'sleep 300 & echo $! > escaped.pid' & sleep 1; exit 0", yield_time_ms: 3000 },
      });
      const details = started.details as { session_id: string; status: string; descendants_alive?: number[] };
      await until(() => fs.existsSync(path.join(workdir, "escaped.pid")) && fs.readFileSync(path.join(workdir, "escaped.pid"), "utf8").endsWith("\n"));
      const escaped = pidIn(path.join(workdir, "escaped.pid"));
      strays.push(escaped);
      expect(isProcessAlive(escaped)).toBe(true);
      const wait = await registry.executeToolCall({ id: "w1", name: "ProcessWait", arguments: { session_id: details.session_id, yield_time_ms: 500 } });
      const stop = await registry.executeToolCall({ id: "s1", name: "ProcessStop", arguments: { session_id: details.session_id } });
      expect(toolResultText(stop, "")).toBeDefined();
      await until(() => !isProcessAlive(escaped), 3_000).catch(() => undefined);
      expect(isProcessAlive(escaped)).toBe(false);
      expect((wait.details as { descendants_alive?: number[] }).descendants_alive ?? []).toContain(escaped);
    } finally {
      await registry.close();
    }
  }, 30_000);
});

describe("a command that kills its supervisor", () => {
  it("ProcessStop still ends the command, and the session then reads cancelled (the stop was asked), not lost", async () => {
    const { workdir, registry } = await project();
    try {
      const started = await registry.executeToolCall({
        id: "b1",
        name: "Bash",
        arguments: { command: "echo $$ > shell.pid; kill -9 $PPID; echo supervisor gone; sleep 300", yield_time_ms: 1000 },
      });
      const details = started.details as { session_id: string; status: string };
      await until(() => fs.existsSync(path.join(workdir, "shell.pid")));
      const shell = pidIn(path.join(workdir, "shell.pid"));
      strays.push(shell);
      expect(details.status).toBe("running");
      const stop = await registry.executeToolCall({ id: "s1", name: "ProcessStop", arguments: { session_id: details.session_id } });
      await until(() => !isProcessAlive(shell), 5_000);
      expect((stop.details as { status: string }).status).toBe("cancelled");
      const wait = await registry.executeToolCall({ id: "w1", name: "ProcessWait", arguments: { session_id: details.session_id, cursor: 0 } });
      expect((wait.details as { status: string }).status).toBe("cancelled");
      expect(toolResultText(wait, "")).toContain("supervisor gone");
    } finally {
      await registry.close();
    }
  }, 30_000);

  it("a command that kills its supervisor and exits reads lost (exit unknown) with its whole output", async () => {
    const { registry } = await project();
    try {
      const started = await registry.executeToolCall({
        id: "b1",
        name: "Bash",
        arguments: { command: "kill -9 $PPID; for i in 1 2 3; do echo line $i; done; exit 0", yield_time_ms: 3000 },
      });
      const details = started.details as { session_id: string };
      const wait = await registry.executeToolCall({
        id: "w1",
        name: "ProcessWait",
        arguments: { session_id: details.session_id, cursor: 0, yield_time_ms: 3000 },
      });
      expect((wait.details as { status: string }).status, JSON.stringify([started.details, wait.details, toolResultText(wait, "")])).toBe("lost");
      expect(toolResultText(wait, "")).toContain("line 1\nline 2\nline 3\n");
    } finally {
      await registry.close();
    }
  }, 30_000);
});
