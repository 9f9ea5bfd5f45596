/**
 * CronTaskManager's side of the task policy: the registry's rules recorded
 * from the call's context, and a task checked against them when it is
 * created or changed (its workdir inside the registry's writable roots, its
 * http requests allowed on the registry's network).
 */
import { SdkError, type ToolContext } from "@agent-tools/core";
import { type CronTaskPolicy, cronPolicyAllowsNetwork } from "../domain/cron-task-policy.js";
import type { CronHttpRequest, CronTaskType } from "../domain/cron-types.js";
import { parseIpAddress } from "@agent-tools/core/internal";
import { createSsrfGuard, isSsrfRefusal, parseAllowedPrivateNetworks } from "../outbound/ssrf-guard.js";
import type { Workspace } from "@agent-tools/core/workspace";
import { cronWorkdirRefusal, judgeCronWorkdir } from "../runtime/cron-workdir-check.js";
import { judgeCronWorkdirInWorkspace } from "../runtime/cron-workspace-workdir.js";

/** The `http` option of CronTaskManager: what its http tasks may reach besides public addresses. */
export interface CronHttpToolOptions {
  /**
   * Non-public networks (CIDR blocks or addresses, e.g. `["10.20.0.0/16",
   * "127.0.0.1"]`) the http tasks this tool creates may reach on purpose:
   * an intranet hook, a local service. Default none: only public addresses.
   * Recorded with each task; a malformed entry throws `SdkError`.
   */
  readonly allowedPrivateNetworks?: readonly string[];
}

const HTTP_OPTION_KEYS = ["allowedPrivateNetworks"];

/**
 * Validates the `http` option (fail closed: unknown keys and malformed
 * entries throw `SdkError` naming them) and returns the allow-list as given.
 */
export function validateCronHttpOptions(value: unknown, optionName = "http"): readonly string[] {
  if (value === undefined) return [];
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new SdkError("invalid_options", `CronTaskManager: ${optionName} must be an object such as { allowedPrivateNetworks: ["10.20.0.0/16"] }.`);
  }
  const unknown = Object.keys(value).filter((key) => !HTTP_OPTION_KEYS.includes(key));
  if (unknown.length > 0) {
    throw new SdkError(
      "invalid_options",
      `CronTaskManager: ${optionName} has unknown option${unknown.length === 1 ? "" : "s"} ${unknown.join(", ")}; the only one is allowedPrivateNetworks (CIDR blocks or addresses, e.g. ["10.20.0.0/16"]).`,
      { unknown },
    );
  }
  const list = (value as CronHttpToolOptions).allowedPrivateNetworks;
  parseAllowedPrivateNetworks(list, `CronTaskManager: ${optionName}.allowedPrivateNetworks`);
  return list === undefined ? [] : list.map((entry) => entry.trim());
}

/**
 * The rules of the registry making a call: its canonical workspace, its
 * active roots, its sandbox settings (when it has a sandbox, working or
 * not), and the tool's private-network allow-list.
 */
export function cronPolicyOfContext(context: ToolContext, allowedPrivateNetworks: readonly string[]): CronTaskPolicy {
  const roots = context.paths
    .roots()
    .filter((root) => root.status === "active")
    .map((root) => ({ alias: root.alias, path: root.canonicalPath, access: root.access }));
  const sandbox = context.ports.sandbox;
  const workspace = context.ports.workspace;
  return {
    ...(workspace === undefined || workspace.capabilities.localPaths ? {} : { workspaceLabel: workspace.label }),
    workspace: context.workdir,
    roots,
    // A plain-data copy: the settings object is the host's.
    ...(sandbox === undefined ? {} : { sandbox: JSON.parse(JSON.stringify(sandbox.settings)) }),
    allowedPrivateNetworks: [...allowedPrivateNetworks],
  };
}

/** The task as it will be stored, in the parts the policy rules. */
export interface PolicedTask {
  readonly type: CronTaskType;
  readonly workdir?: string;
  readonly requests?: readonly CronHttpRequest[];
}

/**
 * Checks `task` against `policy`: the canonical workdir to store, or the
 * message for the model. http tasks need the registry's network, and a
 * literal non-public address (in any notation) outside the allow-list is
 * refused now; names are resolved and checked when the task runs.
 */
export async function checkTaskAgainstPolicy(
  task: PolicedTask,
  policy: CronTaskPolicy,
  workspace?: Workspace,
): Promise<{ readonly workdir?: string } | { readonly message: string }> {
  if (task.type === "http") {
    if (!cronPolicyAllowsNetwork(policy)) {
      return {
        message:
          "http tasks are not available here: this registry's sandbox has no network (allowNetwork is off), and its http tasks follow the same rule. Use a bash or prompt task that needs no network, or ask the user to allow the network.",
      };
    }
    const guard = createSsrfGuard({ allowedPrivateNetworks: policy.allowedPrivateNetworks, resolveHost: async () => [] });
    for (const [index, request] of (task.requests ?? []).entries()) {
      let hostname: string;
      try {
        hostname = new URL(request.url).hostname;
      } catch {
        continue; // validateCronRequests reported it
      }
      if (parseIpAddress(hostname) === undefined) continue;
      try {
        await guard.check(request.url);
      } catch (error) {
        if (!isSsrfRefusal(error)) throw error;
        return {
          message: `requests[${index + 1}].url ${request.url} is refused: ${error.message}. http tasks reach public addresses only, unless the host allows a private network on purpose; ask the user if this target is meant to be reached.`,
        };
      }
    }
    return {};
  }
  if (task.workdir === undefined) return {};
  const verdict =
    policy.workspaceLabel !== undefined && workspace !== undefined
      ? await judgeCronWorkdirInWorkspace(workspace, task.workdir, policy)
      : judgeCronWorkdir(task.workdir, policy);
  const refusal = cronWorkdirRefusal(`workdir "${task.workdir}"`, task.workdir, verdict, policy, "this registry");
  if (refusal !== undefined) return { message: `${refusal}. Give a directory inside one of them, or an empty string for the workspace.` };
  return { workdir: verdict.canonical as string };
}
