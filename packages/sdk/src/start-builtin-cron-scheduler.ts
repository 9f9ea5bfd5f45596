import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { ModelClient, SandboxState, ToolPorts } from "@agent-tools/core";
import { SdkError, createResourceHub, resolveDataDir } from "@agent-tools/core";
import type { Workspace } from "@agent-tools/core/workspace";
import type { CronMissedRunPolicy, CronSchedulerEvent, CronSchedulerHandle, CronTask, CronTaskPolicy } from "@agent-tools/cron";
import { type Storage, leaseSqliteStorage } from "@agent-tools/storage";
import { type BuiltinToolRegistryOptions, buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import { checkBuiltinToolRegistryOptionKeys } from "./registry-option-keys.js";
import { resolveEditSurface } from "./edit-surface.js";
import { type OptionKeyList, checkOptionObject } from "./option-keys.js";
import { createNodePorts } from "./create-node-ports.js";
import { createCronRunSandbox, cronRunAdditionalRoots } from "./cron-run-sandbox.js";
import { resolveSdkSandbox } from "./sandbox-wiring.js";
import { type PromptRunPlacement, buildWorkspacePromptRegistry } from "./workspace-cron-prompt-registry.js";

/** Options of {@link startBuiltinCronScheduler}. */
export interface BuiltinCronSchedulerOptions {
  /**
   * The database of the tasks. Default: the shared SQLite file
   * `<dataDir>/agent-tools.sqlite` (the same the `cron` option of
   * `buildBuiltinToolRegistry` uses), where one scheduler per dataDir may
   * run; on PostgreSQL any number of schedulers share the tasks and each
   * occurrence runs once.
   */
  readonly storage?: Storage;
  /** Where the SDK keeps its files; default `~/.agent-tools`. */
  readonly dataDir?: string;
  /** Ports; the process runner runs bash tasks (default the Node ports). */
  readonly ports?: Partial<ToolPorts>;
  /** Runs prompt tasks; without it prompt runs wait for a scheduler that has one (and expire after 10 minutes). */
  readonly model?: ModelClient;
  /**
   * Options of the cron-scope registry each prompt run gets on its task's
   * workdir (`buildBuiltinToolRegistry` with `runtimeScope: "cron"`): e.g.
   * `mcp`, `memory`, `skills`. `workdir`, `runtimeScope` and
   * `additionalRoots` are set per run from the task's recorded policy (the
   * roots of the registry that created it), and `workspace` for a task of
   * a registry on a non-local workspace (see `workspaces`). Its `sandbox` (or
   * `ports.sandbox`) confines bash tasks and prompt runs on top of what each
   * task's registry asked for: it can narrow a task's rules (no network, more
   * hidden paths), never widen them. A task whose registry had a sandbox is
   * confined even without it. When a needed sandbox cannot start, runs fail
   * unstarted. Without `modelId`, a run's edit surface (`editSurface:
   * "auto"`) follows `model.id`.
   */
  readonly registryOptions?: Omit<BuiltinToolRegistryOptions, "workdir" | "runtimeScope" | "additionalRoots">;
  /** `skip` (default) or `run_once` for occurrences missed while no scheduler ran. */
  readonly missedRunPolicy?: CronMissedRunPolicy;
  /** IANA time zone of tasks without their own; default the process's. */
  readonly timeZone?: string;
  /** Time between ticks, ms; default 1000. */
  readonly tickMs?: number;
  /** Every scheduler event (runs started and finished, errors). */
  readonly onEvent?: (event: CronSchedulerEvent) => void;
  /**
   * Workspaces that are not the local disk (e.g. `createSshWorkspace`):
   * a bash task created by a registry on one runs through the workspace of
   * the same label (its processes, its workdir checked there), never on
   * this host; without it the run fails. A prompt task of such a registry
   * runs with its cron-scope registry built on that workspace
   * (`buildBuiltinToolRegistry({ workspace, ... })` with `registryOptions`:
   * the options a non-local workspace refuses, e.g. `skills`, fail the
   * run). A sandbox cannot confine such a run (bubblewrap is local), so it
   * is refused when one would apply. The host owns the workspaces and
   * closes them after the scheduler.
   */
  readonly workspaces?: readonly Workspace[];
}

/** Every key of {@link BuiltinCronSchedulerOptions}; an unknown one throws `SdkError`. */
const SCHEDULER_OPTION_KEYS = {
  storage: true,
  dataDir: true,
  ports: true,
  model: true,
  registryOptions: true,
  missedRunPolicy: true,
  timeZone: true,
  tickMs: true,
  onEvent: true,
  workspaces: true,
} as const satisfies OptionKeyList<BuiltinCronSchedulerOptions>;

/**
 * Starts the cron scheduler on Node defaults: the tasks of the shared SQLite
 * file (or the given storage), bash tasks through the Node process runner
 * (process trees killed on timeout), http tasks through the SSRF-guarded
 * client, prompt tasks with `model` and a fresh cron-scope registry per run.
 * Every run obeys its task's recorded policy: the workdir inside the
 * creating registry's writable roots, that registry's sandbox and network.
 * `stop()` ends the runs in progress, releases the scheduler lock, the
 * storage lease and the ports.
 *
 * @example
 * const scheduler = await startBuiltinCronScheduler({ model });
 * const registry = await buildBuiltinToolRegistry({ workdir, cron: { currentModelId: () => model.id } });
 * // the model creates tasks with CronTaskManager; the scheduler fires them
 * await scheduler.stop();
 */
export async function startBuiltinCronScheduler(options: BuiltinCronSchedulerOptions = {}): Promise<CronSchedulerHandle> {
  const { KyselyCronStore, acquireSqliteSchedulerLock, startCronScheduler } = await import("@agent-tools/cron");
  const { liveCronPolicyRoots } = await import("@agent-tools/cron/internal");
  checkOptionObject(options, SCHEDULER_OPTION_KEYS, "startBuiltinCronScheduler");
  // A misspelt registry option (or a mistyped sandbox) fails here, not at the first run (the probe itself is lazy).
  if (options.registryOptions !== undefined) {
    checkBuiltinToolRegistryOptionKeys<BuiltinToolRegistryOptions>({ ...options.registryOptions, workdir: "" }, true, "registryOptions");
    resolveEditSurface(options.registryOptions, "registryOptions");
  }
  // Prompt runs talk to `model`: their edit surface follows it unless registryOptions names the model.
  const promptRegistryOptions =
    options.model === undefined || options.registryOptions?.modelId !== undefined
      ? options.registryOptions
      : { ...options.registryOptions, modelId: options.model.id };
  const dataDir = resolveDataDir(options.dataDir);
  // The scheduler's own hub: its store and every prompt run's registry share one connection to the SQLite file.
  const resources = createResourceHub();
  const lease = options.storage === undefined ? leaseSqliteStorage({ dataDir, resources }) : undefined;
  const ports = createNodePorts({ ports: options.ports });
  try {
    const storage = options.storage ?? (await (lease as NonNullable<typeof lease>).get());
    const store = await KyselyCronStore.open(storage);
    const cronOptions = { store, currentModelId: options.model === undefined ? undefined : () => options.model?.id };
    // bubblewrap is probed at most once for the scheduler: bash tasks and every prompt run's registry share the probe.
    let probe: Promise<SandboxState | undefined> | undefined;
    const ownSandbox = () => {
      probe ??=
        options.registryOptions?.ports?.sandbox !== undefined
          ? Promise.resolve(options.registryOptions.ports.sandbox)
          : resolveSdkSandbox(options.registryOptions?.sandbox);
      return probe;
    };
    const runs = createCronRunSandbox({
      own: async () => options.ports?.sandbox ?? (await ownSandbox()),
      dataDir,
      ...(options.registryOptions?.sandbox?.bubblewrapPath === undefined ? {} : { bubblewrapPath: options.registryOptions.sandbox.bubblewrapPath }),
    });
    const handle = await startCronScheduler({
      store,
      storageDialect: storage.dialect,
      sqliteLock: () => acquireSqliteSchedulerLock(storage, `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`),
      processRunner: ports.processRunner,
      bashSandbox: runs.bashSandbox,
      ...(options.workspaces === undefined ? {} : { workspaces: checkedWorkspaces(options.workspaces) }),
      ...(options.model === undefined
        ? {}
        : {
            model: options.model,
            buildPromptRegistry: async (workdir: string, task: CronTask, placement?: PromptRunPlacement) => {
              // The runner checked the policy; the registry gets its roots and sandbox, never the scheduler's wider ones.
              const policy = task.policy as CronTaskPolicy;
              const sandbox = await runs.stateFor(policy);
              if (placement !== undefined)
                return buildWorkspacePromptRegistry({
                  workdir,
                  task,
                  placement,
                  sandbox,
                  dataDir,
                  resources,
                  registryOptions: promptRegistryOptions,
                  cronOptions,
                });
              const given = options.registryOptions?.ports;
              // Over the host's ports object, not a copy of it: its adapters may be lazy getters.
              const ports =
                sandbox === undefined ? given : (Object.create(given ?? null, { sandbox: { value: sandbox, enumerable: true } }) as Partial<ToolPorts>);
              const live = liveCronPolicyRoots(policy);
              return buildBuiltinToolRegistry({
                dataDir,
                resources,
                ...promptRegistryOptions,
                ports,
                workdir,
                additionalRoots: cronRunAdditionalRoots(policy, [...live.writable, ...live.readOnly], workdir),
                runtimeScope: "cron",
                cron: { ...options.registryOptions?.cron, ...cronOptions, http: { allowedPrivateNetworks: [...policy.allowedPrivateNetworks] } },
              });
            },
          }),
      ...(options.missedRunPolicy === undefined ? {} : { missedRunPolicy: options.missedRunPolicy }),
      ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
      ...(options.tickMs === undefined ? {} : { tickMs: options.tickMs }),
      ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    });
    return {
      ...handle,
      get activeRuns() {
        return handle.activeRuns;
      },
      async stop() {
        try {
          await handle.stop();
        } finally {
          await lease?.release();
          await ports.close();
          await resources.close();
        }
      },
    };
  } catch (error) {
    await lease?.release();
    await ports.close();
    await resources.close();
    throw error;
  }
}

/** The scheduler's `workspaces`: a list of Workspace objects with distinct labels, else `SdkError` naming the option. */
function checkedWorkspaces(value: unknown): readonly Workspace[] {
  const problem = (detail: string): never => {
    throw new SdkError("invalid_options", `startBuiltinCronScheduler: workspaces ${detail}; pass a list of workspaces, e.g. [await createSshWorkspace(...)].`, {
      option: "workspaces",
    });
  };
  if (!Array.isArray(value)) return problem("is not a list");
  const labels = new Set<string>();
  for (const workspace of value as unknown[]) {
    const candidate = workspace as Partial<Workspace> | null;
    if (candidate === null || typeof candidate !== "object" || typeof candidate.label !== "string" || typeof candidate.fs !== "object") {
      return problem("holds something that is not a Workspace");
    }
    if (labels.has(candidate.label)) return problem(`holds two workspaces labelled ${candidate.label}`);
    labels.add(candidate.label);
  }
  return value as readonly Workspace[];
}
