import type { ToolPlugin } from "@agent-tools/core";
import { EDIT_DIAGNOSTICS_SLOT } from "@agent-tools/core/diagnostics";
import { createFastIo } from "./fast-io/fast-io.js";
import { type FsToolBundleOptions, assembleFsToolBundle } from "./fs-tool-bundle.js";
import { SearchCaches } from "./search/search-caches.js";

/**
 * The file tools (Read, Image, Write, Edit, Delete, List, Glob, Grep) as a
 * plugin, in chat and cron; a subagent's child registry gets them too.
 * Write, Edit, ApplyPatch and Delete report what their change broke through
 * the first provider another plugin contributes to `EDIT_DIAGNOSTICS_SLOT`
 * (e.g. `lspTools()`), read when each call runs.
 *
 * @example
 * const registry = await composeToolRegistry({ workdir, plugins: [fsTools()] });
 */
export function fsTools(options: FsToolBundleOptions = {}): ToolPlugin {
  return {
    id: "fs",
    scopes: ["chat", "cron"],
    child: "inherit",
    create: (host) =>
      assembleFsToolBundle(options, createFastIo(), new SearchCaches(), { editDiagnostics: () => host.contributions(EDIT_DIAGNOSTICS_SLOT)[0] }),
  };
}
