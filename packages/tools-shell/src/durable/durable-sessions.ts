import { mkdirSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { SdkError, type SpawnOptions, ToolError } from "@agent-tools/core";
import {
  type DurableProcessLauncher,
  type DurableSupervisorState,
  NodeDurableProcessLauncher,
  readJsonFile,
  writeJsonAtomic,
} from "@agent-tools/node/internal";
import { MAX_SHELL_SESSIONS } from "../shell-session-store.js";
import { DURABLE_ID_PATTERN, surveyDurableSessions } from "./durable-session-survey.js";
import { type DurableSessionMeta, DurableShellSession } from "./durable-shell-session.js";

/** The host option that makes Bash sessions durable (see `ShellToolBundleOptions.durableSessions`). */
export interface DurableSessionsOptions {
  /**
   * Absolute directory holding one subdirectory (mode 0700) per session;
   * created (0700) when missing. Keep it outside every workspace a command
   * can write to. The same directory in a later host process reattaches.
   */
  readonly dir: string;
  /** Starts and finds supervised processes; default `NodeDurableProcessLauncher`. */
  readonly launcher?: DurableProcessLauncher;
  /** How long the directory of a session that is over is kept after it was last written; default 24 hours. */
  readonly retentionMs?: number;
}

const OPTION_KEYS = new Set(["dir", "launcher", "retentionMs"]);
/** Default time a finished session's directory is kept: 24 hours. */
export const DURABLE_SESSION_RETENTION_MS = 24 * 60 * 60 * 1000;
/** Old directories are looked for at most this often (at a start). */
const PRUNE_INTERVAL_MS = 60_000;

/** What {@link DurableSessions.launchManaged} starts. */
export interface ManagedLaunchOptions {
  readonly command: string;
  readonly cwd: string;
  readonly shell: string;
  readonly env?: Record<string, string>;
  readonly confine?: (options: SpawnOptions) => SpawnOptions;
}

/** What {@link DurableSessions.start} starts. */
export interface DurableStartOptions {
  readonly id: string;
  readonly command: string;
  readonly cwd: string;
  readonly shell: string;
  readonly env: Record<string, string>;
  readonly timeoutMs?: number;
  readonly sandbox: string;
  /** Rewrites the spawn for the registry's sandbox. */
  readonly confine?: (options: SpawnOptions) => SpawnOptions;
  /** The registry's workspace root: the sessions directory must not be inside it. */
  readonly workdir: string;
  /** More directories the call may write to (roots granted with write access, the sandbox's `writableRoots`): nor inside these. */
  readonly writableRoots?: readonly string[];
}

/**
 * The durable Bash sessions of one bundle: each started under a supervisor
 * in `<dir>/<session id>/`, and found again there by id from any host
 * process given the same `dir`. Nothing is killed when the bundle closes:
 * outliving the host is the point; ProcessStop ends a session.
 */
export class DurableSessions {
  readonly dir: string;
  /** Starts and finds the supervised processes. */
  readonly launcher: DurableProcessLauncher;
  /** Sessions this object built; each reads its state from disk on use. */
  private readonly known = new Map<string, DurableShellSession>();

  private readonly retentionMs: number;
  private readonly maxSessions: number;
  private lastPrune = 0;

  constructor(options: DurableSessionsOptions, maxSessions = MAX_SHELL_SESSIONS) {
    this.dir = options.dir;
    this.launcher = options.launcher ?? new NodeDurableProcessLauncher();
    this.retentionMs = options.retentionMs ?? DURABLE_SESSION_RETENTION_MS;
    this.maxSessions = maxSessions;
  }

  /**
   * Refuses a start (`limit_reached`) while `maxSessions` sessions of the
   * directory are supervised (also those of earlier hosts), and now and then
   * removes directories of sessions over for longer than the retention.
   */
  private admit(): void {
    const now = Date.now();
    const prune = now - this.lastPrune >= PRUNE_INTERVAL_MS;
    if (prune) this.lastPrune = now;
    const { running } = surveyDurableSessions(this.dir, this.launcher, prune ? this.retentionMs : undefined, now);
    if (running >= this.maxSessions) {
      throw new ToolError(
        "limit_reached",
        `durable shell session limit reached (${this.maxSessions}); every session is still running. Stop one with ProcessStop(session_id=...) or wait for one to finish with ProcessWait before starting another command.`,
        { details: { limit: this.maxSessions } },
      );
    }
  }

  /** Starts a session; the command is spawned by the supervisor, never by this process. */
  async start(options: DurableStartOptions): Promise<DurableShellSession> {
    this.refuseInside([options.workdir, ...(options.writableRoots ?? [])], "Bash");
    this.admit();
    const directory = this.directoryOf(options.id);
    let spawn: SpawnOptions = { command: options.command, shell: options.shell, cwd: options.cwd, env: options.env };
    if (options.confine) spawn = options.confine(spawn);
    const meta: DurableSessionMeta = {
      kind: "bash",
      id: options.id,
      command: options.command,
      cwd: options.cwd,
      workdir: options.workdir,
      sandbox: options.sandbox,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    };
    await this.launcher.launch({
      directory,
      command: spawn.command,
      ...(typeof spawn.shell === "string" ? { shell: spawn.shell } : spawn.shell === true ? { shell: "/bin/bash" } : {}),
      ...(spawn.args === undefined ? {} : { args: spawn.args }),
      cwd: spawn.cwd,
      ...(spawn.env === undefined ? {} : { env: spawn.env }),
      ...(spawn.extendEnv === undefined ? {} : { extendEnv: spawn.extendEnv }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      meta: { ...meta },
    });
    const session = new DurableShellSession(directory, meta, this.launcher);
    this.known.set(options.id, session);
    return session;
  }

  /**
   * The session with this id, from this process or from the directory
   * (reattach); undefined when unknown. Given the directories the calling
   * registry may write to (workspace first), throws `unavailable` when the
   * sessions directory is inside one (see {@link refuseInside}): a session
   * found there may be forged.
   */
  get(id: string, writable?: string | readonly string[]): DurableShellSession | undefined {
    if (writable !== undefined && this.isInside(writable)) {
      throw new ToolError(
        "unavailable",
        `Durable sessions are not looked up: the host's durable sessions directory (${this.dir}) is inside the workspace, where a command or a file write could forge a session. The host must move durableSessions.dir outside the workspace.`,
        { recoverable: false },
      );
    }
    if (!DURABLE_ID_PATTERN.test(id)) return undefined;
    const workspace = typeof writable === "string" ? writable : writable?.[0];
    const held = this.known.get(id);
    if (held) return held;
    const directory = this.directoryOf(id);
    const spec = this.launcher.readSpec(directory);
    const meta = spec?.meta as Partial<DurableSessionMeta> | undefined;
    if (
      !spec ||
      meta?.kind !== "bash" ||
      meta.id !== id ||
      typeof meta.sandbox !== "string" ||
      typeof meta.command !== "string" ||
      typeof meta.cwd !== "string" ||
      typeof meta.workdir !== "string" ||
      // Another project's session (a directory shared by several registries): not found, not readable, not stoppable.
      (workspace !== undefined && meta.workdir !== workspace)
    ) {
      return undefined;
    }
    const session = new DurableShellSession(directory, meta as DurableSessionMeta, this.launcher);
    this.known.set(id, session);
    return session;
  }

  /**
   * Throws `unavailable` when the sessions directory is inside `workdir`
   * (or one of several writable directories, workspace first), where a
   * command or a Write could tamper with it: compared as given and with every
   * symlink resolved, so an alias of either does not hide it.
   */
  refuseInside(workdir: string | readonly string[], toolName: string): void {
    if (this.isInside(workdir)) {
      throw new ToolError(
        "unavailable",
        `${toolName} did not run the command: the host's durable sessions directory (${this.dir}) is inside the workspace, where a command could tamper with it. The host must move durableSessions.dir outside the workspace.`,
        { recoverable: false },
      );
    }
  }

  private isInside(writable: string | readonly string[]): boolean {
    const real = realPathOf(this.dir);
    return (typeof writable === "string" ? [writable] : writable).some((root) => isInside(root, this.dir) || isInside(realPathOf(root), real));
  }

  /** The directory of a durable ManagedProcess (`managed-<process_id>`). */
  managedDirectory(processId: string): string {
    return this.directoryOf(`managed-${processId}`);
  }

  /** Starts a ManagedProcess command under a supervisor; resolves with its recorded start. */
  async launchManaged(processId: string, options: ManagedLaunchOptions): Promise<DurableSupervisorState> {
    this.admit();
    let spawn: SpawnOptions = { command: options.command, shell: options.shell, cwd: options.cwd, ...(options.env === undefined ? {} : { env: options.env }) };
    if (options.confine) spawn = options.confine(spawn);
    return this.launcher.launch({
      directory: this.managedDirectory(processId),
      command: spawn.command,
      ...(typeof spawn.shell === "string" ? { shell: spawn.shell } : spawn.shell === true ? { shell: "/bin/bash" } : {}),
      ...(spawn.args === undefined ? {} : { args: spawn.args }),
      cwd: spawn.cwd,
      ...(spawn.env === undefined ? {} : { env: spawn.env }),
      ...(spawn.extendEnv === undefined ? {} : { extendEnv: spawn.extendEnv }),
      meta: { kind: "managed", id: processId, command: options.command, cwd: options.cwd },
    });
  }

  /** A durable ManagedProcess's status: `stopped` after a stop, `exited` with its code, `running`; a process lost with no exit reads `exited` with a null code. */
  managedStatus(processId: string): { status: "running" | "exited" | "stopped"; exit_code: number | null } {
    const directory = this.managedDirectory(processId);
    const view = this.launcher.inspect(directory);
    const state = view.state;
    if (state && (state.status === "exited" || state.status === "timed_out")) {
      const stopped = readJsonFile<unknown>(path.join(directory, "stop.json")) !== undefined;
      return { status: stopped ? "stopped" : "exited", exit_code: state.exitCode ?? -1 };
    }
    if (state && (view.processAlive || view.supervisorAlive)) return { status: "running", exit_code: null };
    return { status: "exited", exit_code: null };
  }

  /** Stops a durable ManagedProcess's whole tree (the stop is recorded first, so its status reads `stopped`). */
  async stopManaged(processId: string, graceMs: number): Promise<void> {
    const directory = this.managedDirectory(processId);
    if (this.managedStatus(processId).status === "running") writeJsonAtomic(path.join(directory, "stop.json"), { requestedAt: Date.now() });
    await this.launcher.stop(directory, { graceMs });
    const deadline = Date.now() + 2_000;
    while (this.launcher.inspect(directory).state?.status === "running" && this.launcher.inspect(directory).supervisorAlive && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  private directoryOf(id: string): string {
    if (!DURABLE_ID_PATTERN.test(id)) {
      throw new ToolError("invalid_arguments", `A durable session id is 1-128 letters, digits, "-" or "_" (got ${JSON.stringify(id.slice(0, 140))}).`);
    }
    return path.join(this.dir, id);
  }
}

function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** The path with every symlink resolved; as given when it cannot be resolved. */
function realPathOf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/**
 * Checks the host's `durableSessions` option and creates its directory
 * (0700). Throws `SdkError` `invalid_options` naming what is wrong.
 */
export function createDurableSessions(options: unknown, maxSessions?: number): DurableSessions {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new SdkError("invalid_options", "durableSessions must be an object such as { dir: '/var/lib/my-host/shell-sessions' }.");
  }
  const unknown = Object.keys(options).filter((key) => !OPTION_KEYS.has(key));
  if (unknown.length > 0) {
    throw new SdkError("invalid_options", `Unknown durableSessions option(s): ${unknown.join(", ")}. Known: dir, launcher, retentionMs.`);
  }
  const { dir, launcher, retentionMs } = options as Partial<DurableSessionsOptions>;
  if (retentionMs !== undefined && (typeof retentionMs !== "number" || !Number.isFinite(retentionMs) || retentionMs < 0)) {
    throw new SdkError("invalid_options", `durableSessions.retentionMs must be a non-negative number of milliseconds (got ${JSON.stringify(retentionMs)}).`);
  }
  if (typeof dir !== "string" || !path.isAbsolute(dir)) {
    throw new SdkError("invalid_options", `durableSessions.dir must be an absolute directory path (got ${JSON.stringify(dir)}).`);
  }
  if (launcher !== undefined && (launcher === null || typeof launcher !== "object" || typeof launcher.launch !== "function")) {
    throw new SdkError("invalid_options", "durableSessions.launcher must be a DurableProcessLauncher (e.g. new NodeDurableProcessLauncher()).");
  }
  const resolved = path.resolve(dir);
  try {
    mkdirSync(resolved, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new SdkError("invalid_options", `durableSessions.dir ${resolved} cannot be created: ${error instanceof Error ? error.message : String(error)}.`);
  }
  const info = statSync(resolved);
  if (!info.isDirectory()) throw new SdkError("invalid_options", `durableSessions.dir ${resolved} is not a directory.`);
  // Whoever can write the directory can swap a session folder for a forged one (a state.json naming any of this user's processes).
  const euid = process.geteuid?.();
  if ((euid !== undefined && info.uid !== euid) || (info.mode & 0o022) !== 0) {
    throw new SdkError(
      "invalid_options",
      `durableSessions.dir ${resolved} must belong to this user (uid ${euid ?? "?"}, it belongs to ${info.uid}) and not be writable by group or others (mode ${(info.mode & 0o777).toString(8)}). Use a private directory, e.g. one under the host's data directory with mode 0700.`,
    );
  }
  return new DurableSessions(
    { dir: resolved, ...(launcher === undefined ? {} : { launcher }), ...(retentionMs === undefined ? {} : { retentionMs }) },
    maxSessions,
  );
}
