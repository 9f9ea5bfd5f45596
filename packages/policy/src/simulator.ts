/**
 * The simulator's functions for hosts: check a rule set before it ships
 * (`lintPermissions`) and compare two rule sets over recorded calls
 * (`replayPermissions`), with the same compilation and evaluation a
 * registry runs. Each loads its own Bash parser and frees it.
 */
import os from "node:os";
import path from "node:path";
import type { ApprovalOptions, ToolMetadata } from "@agent-tools/core";
import type { ApprovalVocabulary } from "@agent-tools/core/internal";
import { type PermissionFinding, lintPermissions as lintWithParser, permissiveVocabulary } from "./rules/lint-permissions.js";
import { type LayeredPermissionSettings, type PermissionSettings, checkPermissionSettings } from "./rules/permission-settings.js";
import { type RecordedCall, type ReplayReport, replayPermissions as replayWithParser } from "./rules/replay-permissions.js";
import { loadShellParser } from "./shell/shell-parser.js";

/**
 * Reports rules that can never fire, wildcards that match more than they
 * seem to (`Bash(git * main)`, an allow of `Bash(*)`), rules shadowed by an
 * earlier one, duplicates, and path rules other tools walk around. Without
 * `vocabulary` (a registry's tool names), tool names are not checked.
 * Rejects with `SdkError` only when `settings` is not a settings block at all.
 *
 * @example
 * const findings = await lintPermissions({ allow: ["Bash(git * main)"] });
 * // [{ rule: "Bash(git * main)", kind: "broad-wildcard", message: "..." }]
 */
export async function lintPermissions(
  settings: PermissionSettings | LayeredPermissionSettings,
  options: { readonly vocabulary?: ApprovalVocabulary } = {},
): Promise<PermissionFinding[]> {
  const shell = await loadShellParser();
  try {
    return lintWithParser(settings, { ...options, shell });
  } finally {
    shell.close();
  }
}

/** Where {@link replayPermissions} evaluates the calls. */
export interface ReplayPermissionsOptions {
  /** The project root the calls ran in (relative paths and `/` rules are anchored there). */
  readonly workdir: string;
  /** The SDK's data folder (bypassPermissions still asks there); default `~/.agent-tools`. */
  readonly dataDir?: string;
  /** Where `~/` rules point; default the user's home. */
  readonly home?: string;
  /** The registry's approval options, the fallback when no rule decides. */
  readonly approval?: ApprovalOptions;
  /** Metadata of the tools the calls name (e.g. `(name) => registry.metadataByName[name]`); a call may carry its own. */
  readonly metadataOf?: (toolName: string) => ToolMetadata | undefined;
  /** What the rules may name; default: whatever the two rule sets name. */
  readonly vocabulary?: ApprovalVocabulary;
}

/**
 * Decides every recorded call under `before` and `after` and reports which
 * changed: what a rule change would have done, before shipping it. Paths
 * resolve against `workdir` on this machine (symlinks followed where they
 * exist). Rejects with `SdkError` when a rule set is invalid, as a registry
 * would.
 *
 * @example
 * const report = await replayPermissions({ allow: ["Bash"] }, { allow: ["Bash(git status)"] }, calls, { workdir: "/repo" });
 * report.changed; // calls that would now ask
 */
export async function replayPermissions(
  before: PermissionSettings | LayeredPermissionSettings,
  after: PermissionSettings | LayeredPermissionSettings,
  calls: readonly RecordedCall[],
  options: ReplayPermissionsOptions,
): Promise<ReplayReport> {
  const home = options.home ?? os.homedir();
  const vocabulary = options.vocabulary ?? mergedVocabulary(before, after);
  const shell = await loadShellParser();
  try {
    return replayWithParser(before, after, calls, {
      vocabulary,
      shell,
      environment: {
        workdir: path.resolve(options.workdir),
        dataDir: options.dataDir ?? path.join(home, ".agent-tools"),
        home,
        ...(options.approval === undefined ? {} : { approval: options.approval }),
        metadataOf: (name) => options.metadataOf?.(name),
      },
    });
  } finally {
    shell.close();
  }
}

/** Every name either rule set uses (replay without a registry checks everything but the names). */
function mergedVocabulary(before: PermissionSettings | LayeredPermissionSettings, after: PermissionSettings | LayeredPermissionSettings): ApprovalVocabulary {
  const a = permissiveVocabulary(checkPermissionSettings(before));
  const b = permissiveVocabulary(checkPermissionSettings(after));
  return {
    toolNames: new Set([...a.toolNames, ...b.toolNames]),
    toolNamePrefixes: [...new Set([...a.toolNamePrefixes, ...b.toolNamePrefixes])],
    serverIds: new Set([...a.serverIds, ...b.serverIds]),
    groupIds: new Set([...a.groupIds, ...b.groupIds]),
    knownKeys: new Set(),
  };
}
