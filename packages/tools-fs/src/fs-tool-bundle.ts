import type { ToolBundle, ToolDefinition } from "@agent-tools/core";
import { createDeleteTool } from "./delete/delete-tool.js";
import { createEditTool } from "./edit/edit-tool.js";
import { createImageTool } from "./image/image-tool.js";
import { createReadTool } from "./read/read-tool.js";
import { createGlobTool } from "./search/glob-tool.js";
import { createGrepTool } from "./search/grep-tool.js";
import { createListTool } from "./search/list-tool.js";
import { locateRipgrep } from "./search/ripgrep.js";
import { FileToolState } from "./shared/file-state.js";
import { createWriteTool } from "./write/write-tool.js";

/** Options of {@link createFsToolBundle}. */
export interface FsToolBundleOptions {
  /**
   * The ripgrep binary Grep and Glob run: a path, `false` to always use the
   * pure TypeScript engines, or undefined (default) for the binary inside
   * `@vscode/ripgrep` when it is installed.
   */
  ripgrepPath?: string | false;
  /** The file state to use; default a fresh one per bundle (i.e. per registry). */
  state?: FileToolState;
  /**
   * Edit and Write hash (FNV-1a 64) new content up to this many bytes on the
   * main thread; larger content is hashed on a shared background worker
   * thread after the write, and the result reports `contentHash: ""` with
   * `contentHashPending: true` until the file state has it. Default 1 MiB;
   * `Infinity` always hashes inline.
   */
  inlineHashLimitBytes?: number;
}

/**
 * The file tools (Read, Image, Write, Edit, Delete, List, Glob, Grep) as a
 * bundle; each bundle, and so each registry, has its own file state.
 *
 * @example
 * const registry = createToolRegistry({ workdir: "/repo", bundles: [createFsToolBundle()] });
 * await registry.executeToolCall({ id: "1", name: "Read", arguments: { path: "README.md" } });
 */
export function createFsToolBundle(options: FsToolBundleOptions = {}): ToolBundle {
  const environment = {
    state: options.state ?? new FileToolState(),
    ripgrepPath: options.ripgrepPath === false ? null : (options.ripgrepPath ?? locateRipgrep()),
  };
  const tools: ToolDefinition[] = [
    createReadTool(environment),
    createImageTool(environment),
    createWriteTool(environment, { inlineHashLimitBytes: options.inlineHashLimitBytes }),
    createEditTool(environment, { inlineHashLimitBytes: options.inlineHashLimitBytes }),
    createDeleteTool(environment),
    createListTool(environment),
    createGlobTool(environment),
    createGrepTool(environment),
  ];
  return { id: "fs", trusted: true, listTools: () => tools };
}
