/**
 * Durable shell sessions (issue 36) against a sessions directory someone else could write to: a host
 * that put `durableSessions.dir` inside the workspace (directly or behind a symlink), and a new host
 * pointed at a directory holding session folders planted earlier. The model here has only what its
 * tools give it (Write in the workspace, ProcessWait/ProcessStop with a session_id of its choice).
 * The victims are processes this test starts itself; every one is killed at the end.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { toolResultText } from "@agent-tools/core";
import { NodeDurableProcessLauncher } from "@agent-tools/node/internal";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, afterEach, describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-durable-planted-")));
const children: ChildProcess[] = [];
const sessionDirs: string[] = [];
let counter = 0;

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  const launcher = new NodeDurableProcessLauncher();
  for (const dir of sessionDirs.splice(0)) {
    for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      if (entry.isDirectory() && entry.name.startsWith("bash-") && entry.name !== "bash-evil") await launcher.stop(path.join(dir, entry.name), { graceMs: 50 });
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

/** A process of this test that a forged state.json points at. */
function victim(): { child: ChildProcess; startTime: string } {
  const child = spawn("sleep", ["300"], { stdio: "ignore" });
  children.push(child);
  const stat = fs.readFileSync(`/proc/${child.pid}/stat`, "utf8");
  const startTime = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]!;
  return { child, startTime };
}

/** spec.json and state.json of a session the host never started, pointing at `pid`. */
function forgedSession(id: string, workdir: string, pid: number, startTime: string): { spec: string; state: string } {
  const now = Date.now();
  const spec = { command: "sleep 1", cwd: workdir, createdAt: now, meta: { kind: "bash", id, command: "sleep 1", cwd: workdir, sandbox: "none" } };
  const state = {
    version: 1,
    supervisorPid: 0,
    supervisorStartTime: null,
    pid,
    pidStartTime: startTime,
    tag: "dforged",
    startedAt: now,
    status: "running",
    exitCode: null,
    signal: null,
    endedAt: null,
    descendantsAlive: [],
    treeEnded: false,
    updatedAt: now,
  };
  return { spec: JSON.stringify(spec), state: JSON.stringify(state) };
}

async function stillAlive(child: ChildProcess): Promise<boolean> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  return child.exitCode === null && child.signalCode === null;
}

/**
 * Runs one tool call in a host process of its own (durable-sessions-host.mjs); undefined when the call
 * did not answer within `timeoutMs` of the host's ready line (its event loop blocked).
 */
function callInHost(workdir: string, dir: string, name: string, args: unknown, timeoutMs: number): Promise<{ isError: boolean; text: string } | undefined> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "--conditions=@agent-tools/source", path.join(here, "durable-sessions-host.mjs"), workdir, dir, name, JSON.stringify(args)],
      { cwd: here, stdio: ["ignore", "pipe", "inherit"] },
    );
    children.push(child);
    let output = "";
    let timer: NodeJS.Timeout | undefined;
    const finish = (answer: { isError: boolean; text: string } | undefined) => {
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      resolve(answer);
    };
    timer = setTimeout(() => finish(undefined), 90_000);
    child.stdout?.on("data", (data: Buffer) => {
      output += data.toString("utf8");
      const lines = output.split("\n").filter((line) => line !== "");
      const parsed = lines.map((line) => JSON.parse(line) as { ready?: boolean; isError: boolean; text: string });
      const answer = parsed.find((line) => line.ready !== true);
      if (answer) finish(answer);
      else if (parsed.some((line) => line.ready === true) && output.endsWith("\n")) {
        clearTimeout(timer);
        timer = setTimeout(() => finish(undefined), timeoutMs);
      }
    });
    child.on("exit", () => finish(undefined));
  });
}

