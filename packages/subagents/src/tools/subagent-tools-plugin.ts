import type { ToolPlugin } from "@agent-tools/core";
import { type SubagentToolBundle, type SubagentToolBundleOptions, createSubagentToolBundle } from "./subagent-tool-bundle.js";

/** Options of {@link subagentTools}: those of the bundle but what the host gives (the registry, its child registries and roots). */
export interface SubagentToolsPluginOptions extends Omit<SubagentToolBundleOptions, "parentRegistry" | "createWorktreeRegistry" | "additionalRoots"> {
  /** Called with the bundle once built (e.g. to take `parentBus`). */
  readonly onReady?: (bundle: SubagentToolBundle) => void;
}

/**
 * Agent and SendMessage as a plugin (chat scope): read-only children run on
 * the registry this plugin is part of; worktree children on
 * `host.createChildRegistry`, which the composition builds from every
 * plugin's `child` policy. Never in a child itself.
 *
 * @example
 * const registry = await buildToolRegistry({ workdir, plugins: [fsTools(), shellTools(), subagentTools({ model, worktrees })] });
 */
export function subagentTools(options: SubagentToolsPluginOptions): ToolPlugin {
  return {
    id: "subagents",
    scopes: ["chat"],
    child: "omit",
    create(host) {
      const { onReady, ...bundleOptions } = options;
      const bundle = createSubagentToolBundle({
        ...bundleOptions,
        parentRegistry: () => host.registry.registry(),
        createWorktreeRegistry: (request) => host.createChildRegistry(request),
        additionalRoots: host.additionalRoots,
      });
      onReady?.(bundle);
      return bundle;
    },
  };
}
