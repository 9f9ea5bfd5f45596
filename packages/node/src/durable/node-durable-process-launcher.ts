import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SdkError, ToolError } from "@agent-tools/core";
import { PROCESS_TREE_TAG_VARIABLE, type ProcessInfo, readProcessTable, readProcessTreeTag } from "../process-tree.js";
import type {
  DurableLaunchRequest,
  DurableLogRead,
  DurableProcessLauncher,
  DurableProcessSpec,
  DurableProcessView,
  DurableSupervisorState,
} from "./durable-process-types.js";
import { createPrivateDirectory, fileSizeNoFollow, readFileRange, readJsonFile, writeNewFile } from "./durable-session-files.js";

/** The variable that hands the supervisor its tree tag (the command gets it as `AGENT_TOOLS_PROCESS_TREE`). */
const TAG_VARIABLE = "AGENT_TOOLS_DURABLE_TAG";
const LAUNCH_TIMEOUT_MS = 10_000;
const POLL_MS = 10;
const KILL_POLL_MS = 25;
const GIVE_UP_AFTER_KILL_MS = 5_000;

/**
 * The supervisor script. From the sources it sits beside this file; tsc does
 * not copy it to dist, and the package ships its sources, so from dist it is
 * found in `../../src/durable/`.
 */
function supervisorScript(): string {
  const beside = fileURLToPath(new URL("./durable-supervisor.mjs", import.meta.url));
  if (existsSync(beside)) return beside;
  return fileURLToPath(new URL("../../src/durable/durable-supervisor.mjs", import.meta.url));
}

/**
 * The Node {@link DurableProcessLauncher}: each command runs under
 * `durable-supervisor.mjs`, started detached (its own session) with a
 * minimal environment; the command itself runs in its own session and
 * process group with its environment (sent over the supervisor's stdin,
 * never written to disk) plus a tree tag, its stdout and stderr appended to
 * `output.log` by the command itself. Processes are identified by pid and
 * start time, so a recycled pid is never signalled; descendants that left
 * the group are found by the tag.
 *
 * @example
 * const launcher = new NodeDurableProcessLauncher();
 * await launcher.launch({ directory: "/var/lib/host/sessions/s1", command: "npm test", shell: "/bin/bash", cwd: "/work" });
 * const view = launcher.inspect("/var/lib/host/sessions/s1");
 */
export class NodeDurableProcessLauncher implements DurableProcessLauncher {
  async launch(request: DurableLaunchRequest): Promise<DurableSupervisorState> {
    if (!path.isAbsolute(request.directory)) throw new SdkError("invalid_options", `A durable session directory must be absolute (got ${request.directory}).`);
    if (!path.isAbsolute(request.cwd)) throw new SdkError("invalid_options", `A durable command's cwd must be absolute (got ${request.cwd}).`);
    createPrivateDirectory(request.directory);
    const spec: DurableProcessSpec = {
      command: request.command,
      ...(request.shell === undefined ? {} : { shell: request.shell }),
      ...(request.args === undefined ? {} : { args: [...request.args] }),
      cwd: request.cwd,
      ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
      ...(request.meta === undefined ? {} : { meta: request.meta }),
      createdAt: Date.now(),
    };
    writeNewFile(path.join(request.directory, "spec.json"), `${JSON.stringify(spec)}\n`);
    writeNewFile(path.join(request.directory, "output.log"), "");
    const tag = `d${randomUUID().replace(/-/g, "")}`;
    const environment: Record<string, string> = {};
    const merged = request.extendEnv === false ? { ...request.env } : { ...process.env, ...request.env };
    for (const [key, value] of Object.entries(merged)) if (value !== undefined && key !== PROCESS_TREE_TAG_VARIABLE) environment[key] = value;
    const supervisor = spawn(process.execPath, [supervisorScript(), request.directory], {
      cwd: request.directory,
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
      // Only what Node needs: no NODE_OPTIONS of the host (a loader), no tree tag an outer runner would kill by.
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", [TAG_VARIABLE]: tag },
    });
    let spawnError: Error | undefined;
    supervisor.on("error", (error) => (spawnError = error));
    supervisor.stdin?.on("error", () => undefined);
    supervisor.stdin?.end(JSON.stringify(environment));
    supervisor.unref();
    const deadline = Date.now() + LAUNCH_TIMEOUT_MS;
    for (;;) {
      const state = this.readState(request.directory);
      if (state && state.status !== "starting") return state;
      if (spawnError) throw new ToolError("unavailable", `The durable session supervisor could not start: ${spawnError.message}`);
      // Gone before recording the command's pid (killed, by the command itself too): what it recorded is all there is;
      // the session reads lost and its tree is found by the tag.
      const gone = supervisor.exitCode !== null || supervisor.signalCode !== null;
      const last = gone ? this.readState(request.directory) : undefined;
      if (last) return last;
      if (Date.now() >= deadline || gone) {
        throw new ToolError("unavailable", `The durable session supervisor did not report the start of the command in ${request.directory}.`);
      }
      await sleep(POLL_MS);
    }
  }

