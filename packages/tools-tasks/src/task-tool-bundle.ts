import type { ToolBundle, ToolDefinition } from "@agent-tools/core";

/** Options of {@link createTaskToolBundle}. */
export interface TaskToolBundleOptions {}

/** The task tools as a bundle (chat scope only). */
export function createTaskToolBundle(_options: TaskToolBundleOptions = {}): ToolBundle {
  const tools: ToolDefinition[] = [];
  return { id: "tasks", trusted: true, listTools: () => tools };
}
