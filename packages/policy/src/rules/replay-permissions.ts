/**
 * Replays recorded calls against two rule sets with the same evaluation the
 * registry runs, and reports each call's decision under both and which
 * changed: to see what a rule change would have done before shipping it.
 */
import type { ToolMetadata } from "@agent-tools/core";
import type { ApprovalVocabulary } from "@agent-tools/core/internal";
import type { ShellParser } from "../shell/shell-parser.js";
import { type CompiledPermissions, compilePermissions } from "./compile-permissions.js";
import { type RuleEnvironment, type RuleVerdict, evaluatePermissions } from "./evaluate-permissions.js";
import type { LayeredPermissionSettings, PermissionSettings } from "./permission-settings.js";

/** A call as a trace recorded it. */
export interface RecordedCall {
  readonly toolName: string;
  readonly input: Readonly<Record<string, unknown>>;
  /** The tool's metadata; default: what `environment.metadataOf` knows, else a custom tool that is not read-only. */
  readonly metadata?: ToolMetadata;
}

/** Options of {@link replayPermissions}. */
export interface ReplayOptions {
  readonly vocabulary: ApprovalVocabulary;
  readonly shell: ShellParser;
  /** Where the calls are evaluated (without `paths`, paths resolve lexically against `workdir`). */
  readonly environment: RuleEnvironment;
}

/** One call's decisions under both rule sets. */
export interface ReplayedCall {
  readonly call: RecordedCall;
  readonly before: RuleVerdict;
  readonly after: RuleVerdict;
  /** True when the decision differs. */
  readonly changed: boolean;
}

/** The replay of every call. */
export interface ReplayReport {
  readonly calls: readonly ReplayedCall[];
  /** How many calls changed decision. */
  readonly changed: number;
}

const UNKNOWN_TOOL: ToolMetadata = Object.freeze({ groupId: "custom", kind: "custom", isReadOnly: false, displayCategory: "other" });

type RuleSet = PermissionSettings | LayeredPermissionSettings | CompiledPermissions;

const isCompiled = (value: RuleSet): value is CompiledPermissions => Object.hasOwn(value, "rules") && Object.hasOwn(value, "memory");

/**
 * Evaluates every call under `before` and `after` (settings, compiled with
 * `options`, or compiled permissions). Throws `SdkError` when a rule set is
 * invalid, as the registry would.
 *
 * @example
 * replayPermissions({ allow: ["Bash"] }, { allow: ["Bash(git status)"] }, calls, options).changed; // calls that would now ask
 */
export function replayPermissions(before: RuleSet, after: RuleSet, calls: readonly RecordedCall[], options: ReplayOptions): ReplayReport {
  const context = { vocabulary: options.vocabulary, shell: options.shell };
  const a = isCompiled(before) ? before : compilePermissions(before, context);
  const b = isCompiled(after) ? after : compilePermissions(after, context);
  const replayed = calls.map((call) => {
    const metadata = call.metadata ?? options.environment.metadataOf(call.toolName) ?? UNKNOWN_TOOL;
    const subject = { toolName: call.toolName, input: call.input, metadata };
    const first = evaluatePermissions(a, subject, options.environment);
    const second = evaluatePermissions(b, subject, options.environment);
    return { call, before: first, after: second, changed: first.decision !== second.decision };
  });
  return { calls: replayed, changed: replayed.filter((item) => item.changed).length };
}
