/**
 * @agent-tools/policy: permission rules with specifiers (Bash command
 * patterns over the parsed command line, path globs, MCP names), modes and
 * layers, lifecycle hooks (in-process functions, commands, HTTP endpoints),
 * and a simulator that explains every decision. `createPermissionPolicy`
 * gives core's registry its `policy`; `@agent-tools/sdk` builds it from the
 * `permissions` and `hooks` options. The hook protocol's types are at
 * `@agent-tools/policy/hooks`.
 */
export { createPermissionPolicy } from "./runtime/create-permission-policy.js";
export type { PermissionSettings } from "./rules/permission-settings.js";
export { lintPermissions, replayPermissions } from "./simulator.js";
