import type { ToolBundle, ToolDefinition } from "@agent-tools/core";

/** Options of {@link createShellToolBundle}. */
export interface ShellToolBundleOptions {}

/** The shell tools as a bundle. */
export function createShellToolBundle(_options: ShellToolBundleOptions = {}): ToolBundle {
  const tools: ToolDefinition[] = [];
  return { id: "shell", trusted: true, listTools: () => tools };
}