describe("a sessions directory inside the workspace", () => {
  it("ProcessStop on a session the model forged with Write does not kill the process its state.json names", async () => {
    const root = scratch();
    const workdir = path.join(root, "work");
    const dir = path.join(workdir, ".agent", "sessions");
    sessionDirs.push(dir);
    const target = victim();
    const registry = await buildBuiltinToolRegistry({ workdir, shell: { durableSessions: { dir } } });
    try {
      const forged = forgedSession("bash-evil", workdir, target.child.pid!, target.startTime);
      for (const [file, content] of [
        ["spec.json", forged.spec],
        ["state.json", forged.state],
      ] as const) {
        const written = await registry.executeToolCall({ id: `w-${file}`, name: "Write", arguments: { path: `.agent/sessions/bash-evil/${file}`, content } });
        expect(written.isError, toolResultText(written, "")).not.toBe(true);
      }
      const stop = await registry.executeToolCall({ id: "stop", name: "ProcessStop", arguments: { session_id: "bash-evil" } });
      expect(await stillAlive(target.child)).toBe(true);
      expect(stop.isError).toBe(true);
      const wait = await registry.executeToolCall({ id: "wait", name: "ProcessWait", arguments: { session_id: "bash-evil", yield_time_ms: 100 } });
      expect(wait.isError).toBe(true);
    } finally {
      await registry.close();
    }
  }, 30_000);

  it("Bash is refused when the sessions directory reaches the workspace through a symlink", async () => {
    const root = scratch();
    const workdir = path.join(root, "work");
    fs.symlinkSync(workdir, path.join(root, "alias"));
    const dir = path.join(root, "alias", ".sessions");
    sessionDirs.push(dir);
    const registry = await buildBuiltinToolRegistry({ workdir, shell: { durableSessions: { dir } } });
    try {
      const result = await registry.executeToolCall({ id: "b1", name: "Bash", arguments: { command: "echo ran > ran.txt" } });
      expect(result.isError).toBe(true);
      expect(toolResultText(result, "")).toContain("inside the workspace");
      expect(fs.existsSync(path.join(workdir, "ran.txt"))).toBe(false);
    } finally {
      await registry.close();
    }
  }, 30_000);

  it("Bash is refused when the workspace is named through a symlink and the sessions directory by its real path", async () => {
    const root = scratch();
    const real = path.join(root, "work");
    const alias = path.join(root, "alias");
    fs.symlinkSync(real, alias);
    const dir = path.join(real, ".sessions");
    sessionDirs.push(dir);
    const registry = await buildBuiltinToolRegistry({ workdir: alias, shell: { durableSessions: { dir } } });
    try {
      const result = await registry.executeToolCall({ id: "b1", name: "Bash", arguments: { command: "echo ran > ran.txt" } });
      expect(result.isError).toBe(true);
      expect(fs.existsSync(path.join(real, "ran.txt"))).toBe(false);
    } finally {
      await registry.close();
    }
  }, 30_000);
});

describe("a new host on a directory holding planted session folders", () => {
  it("a FIFO planted as state.json does not freeze the host: ProcessWait answers", async () => {
    const root = scratch();
    const workdir = path.join(root, "work");
    const dir = path.join(root, "sessions");
    fs.mkdirSync(path.join(dir, "bash-fifo"), { recursive: true, mode: 0o700 });
    const forged = forgedSession("bash-fifo", workdir, 999_999, "1");
    fs.writeFileSync(path.join(dir, "bash-fifo", "spec.json"), forged.spec);
    await new Promise<void>((resolve, reject) =>
      execFile("mkfifo", [path.join(dir, "bash-fifo", "state.json"), path.join(dir, "bash-fifo", "output.log")], (error) =>
        error ? reject(error) : resolve(),
      ),
    );
    const answer = await callInHost(workdir, dir, "ProcessWait", { session_id: "bash-fifo", yield_time_ms: 100 }, 10_000);
    expect(answer).toBeDefined();
    expect(answer?.text).toContain("bash-fifo");
  }, 120_000);

  it("a huge planted state.json is not read whole into the host's memory", async () => {
    const root = scratch();
    const workdir = path.join(root, "work");
    const dir = path.join(root, "sessions");
    fs.mkdirSync(path.join(dir, "bash-huge"), { recursive: true, mode: 0o700 });
    const target = victim();
    const forged = forgedSession("bash-huge", workdir, target.child.pid!, target.startTime);
    fs.writeFileSync(path.join(dir, "bash-huge", "spec.json"), forged.spec);
    // Valid JSON naming a live process, padded to 64 MiB: a reader with no size bound parses it all on every poll.
    const padded = `${forged.state.slice(0, -1)},"pad":"${"x".repeat(64 * 1024 * 1024)}"}`;
    fs.writeFileSync(path.join(dir, "bash-huge", "state.json"), padded);
    const registry = await buildBuiltinToolRegistry({ workdir, shell: { durableSessions: { dir } } });
    try {
      const wait = await registry.executeToolCall({ id: "wait", name: "ProcessWait", arguments: { session_id: "bash-huge", yield_time_ms: 100 } });
      // Read as a state, it names a running process; refused, the session reads as lost (or unknown).
      expect((wait.details as { status?: string } | undefined)?.status).not.toBe("running");
    } finally {
      await registry.close();
    }
  }, 30_000);
});