  readSpec(directory: string): DurableProcessSpec | undefined {
    const spec = readJsonFile<DurableProcessSpec>(path.join(directory, "spec.json"));
    return spec && typeof spec.command === "string" && typeof spec.cwd === "string" ? spec : undefined;
  }

  inspect(directory: string): DurableProcessView {
    const state = this.readState(directory);
    if (!state) return { state: undefined, supervisorAlive: false, processAlive: false };
    return {
      state,
      supervisorAlive: isSameProcess(state.supervisorPid, state.supervisorStartTime),
      processAlive: isSameProcess(state.pid, state.pidStartTime),
    };
  }

  treeMembers(directory: string): number[] {
    const state = this.readState(directory);
    return state ? treeOf(state, readProcessTable()) : [];
  }

  readLog(directory: string, from: number, maxBytes: number): DurableLogRead {
    return readFileRange(path.join(directory, "output.log"), from, maxBytes);
  }

  logSize(directory: string): number {
    return fileSizeNoFollow(path.join(directory, "output.log"));
  }

  async stop(directory: string, options: { readonly graceMs?: number } = {}): Promise<void> {
    const state = this.readState(directory);
    if (!state) return;
    const graceMs = options.graceMs ?? 300;
    const killAt = Date.now() + graceMs;
    const giveUpAt = killAt + GIVE_UP_AFTER_KILL_MS;
    const signalled = new Set<number>();
    for (;;) {
      const alive = treeOf(state, readProcessTable());
      if (alive.length === 0 || Date.now() >= giveUpAt) return;
      const late = Date.now() >= killAt;
      for (const pid of alive) {
        if (late) send(pid, "SIGKILL");
        else if (!signalled.has(pid)) {
          signalled.add(pid);
          send(pid, "SIGTERM");
        }
      }
      await sleep(KILL_POLL_MS);
    }
  }

  private readState(directory: string): DurableSupervisorState | undefined {
    const state = readJsonFile<DurableSupervisorState>(path.join(directory, "state.json"));
    return state && state.version === 1 && typeof state.tag === "string" ? state : undefined;
  }
}

/**
 * The live processes of a durable tree: those carrying its tag; the group and
 * session of the command while its pid is unused or still the command (the
 * kernel never hands out a pid that still names a group or session, so a
 * dead command's id still means its own group); then every descendant.
 * The supervisor is never part of it.
 */
function treeOf(state: DurableSupervisorState, table: readonly ProcessInfo[]): number[] {
  const rootStill = state.pid > 0 && (readStartTime(state.pid) === undefined || isSameProcess(state.pid, state.pidStartTime));
  const members = new Set<number>();
  for (const info of table) {
    if (info.pid === process.pid || info.pid === 1 || info.pid === state.supervisorPid) continue;
    if (rootStill && (info.pid === state.pid || info.processGroupId === state.pid || info.sessionId === state.pid)) members.add(info.pid);
    else if (readProcessTreeTag(info.pid) === state.tag) members.add(info.pid);
  }
  let grew = true;
  while (grew) {
    grew = false;
    for (const info of table) {
      if (!members.has(info.pid) && members.has(info.parentPid) && info.pid !== state.supervisorPid) {
        members.add(info.pid);
        grew = true;
      }
    }
  }
  const dead = new Set(table.filter((info) => info.state === "Z" || info.state === "X").map((info) => info.pid));
  return [...members].filter((pid) => !dead.has(pid)).sort((a, b) => a - b);
}

/** The start time field of `/proc/<pid>/stat` (clock ticks since boot); undefined when the process is gone. */
export function readStartTime(pid: number): string | undefined {
  if (pid <= 0) return undefined;
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  if (fields[0] === "Z" || fields[0] === "X") return undefined;
  return fields[19];
}

/** Alive, not a zombie, and started at the recorded time. */
function isSameProcess(pid: number, startTime: string | null): boolean {
  if (pid <= 0 || startTime === null) return false;
  return readStartTime(pid) === startTime;
}

function send(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // gone already
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
