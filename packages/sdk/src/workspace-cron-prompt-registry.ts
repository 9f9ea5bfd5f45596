/**
 * The registry of one prompt cron run whose task was created by a registry
 * on a workspace that is not the local disk: the same cron-scope registry
 * `startBuiltinCronScheduler` builds for a local task (its `registryOptions`,
 * the task's recorded roots, cron options, approval), built on the task's
 * workspace instead of this host's disk.
 */
import type { ResourceHub, SandboxState } from "@agent-tools/core";
import { SdkError } from "@agent-tools/core";
import type { CronSchedulerOptions, CronTask, CronTaskPolicy } from "@agent-tools/cron";
import { type BuiltinToolRegistryOptions, buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import type { BuiltinToolRegistry } from "./builtin-tool-types.js";
import { cronRunAdditionalRoots } from "./cron-run-sandbox.js";

/** The third argument a scheduler gives its prompt-registry builder for a task on a non-local workspace. */
export type PromptRunPlacement = NonNullable<Parameters<NonNullable<CronSchedulerOptions["buildPromptRegistry"]>>[2]>;

/** What {@link buildWorkspacePromptRegistry} needs from its scheduler. */
export interface WorkspacePromptRegistryInput {
  /** The run's workdir: canonical, checked through the workspace inside the task's roots and the workspace's root. */
  readonly workdir: string;
  readonly task: CronTask;
  readonly placement: PromptRunPlacement;
  /** The sandbox the scheduler would confine this run in (undefined: none). */
  readonly sandbox: SandboxState | undefined;
  readonly dataDir: string;
  readonly resources: ResourceHub;
  /** The scheduler's `registryOptions`. */
  readonly registryOptions: Omit<BuiltinToolRegistryOptions, "workdir" | "runtimeScope" | "additionalRoots"> | undefined;
  /** The scheduler's store and model id for the run's CronTaskManager. */
  readonly cronOptions: NonNullable<BuiltinToolRegistryOptions["cron"]>;
}

/**
 * Builds the cron-scope registry of a prompt run on `placement.workspace`
 * (`buildBuiltinToolRegistry({ workspace, workdir, runtimeScope: "cron" })`
 * with the scheduler's `registryOptions` and the task's roots that are
 * still live there). Throws `SdkError` (the run then fails, nothing ran)
 * when the scheduler would confine the run in its sandbox: bubblewrap
 * confines commands of this host only. The options a non-local workspace
 * refuses (`skills`, `subagents`, `mcp` without `mcp.roots`, ...) throw as
 * they do at any build.
 */
export async function buildWorkspacePromptRegistry(input: WorkspacePromptRegistryInput): Promise<BuiltinToolRegistry> {
  const { workdir, task, placement, registryOptions } = input;
  const { workspace, liveRoots } = placement;
  if (input.sandbox !== undefined) {
    throw new SdkError(
      "invalid_options",
      `Task ${task.id} was not run: this scheduler confines prompt runs in a sandbox (bubblewrap), which works on this host only, and the task runs on ${workspace.label}. Run it from a scheduler without a sandbox, or recreate it from a registry on the local disk.`,
      { option: "registryOptions.sandbox", workspace: workspace.label },
    );
  }
  const policy = task.policy as CronTaskPolicy;
  return buildBuiltinToolRegistry({
    dataDir: input.dataDir,
    resources: input.resources,
    ...registryOptions,
    workspace,
    workdir,
    additionalRoots: cronRunAdditionalRoots(policy, [...liveRoots.writable, ...liveRoots.readOnly], workdir),
    runtimeScope: "cron",
    cron: { ...registryOptions?.cron, ...input.cronOptions, http: { allowedPrivateNetworks: [...policy.allowedPrivateNetworks] } },
  });
}
