import { type RuntimeScope, SdkError, type ToolBundle, type ToolDefinition, type ToolPlugin } from "@agent-tools/core";
import { createTaskToolBundle } from "@agent-tools/tools-tasks";

/**
 * The host's own tools as one trusted bundle (`host`), checked against every
 * tool of the plugins listed before it. Checked across scopes (the cron
 * registry has no task tools, so their names are reserved here too), so a
 * tool list that builds in one scope builds in the other; and
 * case-insensitively, because calls resolve names case-insensitively. Not
 * in a worktree child.
 */
export function hostToolsPlugin(tools: readonly ToolDefinition[]): ToolPlugin {
  return {
    id: "host-tools",
    scopes: ["chat", "cron"],
    child: "omit",
    create: (host) => hostToolBundle(tools, host.earlierTools(), host.runtimeScope),
  };
}

/** The host's own bundles, as given (a trusted one's duplicate of an earlier name throws). Not in a worktree child. */
export function hostBundlesPlugin(bundles: readonly ToolBundle[]): ToolPlugin {
  return {
    id: "host-bundles",
    scopes: ["chat", "cron"],
    child: "omit",
    create: () => {
      if (!Array.isArray(bundles)) throw new SdkError("invalid_options", "bundles must be an array of tool bundles.");
      return bundles;
    },
  };
}

function hostToolBundle(
  tools: readonly ToolDefinition[],
  earlier: ReadonlyArray<{ readonly name: string; readonly bundleId: string }>,
  runtimeScope: RuntimeScope,
): ToolBundle {
  if (!Array.isArray(tools)) throw new SdkError("invalid_options", "tools must be an array of tool definitions (defineTool).");
  const reserved = new Map<string, string>();
  const taskTools =
    runtimeScope === "chat"
      ? []
      : createTaskToolBundle()
          .listTools()
          .map((tool) => ({ name: tool.name, bundleId: "tasks" }));
  for (const tool of [...earlier, ...taskTools]) reserved.set(tool.name.toLowerCase(), `${tool.name} (bundle ${tool.bundleId})`);
  const seen = new Map<string, string>();
  for (const tool of tools) {
    if (tool === null || typeof tool !== "object" || typeof tool.name !== "string" || typeof tool.execute !== "function" || !Array.isArray(tool.scopes)) {
      throw new SdkError("invalid_options", "Each entry of tools must be a tool definition made with defineTool.");
    }
    const key = tool.name.toLowerCase();
    const builtin = reserved.get(key);
    if (builtin !== undefined) {
      throw new SdkError("duplicate_tool", `Host tool ${tool.name} collides with the built-in tool ${builtin}; give it another name.`, { name: tool.name });
    }
    const previous = seen.get(key);
    if (previous !== undefined)
      throw new SdkError("duplicate_tool", `Host tools ${previous} and ${tool.name} have the same name; names must differ (case-insensitively).`, {
        name: tool.name,
      });
    seen.set(key, tool.name);
  }
  const list = [...tools];
  return { id: "host", trusted: true, listTools: () => list };
}
