/**
 * `@agent-tools/policy/internal`: the layers under the public entries, for
 * the SDK's own packages, tests and benchmarks (no compatibility promise):
 * the settings check, the Bash parser, compilation and evaluation of rules,
 * and the simulator functions that take a parser.
 *
 * @packageDocumentation
 */
export type { PermissionPolicyOptions } from "./runtime/create-permission-policy.js";
export { checkPermissionSettings, PERMISSION_LAYERS, PERMISSION_MODES } from "./rules/permission-settings.js";
export type {
  CheckedPermissionSettings,
  LayeredPermissionSettings,
  PermissionLayer,
  PermissionMode,
  RuleListName,
} from "./rules/permission-settings.js";
export { compilePermissions } from "./rules/compile-permissions.js";
export { readHiddenPaths } from "./rules/read-hidden-paths.js";
export type { HiddenPathData } from "./rules/read-hidden-paths.js";
export { isCaseInsensitive, pathBasesOf } from "./rules/call-paths.js";
export type { CompiledPermissions } from "./rules/compile-permissions.js";
export { evaluatePermissions } from "./rules/evaluate-permissions.js";
export type { RuleCall, RuleEnvironment, RuleVerdict } from "./rules/evaluate-permissions.js";
export { defaultDecisionOf } from "./rules/default-decision.js";
export type { LintOptions, PermissionFinding, PermissionFindingKind } from "./rules/lint-permissions.js";
export type { RecordedCall, ReplayOptions, ReplayReport, ReplayedCall } from "./rules/replay-permissions.js";
export type { ReplayPermissionsOptions } from "./simulator.js";
export { loadShellParser } from "./shell/shell-parser.js";
export type { ShellParser } from "./shell/shell-parser.js";
export type { CommandPart, ParsedCommandLine, ShellWord } from "./shell/command-parts.js";
