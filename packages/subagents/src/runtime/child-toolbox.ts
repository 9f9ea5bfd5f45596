import type { ModelToolCall, ToolRegistry, ToolResult, ToolSchema } from "@agent-tools/core";
import { isToolAllowedForChild, toolNotAvailableText } from "../domain/child-tool-policy.js";
import type { SubagentMode } from "../domain/subagent-types.js";
import type { Semaphore } from "./semaphore.js";

/** The tools a child sees and how its calls run. */
export interface ChildToolbox {
  /** Schemas offered to the child's model. */
  readonly tools: readonly ToolSchema[];
  /** Runs one of the child's tool calls; a tool it may not use answers with an error result. */
  execute(call: ModelToolCall, signal: AbortSignal): Promise<ToolResult>;
}

/** What {@link createChildToolbox} needs. */
export interface ChildToolboxOptions {
  readonly mode: SubagentMode;
  /**
   * The registry whose tools the child may use, filtered by the child tool
   * policy: the parent's (readonly mode) or a fresh one on the worktree.
   */
  readonly base: ToolRegistry;
  /** The child's own tools (its SendMessage), offered unfiltered; checked first. */
  readonly own?: ToolRegistry;
  /** Plan mode or a strictly read-only parent: no MCP business tools either. */
  readonly strictReadOnly?: boolean;
  /** Bash executions across all children. */
  readonly bash: Semaphore;
}

/** Tool names whose executions count against the children's Bash limit. */
const BASH_TOOLS = new Set(["Bash"]);

/**
 * The child's view of the tools: the base registry's tools the policy
 * allows for the mode, plus the child's own. Calls go through the registry
 * that owns the tool (validation, approval, output caps as for the parent);
 * Bash waits for a slot of the shared Bash limit.
 */
export function createChildToolbox(options: ChildToolboxOptions): ChildToolbox {
  const { base, own, mode } = options;
  const source = mode === "readonly" ? "parent" : "worktree";
  const allowed = (name: string): boolean => {
    const metadata = base.metadataByName[name];
    return metadata !== undefined && isToolAllowedForChild(mode, { name, metadata }, { strictReadOnly: options.strictReadOnly === true, source });
  };
  const ownNames = new Set(own?.tools.map((tool) => tool.name) ?? []);
  const tools = [...base.tools.filter((tool) => allowed(tool.name) && !ownNames.has(tool.name)), ...(own?.tools ?? [])];
  return {
    tools,
    async execute(call, signal) {
      const ownName = own?.resolveToolName(call.name);
      if (own !== undefined && ownName !== undefined) return own.executeToolCall({ id: call.id, name: ownName, arguments: call.arguments }, { signal });
      const name = base.resolveToolName(call.name);
      if (name === undefined || !allowed(name)) {
        return {
          content: [{ type: "text", text: toolNotAvailableText(call.name, mode) }],
          details: { code: "tool_not_available", toolName: call.name, mode },
          isError: true,
        };
      }
      const run = () => base.executeToolCall({ id: call.id, name, arguments: call.arguments }, { signal });
      return BASH_TOOLS.has(name) ? options.bash.run(run, signal) : run();
    },
  };
}
