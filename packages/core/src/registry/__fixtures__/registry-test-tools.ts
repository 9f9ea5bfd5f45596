/** Test fixtures of the registry tests: metadata, a bundle maker and the Echo tool. */
import { z } from "zod";
import type { ToolBundle, ToolDefinition } from "../../types.js";
import { defineTool } from "../define-tool.js";

/** Metadata of a read-only file tool. */
export const readMeta = { groupId: "fs", kind: "read", isReadOnly: true, displayCategory: "file" } as const;
/** Metadata of a file tool that writes. */
export const writeMeta = { groupId: "fs", kind: "write", isReadOnly: false, displayCategory: "file" } as const;

/** A bundle offering `tools`. */
export function bundle(id: string, tools: ToolDefinition[], trusted = true): ToolBundle {
  return { id, trusted, listTools: () => tools };
}

/** Returns its text, `times` times. */
export const Echo = defineTool({
  name: "Echo",
  description: "Returns its text.",
  inputSchema: z.object({ text: z.string().min(1), times: z.number().int().min(1).max(3).optional() }),
  metadata: readMeta,
  execute: ({ text, times }) => ({ content: text.repeat(times ?? 1), details: { length: text.length } }),
});

/** The spec a tool was defined from, to define a variant of it. */
export function specOf(tool: ToolDefinition) {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema as z.ZodObject, metadata: tool.metadata, execute: tool.execute };
}
