import type { ToolBundle, ToolDefinition } from "@agent-tools/core";
import { createApplyPatchTool } from "./apply-patch/apply-patch-tool.js";
import { createDeleteTool } from "./delete/delete-tool.js";
import { createEditTool } from "./edit/edit-tool.js";
import { createImageTool } from "./image/image-tool.js";
import { createReadTool } from "./read/read-tool.js";
import { createGlobTool } from "./search/glob-tool.js";
import { createGrepTool } from "./search/grep-tool.js";
import { GrepWorkerHost } from "./search/grep-worker-host.js";
import { createListTool } from "./search/list-tool.js";
import { createNotebookEditTool } from "./notebook-edit/notebook-edit-tool.js";
import { locateRipgrep } from "./search/ripgrep.js";
import { SearchCaches } from "./search/search-caches.js";
import { progressIntervalOption } from "./search/search-progress.js";
import { type FastIo, createFastIo } from "./fast-io/fast-io.js";
import { FileToolState } from "./shared/file-state.js";
import { MutationQueue } from "./file-engine/mutation-queue.js";
import { createWriteTool } from "./write/write-tool.js";
import { applyPatchDiagnosed, deleteDiagnosed, editDiagnosed, notebookEditDiagnosed, writeDiagnosed } from "./diagnosed-tools.js";
import { type EditDiagnosticsSource, withEditDiagnostics } from "./shared/edit-diagnostics-call.js";

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
   * main thread; larger content is hashed after the write on a background
   * worker thread owned by the bundle (stopped by `registry.close()`), and
   * the result's details then carry no `contentHash` (the file state gets
   * it when it arrives). Default 1 MiB; `Infinity` always hashes inline, so
   * every result carries its hash.
   */
  inlineHashLimitBytes?: number;
  /**
   * Grep without ripgrep (and Grep on a single file) matches a pattern that
   * may backtrack (any quantifier or alternation) on worker threads, and
   * stops after this many milliseconds of searching with a "pattern too
   * expensive" error (catastrophic backtracking, e.g. `(a+)+$`). Default
   * 10,000 ms; raise it for very large trees searched with complex
   * patterns. Literal-like patterns are never limited. The worker threads
   * are kept idle between calls, never keep the process alive, and are
   * released by `registry.close()`.
   */
  regexTimeBudgetMs?: number;
  /**
   * Grep and Glob report progress through the call's `onUpdate` once they
   * have run this many milliseconds, then at most once per this many
   * (counts so far: matches, files with a match, files walked; see
   * `GrepProgress` and `GlobProgress`); a search that ends sooner reports
   * nothing. Default 1000; `Infinity` never reports. Anything but a
   * positive number throws `SdkError` (`invalid_options`).
   */
  progressIntervalMs?: number;
}

/**
 * The file tools (Read, Image, Write, Edit, ApplyPatch, NotebookEdit, Delete,
 * List, Glob, Grep) as a bundle; each bundle, and so each registry, has its own file state.
 *
 * @example
 * const registry = createToolRegistry({ workdir: "/repo", bundles: [createFsToolBundle()] });
 * await registry.executeToolCall({ id: "1", name: "Read", arguments: { path: "README.md" } });
 */
export function createFsToolBundle(options: FsToolBundleOptions = {}): ToolBundle {
  return assembleFsToolBundle(options, createFastIo());
}

/**
 * {@link createFsToolBundle} with a given {@link FastIo} (and
 * {@link SearchCaches}), which the bundle then owns (its `close` closes
 * them), and what the plugin's host gives (`editDiagnostics`: the
 * registry's diagnostics provider, read at call time by Write, Edit,
 * ApplyPatch and Delete). Internal: the plugin and tests use it; not
 * exported from the package.
 */
export function assembleFsToolBundle(
  options: FsToolBundleOptions,
  fastIo: FastIo,
  searchCaches: SearchCaches = new SearchCaches(),
  host: { readonly editDiagnostics?: EditDiagnosticsSource } = {},
): ToolBundle {
  const progressIntervalMs = progressIntervalOption(options.progressIntervalMs);
  const environment = {
    state: options.state ?? new FileToolState(),
    mutations: new MutationQueue(),
    ripgrepPath: options.ripgrepPath === false ? null : (options.ripgrepPath ?? locateRipgrep()),
    fastIo,
    searchCaches,
  };
  const grepWorkers = new GrepWorkerHost();
  const tools: ToolDefinition[] = [
    createReadTool(environment),
    createImageTool(environment),
    withEditDiagnostics(createWriteTool(environment, { inlineHashLimitBytes: options.inlineHashLimitBytes }), host.editDiagnostics, writeDiagnosed),
    withEditDiagnostics(createEditTool(environment, { inlineHashLimitBytes: options.inlineHashLimitBytes }), host.editDiagnostics, editDiagnosed),
    withEditDiagnostics(createApplyPatchTool(environment), host.editDiagnostics, applyPatchDiagnosed),
    withEditDiagnostics(
      createNotebookEditTool(environment, { inlineHashLimitBytes: options.inlineHashLimitBytes }),
      host.editDiagnostics,
      notebookEditDiagnosed,
    ),
    withEditDiagnostics(createDeleteTool(environment), host.editDiagnostics, deleteDiagnosed),
    createListTool(environment),
    createGlobTool(environment, { progressIntervalMs }),
    createGrepTool(environment, { workers: grepWorkers, regexTimeBudgetMs: options.regexTimeBudgetMs, progressIntervalMs }),
  ];
  return {
    id: "fs",
    trusted: true,
    listTools: () => tools,
    close: async () => {
      // The Grep workers, the hashing worker, pooled buffers, WebAssembly
      // instances and search caches (ignore rules, Grep's text buffer) belong to this bundle.
      environment.searchCaches.close();
      await Promise.all([grepWorkers.close(), environment.fastIo.close()]);
    },
  };
}
