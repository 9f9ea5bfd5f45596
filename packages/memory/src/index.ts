/**
 * @agent-tools/memory: long-term memory for agents. MemoryManager over
 * Markdown files (the truth) with a derived full-text index on SQLite,
 * PostgreSQL or memory, and silent extraction plans.
 *
 * @packageDocumentation
 */
export { MEMORY_TYPES, MEMORY_LIMITS } from "./domain/memory-types.js";
export type {
  MemoryType,
  StoredMemoryType,
  MemoryScope,
  MemoryScopeQuery,
  MemoryConfidence,
  MemoryActor,
  MemoryAuditOp,
  MemoryKey,
  MemorySource,
  MemoryLinks,
  MemoryRecord,
  MemoryAuditEntry,
  MemoryOrganizeRun,
} from "./domain/memory-types.js";
export type {
  MemoryScopeRef,
  MemoryListQuery,
  MemoryListPage,
  MemoryTextQuery,
  MemoryTextHit,
  MemoryFileState,
  MemoryIndexChange,
  MemoryBatchConflict,
  MemoryIndexStore,
} from "./ports/memory-index-store.js";
