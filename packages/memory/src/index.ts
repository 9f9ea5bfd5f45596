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
export { MEMORY_SLUG_PATTERN, normalizeSlug, checkSlug, suggestSlug, dailySlug, isDailySlug } from "./domain/slug.js";
export {
  MEMORY_ERROR_CODES,
  MEMORY_READ_ONLY_MESSAGE,
  slugInvalid,
  quotaExceeded,
  riskHardBlocked,
  bodyTooLarge,
  dailyNotWritable,
  readOnlyMode,
  notFound,
  conflict,
} from "./domain/memory-errors.js";
export type { MemoryToolErrorJson, MemoryErrorCode } from "./domain/memory-errors.js";
export { HIGH_CONFIDENCE_MIN_QUOTE_CHARS, applyEvidenceContract } from "./domain/evidence.js";
export { MEMORY_SECRET_PATTERNS, MEMORY_SOFT_RISK_PATTERNS, screenMemoryContent } from "./domain/risk-filter.js";
export type { MemoryRiskVerdict } from "./domain/risk-filter.js";
export { renderMemoryMarkdown, parseMemoryMarkdown, descriptionFromBody } from "./domain/memory-markdown.js";
export type { MemoryDocument } from "./domain/memory-markdown.js";
export { dailyDateLocal, isDailyArchived, dailyDateFromSlug, dateLocalToEpochDay } from "./domain/daily-dates.js";
export { MEMORY_STOP_WORDS, MEMORY_QUERY_EXPANSIONS, buildMemorySearchTerms, normalizeSearchText, hasCjkText } from "./domain/search-query.js";
export type { MemorySearchTerms, MemoryQueryExpansion } from "./domain/search-query.js";
export {
  MEMORY_RANK_WEIGHTS,
  MEMORY_TRIGRAM_MIN_WORD_HITS,
  bm25Score,
  memoryRankWeight,
  rankMemoryHits,
  shouldQueryTrigram,
} from "./domain/search-ranking.js";
export type { RankedMemoryHit, MemoryRankInputHit } from "./domain/search-ranking.js";
export { MEMORY_PLAN_ACTIONS } from "./extraction/validated-plan-item.js";
export type { ValidatedPlanItem, MemoryPlanAction, MemoryPlanUpdateMode } from "./extraction/validated-plan-item.js";
export {
  MEMORY_PLAN_REJECTION_CODES,
  MEMORY_PLAN_MAX_ITEMS,
  MEMORY_PLAN_NOTE_MAX_CHARS,
  validateMemoryPlan,
} from "./extraction/validate-memory-plan.js";
export type { MemoryPlanRejectionCode, MemoryPlanContext, MemoryPlanRejection, ValidatedMemoryPlan } from "./extraction/validate-memory-plan.js";
export type { MemoryPlanTarget, MemoryPlanBatchResult } from "./extraction/memory-plan-target.js";
export {
  SUBMIT_MEMORY_PLAN_TOOL_NAME,
  SUBMIT_MEMORY_PLAN_DESCRIPTION,
  memoryPlanItemSchema,
  submitMemoryPlanInputSchema,
  submitMemoryPlanToolSchema,
} from "./extraction/submit-memory-plan.js";
export type { SubmitMemoryPlanInput } from "./extraction/submit-memory-plan.js";
export { MEMORY_EXTRACTION_LIMITS, MemoryExtractionBudget } from "./extraction/extraction-budget.js";
export type { MemoryExtractionLimits, MemoryExtractionBlock } from "./extraction/extraction-budget.js";
export { applyMemoryPlan } from "./extraction/apply-memory-plan.js";
export type { AppliedMemoryPlan } from "./extraction/apply-memory-plan.js";
export { runMemoryExtraction, extractionMessages } from "./extraction/run-memory-extraction.js";
export type {
  RunMemoryExtractionOptions,
  MemoryExtractionOutcome,
  MemoryExtractionTurn,
  MemoryExtractionKnownEntry,
} from "./extraction/run-memory-extraction.js";
export { InMemoryMemoryIndexStore } from "./ports/in-memory-memory-index-store.js";
export { PlainBm25Index, foldText, tokenizeWords } from "./ports/plain-bm25.js";
export type { PlainBm25Options, PlainBm25Hit } from "./ports/plain-bm25.js";
export { MemoryService, openMemoryService } from "./runtime/memory-service.js";
export type { MemoryServiceOptions } from "./runtime/memory-service.js";
export type {
  MemoryRefusal,
  MemoryListRequest,
  MemoryListItem,
  MemoryListResult,
  MemoryReadRequest,
  MemoryReadResult,
  MemorySearchRequestInput,
  MemorySearchResult,
  MemoryWriteRequest,
  MemoryUpdateRequest,
  MemoryKeyRequest,
  MemoryChangeResult,
  MemoryServiceChangeOptions,
} from "./runtime/memory-service-types.js";
export type { MemoryEvidenceInput, MemoryChangeOptions, MemoryChangeNotes, MemoryUpdateMode } from "./runtime/memory-mutations.js";
export type { MemoryHistorySearch, MemoryHistoryQuery, MemoryHistoryHit, MemoryHistoryTimeMode } from "./runtime/memory-history.js";
export type { MemoryBatchItem, MemoryBatchItemResult, MemoryBatchResult } from "./runtime/memory-batch.js";
export type { MemoryReconcileReport } from "./runtime/memory-reconcile.js";
export { defaultMemoryRoot, workdirHashOf } from "./runtime/memory-layout.js";
export { createMemoryToolBundle } from "./tools/memory-tool-bundle.js";
export type { MemoryToolBundleOptions, MemoryToolBundle } from "./tools/memory-tool-bundle.js";
export { createMemoryManagerTool, memoryToolMetadata } from "./tools/memory-manager-tool.js";
export type { MemoryToolMode, MemoryServiceResolver } from "./tools/memory-manager-tool.js";
export { MEMORY_MANAGER_ACTIONS, MEMORY_MANAGER_DESCRIPTION, memoryManagerInputSchema } from "./tools/memory-manager-schema.js";
export type { MemoryManagerInput } from "./tools/memory-manager-schema.js";
export type { MemoryManagerDetails } from "./tools/memory-manager-output.js";
export { KyselyMemoryIndexStore } from "./stores/kysely-memory-index-store.js";
export { MEMORY_STORAGE_NAMESPACE, MEMORY_STORAGE_MIGRATIONS } from "./stores/memory-migrations.js";
export { memoryTools } from "./tools/memory-tools-plugin.js";
