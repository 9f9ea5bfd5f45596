import type { ToolBundle, ToolDefinition } from "@agent-tools/core";

/** Options of {@link createFsToolBundle}. */
export interface FsToolBundleOptions {}

/** The file tools as a bundle; each registry gets its own file state. */
export function createFsToolBundle(_options: FsToolBundleOptions = {}): ToolBundle {
  const tools: ToolDefinition[] = [];
  return { id: "fs", trusted: true, listTools: () => tools };
}
