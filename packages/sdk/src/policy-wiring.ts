/**
 * `permissions` and `hooks` of `buildBuiltinToolRegistry`: the permission
 * policy of `@agent-tools/policy`, loaded (with its shell parser) only when
 * the host gives either.
 */
import type { ToolCallPolicyFactory } from "@agent-tools/core/policy";
import type { PermissionSettings } from "@agent-tools/policy";
import type { HookSettings } from "@agent-tools/policy/hooks";
import type { LayeredPermissionSettings } from "@agent-tools/policy/internal";

/** The policy options of the sdk's registry builders. */
export interface SdkPolicyOptions {
  /**
   * Permission rules (`Tool` or `Tool(specifier)`), checked deny -> ask ->
   * allow: Claude Code's settings `permissions` block as it is, or layers
   * `{ managed, user, project }`. Every mistake (an unknown or wrongly cased
   * tool, a specifier on a tool without one, a pattern that can never
   * match, an unknown mode) throws `SdkError` at build. See docs/policy.md.
   */
  readonly permissions?: PermissionSettings | LayeredPermissionSettings;
  /** Lifecycle hooks (PreToolUse, PermissionRequest, PostToolUse, ...): in-process functions, commands or HTTP endpoints. */
  readonly hooks?: HookSettings;
}

/**
 * The registry's policy factory, or `undefined` when neither option is
 * given (then `approval` alone decides, as before).
 */
export async function policyFactoryOf(options: SdkPolicyOptions): Promise<ToolCallPolicyFactory | undefined> {
  if (options.permissions === undefined && options.hooks === undefined) return undefined;
  const { createPermissionPolicy } = await import("@agent-tools/policy");
  return createPermissionPolicy({
    ...(options.permissions === undefined ? {} : { permissions: options.permissions }),
    ...(options.hooks === undefined ? {} : { hooks: options.hooks }),
  });
}
