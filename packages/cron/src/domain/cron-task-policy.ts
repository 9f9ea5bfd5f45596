/**
 * The rules a task runs under: the roots, sandbox and network of the
 * registry that created it (or last changed it), recorded with the task so
 * that a scheduler, in this process or another, runs it under the same
 * rules and never wider ones. Pure.
 */
import path from "node:path";
import type { SandboxSettings } from "@agent-tools/core";

/** A root the registry granted, as recorded (canonical path). */
export interface CronPolicyRoot {
  /** The `root://` alias. */
  readonly alias: string;
  /** Canonical path at the time the task was recorded. */
  readonly path: string;
  readonly access: "read" | "write";
}

/**
 * The registry's rules recorded with a task. A task's workdir must lie in
 * `workspace` or a root with write access; bash runs are confined like the
 * registry's own commands when `sandbox` is set; http requests need the
 * network (`sandbox` absent, or its `allowNetwork`) and reach only public
 * addresses plus `allowedPrivateNetworks`.
 */
export interface CronTaskPolicy {
  /** Canonical workspace of the registry. */
  readonly workspace: string;
  /** The roots it granted, active ones only. */
  readonly roots: readonly CronPolicyRoot[];
  /** Its sandbox settings when it confined commands (also when the sandbox could not start); absent: it ran them unconfined. */
  readonly sandbox?: SandboxSettings;
  /** CIDR blocks or addresses of non-public networks its http tasks may reach (the host's `http.allowedPrivateNetworks`). */
  readonly allowedPrivateNetworks: readonly string[];
  /**
   * The label of the workspace the registry worked on when it was not the
   * local disk (e.g. `ssh://dev@host:22`): `workspace` and the roots are
   * paths there, and bash runs go through a workspace of this label that
   * the scheduler was given (`workspaces`), never this host. Absent: the
   * local disk.
   */
  readonly workspaceLabel?: string;
}

/** Whether the registry that recorded `policy` had network access (no sandbox, or one with `allowNetwork`). */
export function cronPolicyAllowsNetwork(policy: CronTaskPolicy): boolean {
  return policy.sandbox === undefined || policy.sandbox.allowNetwork === true;
}

/** The directories a task's workdir may lie in: the workspace and the roots with write access. */
export function cronPolicyWritableRoots(policy: CronTaskPolicy): string[] {
  return [policy.workspace, ...policy.roots.filter((root) => root.access === "write").map((root) => root.path)];
}

/** The roots granted read-only (kept read-only in a confined run). */
export function cronPolicyReadOnlyRoots(policy: CronTaskPolicy): string[] {
  return policy.roots.filter((root) => root.access === "read").map((root) => root.path);
}

/** The writable directories for messages: `the workspace /w and root://shared (/s)`. */
export function describeCronPolicyWritableRoots(policy: CronTaskPolicy): string {
  const parts = [
    `the workspace ${policy.workspace}`,
    ...policy.roots.filter((root) => root.access === "write").map((root) => `root://${root.alias} (${root.path})`),
  ];
  return parts.length === 1 ? (parts[0] as string) : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((entry) => typeof entry === "string");
const isAbsolute = (value: unknown): value is string => typeof value === "string" && path.isAbsolute(value);

/**
 * What is wrong with a stored policy, or undefined when it has the right
 * shape (a store may hand back anything: fail closed).
 *
 * @example
 * cronTaskPolicyProblem({ workspace: "/repo", roots: [], allowedPrivateNetworks: [] }); // undefined
 */
export function cronTaskPolicyProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return "it is not an object";
  const policy = value as Record<string, unknown>;
  if (!isAbsolute(policy.workspace)) return "its workspace is not an absolute path";
  if (!Array.isArray(policy.roots)) return "its roots are not a list";
  for (const root of policy.roots as unknown[]) {
    const entry = root as Record<string, unknown> | null;
    if (
      entry === null ||
      typeof entry !== "object" ||
      typeof entry.alias !== "string" ||
      !isAbsolute(entry.path) ||
      (entry.access !== "read" && entry.access !== "write")
    ) {
      return "a root is not { alias, path (absolute), access: read | write }";
    }
  }
  if (!isStringArray(policy.allowedPrivateNetworks)) return "its allowedPrivateNetworks is not a list of strings";
  if (policy.workspaceLabel !== undefined && (typeof policy.workspaceLabel !== "string" || policy.workspaceLabel === "")) {
    return "its workspaceLabel is not a non-empty string";
  }
  if (policy.sandbox !== undefined) {
    const sandbox = policy.sandbox as Record<string, unknown> | null;
    if (sandbox === null || typeof sandbox !== "object" || Array.isArray(sandbox)) return "its sandbox is not an object";
    if (sandbox.allowNetwork !== undefined && typeof sandbox.allowNetwork !== "boolean") return "its sandbox.allowNetwork is not a boolean";
    for (const key of ["writableRoots", "hiddenPaths"] as const) {
      if (sandbox[key] !== undefined && !(isStringArray(sandbox[key]) && sandbox[key].every(isAbsolute)))
        return `its sandbox.${key} is not a list of absolute paths`;
    }
  }
  return undefined;
}
