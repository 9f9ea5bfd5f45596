/**
 * The durable-process port: a command that runs under a small supervisor
 * process, detached from the host, with its output appended to a log file and
 * its state in a JSON file of its own directory, so a later host process can
 * find it again, read on and stop it.
 */

/** What {@link DurableProcessLauncher.launch} starts. */
export interface DurableLaunchRequest {
  /**
   * The session's directory: created by `launch` with mode 0700 and must not
   * exist yet; its parent must. Holds `spec.json`, `output.log`, `state.json`.
   */
  readonly directory: string;
  /** The executable, or a command line when `shell` is set. */
  readonly command: string;
  /** Run `command` as `<shell> -c <command>`. */
  readonly shell?: string;
  /** Arguments (without `shell`). */
  readonly args?: readonly string[];
  /** Absolute working directory. */
  readonly cwd: string;
  /** Environment of the command; merged over the host's unless `extendEnv` is false. Never written to disk. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Default true. */
  readonly extendEnv?: boolean;
  /** The supervisor kills the whole tree after this long and records `timed_out`. */
  readonly timeoutMs?: number;
  /** Host data stored in `spec.json` beside the command (JSON-serialisable). */
  readonly meta?: Readonly<Record<string, unknown>>;
}

/** The content of `spec.json`: what was started, as the supervisor reads it. */
export interface DurableProcessSpec {
  readonly command: string;
  readonly shell?: string;
  readonly args?: readonly string[];
  readonly cwd: string;
  readonly timeoutMs?: number;
  readonly meta?: Readonly<Record<string, unknown>>;
  /** Epoch ms when the host asked for the start. */
  readonly createdAt: number;
}

/** The content of `state.json`, written whole by the supervisor (temporary file, then rename). */
export interface DurableSupervisorState {
  readonly version: 1;
  readonly supervisorPid: number;
  /** `/proc/<pid>/stat` start time (clock ticks since boot): with the pid, the process's identity. */
  readonly supervisorStartTime: string | null;
  /** The command's pid, also its process-group and session id; 0 until started. */
  readonly pid: number;
  readonly pidStartTime: string | null;
  /** The value of `AGENT_TOOLS_PROCESS_TREE` every process of the tree inherits. */
  readonly tag: string;
  readonly startedAt: number;
  /** `exited` and `timed_out` are final; `starting` and `running` are not. */
  readonly status: "starting" | "running" | "exited" | "timed_out";
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly endedAt: number | null;
  /** After the command exited: pids of its tree still alive (the supervisor watches until none is). */
  readonly descendantsAlive: readonly number[];
  /** True once the command exited and no process of its tree is left. */
  readonly treeEnded: boolean;
  readonly updatedAt: number;
  /** Why the command could not start (then `exitCode` is 127). */
  readonly startError?: string;
}

/** What a host sees of a durable process right now. */
export interface DurableProcessView {
  /** Absent when the directory holds no readable `state.json`. */
  readonly state: DurableSupervisorState | undefined;
  /** The recorded supervisor is alive and is still that process (same start time). */
  readonly supervisorAlive: boolean;
  /** The recorded command process is alive and is still that process. */
  readonly processAlive: boolean;
}

/** A bounded read of a durable process's log. */
export interface DurableLogRead {
  /** The bytes from `from`, at most the requested count. */
  readonly data: Buffer;
  /** The log's size when read. */
  readonly size: number;
}

/**
 * Starts commands under a supervisor that outlives the host, and finds,
 * reads and stops them later from any host process of the same user.
 */
export interface DurableProcessLauncher {
  /**
   * Creates the directory, starts the supervisor detached, and resolves once
   * it recorded the command's start (or its failure to start). Rejects when
   * the directory exists or the supervisor never reports (10 s).
   */
  launch(request: DurableLaunchRequest): Promise<DurableSupervisorState>;
  /** The spec the directory was started with; undefined when missing or unreadable. */
  readSpec(directory: string): DurableProcessSpec | undefined;
  /** The recorded state and whether its processes are still those processes. */
  inspect(directory: string): DurableProcessView;
  /** Pids of the live processes of the tree (never a recycled pid of the recorded one). */
  treeMembers(directory: string): number[];
  /** Reads up to `maxBytes` of `output.log` from byte `from`. */
  readLog(directory: string, from: number, maxBytes: number): DurableLogRead;
  /** Size of `output.log` in bytes (0 when missing). */
  logSize(directory: string): number;
  /**
   * Kills the whole tree (SIGTERM, `graceMs`, then SIGKILL until none is
   * left, giving up after about 5 s). Safe to call repeatedly.
   */
  stop(directory: string, options?: { readonly graceMs?: number }): Promise<void>;
}
