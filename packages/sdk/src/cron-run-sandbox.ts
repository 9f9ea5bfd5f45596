import path from "node:path";
import type { AdditionalRoot, SandboxSettings, SandboxState } from "@agent-tools/core";
import type { CronBashSandbox, CronTaskPolicy } from "@agent-tools/cron";
import { probeBubblewrapSandbox } from "@agent-tools/node";
import { defaultHiddenPaths, resolveSandboxPolicy } from "@agent-tools/node/internal";
import { dataDirSandboxMounts } from "./sandbox-mounts.js";

/** The sandbox of cron runs, per task policy; see {@link createCronRunSandbox}. */
export interface CronRunSandbox {
  /**
   * The sandbox state one run of a task under `policy` gets: undefined (run
   * unconfined) only when neither the task's registry nor the scheduler
   * asked for a sandbox; `unavailable` when one is needed and cannot start.
   */
  stateFor(policy: CronTaskPolicy): Promise<SandboxState | undefined>;
  /** The confinement of bash runs (for `startCronScheduler({ bashSandbox })`). */
  readonly bashSandbox: CronBashSandbox;
}

/** What {@link createCronRunSandbox} takes. */
export interface CronRunSandboxOptions {
  /** The scheduler's own sandbox (its `ports.sandbox` or the probe of `registryOptions.sandbox`); undefined when it asked for none. */
  readonly own: () => Promise<SandboxState | undefined>;
  /** bwrap for tasks that need a sandbox the scheduler did not ask for; default the first on `PATH`. */
  readonly bubblewrapPath?: string;
  /** The SDK's data directory: masked from confined bash runs, as registries mask it from their commands. */
  readonly dataDir?: string;
}

function hiddenPathsOf(settings: SandboxSettings | undefined): string[] {
  if (settings === undefined) return [];
  return settings.hiddenPaths === undefined ? defaultHiddenPaths() : [...settings.hiddenPaths];
}

/**
 * The settings of one run: the task's recorded settings, narrowed by the
 * scheduler's own. The network only when both allow it (a registry without
 * a sandbox counts as allowing it); hidden paths of both; the rest (extra
 * writable roots, environment allow-list) from the task's registry, or the
 * scheduler's when the task's registry ran commands unconfined.
 */
export function cronRunSandboxSettings(recorded: SandboxSettings | undefined, own: SandboxSettings | undefined): SandboxSettings {
  const allowNetwork = (recorded === undefined || recorded.allowNetwork === true) && (own === undefined || own.allowNetwork === true);
  return {
    ...(recorded ?? own),
    enabled: true,
    allowNetwork,
    hiddenPaths: [...new Set([...hiddenPathsOf(recorded), ...hiddenPathsOf(own)])],
  };
}

/**
 * Confines cron runs under each task's recorded policy: bash tasks through
 * {@link CronRunSandbox.bashSandbox}, prompt runs' registries through
 * {@link CronRunSandbox.stateFor}. A task whose registry confined its
 * commands is confined even when the scheduler asked for no sandbox
 * (bubblewrap is then probed once, on first need); the scheduler's own
 * settings can only narrow the task's. The bind mounts are the policy's
 * roots, never a task's workdir; the dataDir is masked (its SQLite file,
 * logs and other projects' data), as in a registry's commands.
 *
 * @example
 * const runs = createCronRunSandbox({ own: async () => undefined });
 * await startCronScheduler({ store, processRunner, bashSandbox: runs.bashSandbox });
 */
export function createCronRunSandbox(options: CronRunSandboxOptions): CronRunSandbox {
  let probe: Promise<SandboxState> | undefined;
  const probeOnce = () => {
    probe ??= probeBubblewrapSandbox({ settings: { enabled: true }, executable: options.bubblewrapPath });
    return probe;
  };
  const stateFor = async (policy: CronTaskPolicy): Promise<SandboxState | undefined> => {
    const own = await options.own();
    if (policy.sandbox === undefined && own === undefined) return undefined;
    const base = own ?? (await probeOnce());
    const settings = cronRunSandboxSettings(policy.sandbox, own?.settings);
    return base.sandbox === undefined ? { requested: true, settings, unavailable: base.unavailable } : { requested: true, sandbox: base.sandbox, settings };
  };
  return {
    stateFor,
    bashSandbox: {
      async confinementFor(request) {
        const state = await stateFor(request.policy);
        if (state === undefined) return undefined;
        if (state.sandbox === undefined) return { unavailable: state.unavailable };
        const policy = resolveSandboxPolicy({ settings: state.settings, writableRoots: request.writableRoots, readOnlyRoots: request.readOnlyRoots });
        const masked = options.dataDir === undefined ? [] : (dataDirSandboxMounts(options.dataDir)().maskedDirectories ?? []);
        return {
          sandbox: state.sandbox,
          policy: masked.length === 0 ? policy : { ...policy, maskedDirectories: [...new Set([...(policy.maskedDirectories ?? []), ...masked])] },
        };
      },
    },
  };
}

/**
 * The roots a prompt run's registry (workspace `workdir`) gets from the
 * task's policy: its roots that still resolve where they did, pinned to that
 * path (drift refuses them), except those holding the workdir or inside it
 * (the workdir is the run's workspace).
 */
export function cronRunAdditionalRoots(policy: CronTaskPolicy, liveRoots: readonly string[], workdir: string): AdditionalRoot[] {
  const within = (parent: string, child: string) => child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : `${parent}${path.sep}`);
  return policy.roots
    .filter((root) => liveRoots.includes(root.path) && !within(root.path, workdir) && !within(workdir, root.path))
    .map((root) => ({ alias: root.alias, path: root.path, canonicalPath: root.path, access: root.access }));
}
