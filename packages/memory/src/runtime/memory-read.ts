import { MEMORY_LIMITS, type MemoryKey, type MemoryRecord } from "../domain/memory-types.js";
import type { MemoryIndexStore, MemoryScopeRef } from "../ports/memory-index-store.js";
import { readCurrentEntry } from "./memory-entry-io.js";
import type { MemoryLayout } from "./memory-layout.js";
import type { MemoryReadRequest, MemoryReadResult, MemoryRefusal } from "./memory-service-types.js";

/**
 * Reads lines of the first of `refs` that holds `slug` (the project before
 * the global scope for `auto`). The file is read, not the index, so an entry
 * edited by hand and not yet reconciled reads as it is on disk.
 */
export async function readMemoryEntry(
  layout: MemoryLayout,
  store: MemoryIndexStore,
  refs: readonly MemoryScopeRef[],
  slug: string,
  request: MemoryReadRequest,
): Promise<MemoryReadResult | MemoryRefusal> {
  for (const ref of refs) {
    const key: MemoryKey = { ...ref, slug };
    const current = await readCurrentEntry(layout, store, key);
    if (current.file === undefined) continue;
    const { document, snapshot } = current.file;
    const record: MemoryRecord = {
      archived: false,
      ...current.record,
      ...key,
      ...document,
      bodyHash: snapshot.hash,
      fileMtimeMs: snapshot.mtimeMs,
      fileSize: snapshot.size,
    };
    const all = document.body === "" ? [] : document.body.replace(/\n$/, "").split("\n");
    const start = Math.max(1, request.offset ?? 1);
    const length = Math.min(MEMORY_LIMITS.readLengthMax, Math.max(1, request.length ?? MEMORY_LIMITS.readLengthMax));
    return { ok: true, record, lines: all.slice(start - 1, start - 1 + length), startLine: start, totalLines: all.length };
  }
  const where = request.scope === "global" || request.scope === "project" ? `the ${request.scope} scope` : "the global or project scope";
  return {
    ok: false,
    error: { error: "not_found", message: `No memory entry "${slug}" in ${where}. Use action "list" or "search" to find the right slug and scope.` },
  };
}
