/**
 * Durable shell sessions (issue 36) and what else a registry lets the model write or read: roots granted
 * with write access (the file tools write there, a sandboxed command too) and, with the bubblewrap
 * sandbox, the read-only view of the whole file system a confined command gets. Without the option a
 * session's output lives in the host's memory; with it, it is a file under `durableSessions.dir`.
 * The victims are processes this test starts itself; every one is killed at the end.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { NodeDurableProcessLauncher } from "@agent-tools/node/internal";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, afterEach, describe, expect, it } from "vitest";

// Not under /tmp: a confined command gets a private /tmp, which would hide the directory by accident.
const temporary = fs.realpathSync(fs.mkdtempSync(path.join(fs.existsSync("/var/tmp") ? "/var/tmp" : os.homedir(), "attack-durable-confine-")));
const children: ChildProcess[] = [];
const sessionDirs: string[] = [];
let counter = 0;

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  const launcher = new NodeDurableProcessLauncher();
  for (const dir of sessionDirs.splice(0)) {
    for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      if (entry.isDirectory() && entry.name !== "bash-evil") await launcher.stop(path.join(dir, entry.name), { graceMs: 50 });
    }
  }
});
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));

function scratch(): string {
  counter += 1;
  const root = path.join(temporary, `case-${counter}`);
  fs.mkdirSync(path.join(root, "work"), { recursive: true });
  return root;
}

describe("a sessions directory inside a root granted with write access", () => {
  it("ProcessStop on a session forged there with Write does not kill the process its state.json names", async () => {
    const root = scratch();
    const workdir = path.join(root, "work");
    const shared = path.join(root, "shared");
    const dir = path.join(shared, "sessions");
    fs.mkdirSync(shared);
    sessionDirs.push(dir);
    const target = spawn("sleep", ["300"], { stdio: "ignore" });
    children.push(target);
    const stat = fs.readFileSync(`/proc/${target.pid}/stat`, "utf8");
    const startTime = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]!;
    const registry = await buildBuiltinToolRegistry({
      workdir,
      additionalRoots: [{ alias: "shared", path: shared, access: "write" }],
      shell: { durableSessions: { dir } },
    });
    try {
      const now = Date.now();
      const spec = {
        command: "sleep 1",
        cwd: workdir,
        createdAt: now,
        meta: { kind: "bash", id: "bash-evil", command: "sleep 1", cwd: workdir, sandbox: "none" },
      };
      const state = { version: 1, supervisorPid: 0, supervisorStartTime: null, pid: target.pid, pidStartTime: startTime, tag: "dforged" };
      const forged = {
        ...state,
        startedAt: now,
        status: "running",
        exitCode: null,
        signal: null,
        endedAt: null,
        descendantsAlive: [],
        treeEnded: false,
        updatedAt: now,
      };
      for (const [file, content] of [
        ["spec.json", JSON.stringify(spec)],
        ["state.json", JSON.stringify(forged)],
      ] as const) {
        const written = await registry.executeToolCall({
          id: `w-${file}`,
          name: "Write",
          arguments: { path: `root://shared/sessions/bash-evil/${file}`, content },
        });
        expect(written.isError, toolResultText(written, "")).not.toBe(true);
      }
      await registry.executeToolCall({ id: "stop", name: "ProcessStop", arguments: { session_id: "bash-evil" } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(target.exitCode === null && target.signalCode === null).toBe(true);
      // Nor does Bash run there: the sessions directory would be as writable to it.
      const bash = await registry.executeToolCall({ id: "b1", name: "Bash", arguments: { command: "echo ran > ran.txt" } });
      expect(bash.isError).toBe(true);
      expect(fs.existsSync(path.join(workdir, "ran.txt"))).toBe(false);
    } finally {
      await registry.close();
    }
  }, 30_000);
});

describe("a sandboxed command and the sessions directory", () => {
  it("a confined Bash command cannot read another session's output.log (nor its spec.json)", async () => {
    const root = scratch();
    const workdir = path.join(root, "work");
    const dir = path.join(root, "sessions");
    sessionDirs.push(dir);
    const registry = await buildBuiltinToolRegistry({ workdir, sandbox: { enabled: true }, shell: { durableSessions: { dir } } });
    try {
      // Another command of the host (another project sharing the directory would do the same) printed a secret.
      const first = await registry.executeToolCall({ id: "b1", name: "Bash", arguments: { command: "printf 'TOKEN-%s\\n' 7f3a9c" } });
      expect(toolResultText(first, ""), JSON.stringify(first.details)).toContain("TOKEN-7f3a9c");
      expect((first.details as { sandbox?: string }).sandbox).toBe("bubblewrap");
      const snoop = await registry.executeToolCall({
        id: "b2",
        name: "Bash",
        arguments: { command: `cat ${dir}/*/output.log ${dir}/*/spec.json 2>&1; ls -la ${dir} 2>&1; true` },
      });
      const text = toolResultText(snoop, "");
      expect(text).not.toContain("TOKEN-7f3a9c");
      expect(text).not.toContain("printf");
    } finally {
      await registry.close();
    }
  }, 30_000);

  // Open (issue 36): a confined command may write only to the workspace and the granted roots, but it
  // holds output.log (under durableSessions.dir, outside all of them) as its stdout and nothing bounds
  // it: "nothing is ever evicted", where an in-memory session keeps 1 MiB. A command printing without
  // end fills the file system of the host's data directory. Fixing it needs a bound the supervisor
  // enforces (it polls the log's size and stops the tree, or punches out the oldest bytes while keeping
  // offsets with fallocate(PUNCH_HOLE), which Node cannot call), with a host option and a status for it.
  it.fails("a confined command cannot grow output.log without bound outside its writable roots", async () => {
    const root = scratch();
    const workdir = path.join(root, "work");
    const dir = path.join(root, "sessions");
    sessionDirs.push(dir);
    const registry = await buildBuiltinToolRegistry({ workdir, sandbox: { enabled: true }, shell: { durableSessions: { dir } } });
    try {
      const result = await registry.executeToolCall({ id: "b1", name: "Bash", arguments: { command: "head -c 100000000 /dev/zero", yield_time_ms: 10_000 } });
      const sessionId = (result.details as { session_id: string }).session_id;
      expect((result.details as { sandbox?: string }).sandbox).toBe("bubblewrap");
      // Bash answered with the first page; the command writes on until it ends.
      const deadline = Date.now() + 30_000;
      const ended = () => fs.readFileSync(path.join(dir, sessionId, "state.json"), "utf8").includes('"treeEnded":true');
      while (!ended() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      const size = fs.statSync(path.join(dir, sessionId, "output.log")).size;
      expect(size).toBeLessThan(64 * 1024 * 1024);
    } finally {
      await registry.close();
    }
  }, 60_000);
});
