/**
 * @agent-tools/memory: long-term memory for agents. MemoryManager over
 * Markdown files (the truth) with a derived full-text index on SQLite,
 * PostgreSQL or memory, and silent extraction plans.
 *
 * @packageDocumentation
 */
export type {
  StoredMemoryType,
  MemoryScope,
  MemoryRecord,
} from "./domain/memory-types.js";
export type { MemoryIndexStore } from "./ports/memory-index-store.js";
export { MemoryExtractionBudget } from "./extraction/extraction-budget.js";
export { applyMemoryPlan } from "./extraction/apply-memory-plan.js";
export { runMemoryExtraction } from "./extraction/run-memory-extraction.js";
export type {
  RunMemoryExtractionOptions,
  MemoryExtractionOutcome,
} from "./extraction/run-memory-extraction.js";
export { InMemoryMemoryIndexStore } from "./ports/in-memory-memory-index-store.js";
export { MemoryService, openMemoryService } from "./runtime/memory-service.js";
export type { MemoryServiceOptions } from "./runtime/memory-service.js";
export { createMemoryToolBundle } from "./tools/memory-tool-bundle.js";
export type { MemoryToolBundleOptions } from "./tools/memory-tool-bundle.js";
export type { MemoryManagerDetails } from "./tools/memory-manager-output.js";
export { KyselyMemoryIndexStore } from "./stores/kysely-memory-index-store.js";
export { memoryTools } from "./tools/memory-tools-plugin.js";
