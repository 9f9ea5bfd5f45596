import type { ToolPlugin } from "@agent-tools/core";
import { type FsToolBundleOptions, createFsToolBundle } from "./fs-tool-bundle.js";

/**
 * The file tools (Read, Image, Write, Edit, Delete, List, Glob, Grep) as a
 * plugin, in chat and cron; a subagent's child registry gets them too.
 *
 * @example
 * const registry = await composeToolRegistry({ workdir, plugins: [fsTools()] });
 */
export function fsTools(options: FsToolBundleOptions = {}): ToolPlugin {
  return { id: "fs", scopes: ["chat", "cron"], child: "inherit", create: () => createFsToolBundle(options) };
}
