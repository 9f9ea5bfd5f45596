/**
 * Tables of the memory index and the conversions between their rows and
 * the domain records. Shared by both dialects; JSON lives in text columns.
 */
import type { MemoryAuditEntry, MemoryOrganizeRun, MemoryRecord } from "../domain/memory-types.js";

/** Meta rows: one per entry, keyed by (scope, workdir_hash, slug), with an integer id the text indexes refer to. */
export const MEMORY_META_TABLE = "memory_meta";
/** The audit log. */
export const MEMORY_AUDIT_TABLE = "memory_audit_log";
/** Runs of the extractor and organisers. */
export const MEMORY_ORGANIZE_RUNS_TABLE = "memory_organize_runs";

/** Columns of {@link MEMORY_META_TABLE} (integers may come back as strings from PostgreSQL's bigint). */
export interface MemoryMetaRow {
  id: number | string;
  scope: string;
  workdir_hash: string;
  slug: string;
  type: string;
  description: string;
  body: string;
  date_local: string | null;
  unreviewed: number;
  risk_flags_json: string;
  source_json: string;
  links_json: string;
  append_count: number;
  archived: number;
  body_hash: string;
  file_mtime_ms: number;
  file_size: number | string;
  created_at: number | string;
  updated_at: number | string;
}

/** Columns of {@link MEMORY_AUDIT_TABLE}. */
export interface MemoryAuditRow {
  id: number | string;
  at: number | string;
  op: string;
  actor: string;
  scope: string;
  workdir_hash: string;
  slug: string;
  detail_json: string | null;
}

/** Columns of {@link MEMORY_ORGANIZE_RUNS_TABLE}. */
export interface MemoryOrganizeRunRow {
  id: string;
  started_at: number | string;
  finished_at: number | string | null;
  status: string;
  note: string | null;
  applied: number;
  rejected: number;
  conversation_id: string | null;
}

/** Meta columns written from a record (everything but the id). */
export type MemoryMetaValues = Omit<MemoryMetaRow, "id">;

/** Meta columns that hold an entry's values: all but the id and the key (scope, workdir_hash, slug). */
export const META_VALUE_COLUMNS: readonly (keyof MemoryMetaRow)[] = [
  "type",
  "description",
  "body",
  "date_local",
  "unreviewed",
  "risk_flags_json",
  "source_json",
  "links_json",
  "append_count",
  "archived",
  "body_hash",
  "file_mtime_ms",
  "file_size",
  "created_at",
  "updated_at",
];

/** The meta columns of a record. */
export function recordToMetaValues(record: MemoryRecord): MemoryMetaValues {
  return {
    scope: record.scope,
    workdir_hash: record.workdirHash,
    slug: record.slug,
    type: record.type,
    description: record.description,
    body: record.body,
    date_local: record.dateLocal ?? null,
    unreviewed: record.unreviewed ? 1 : 0,
    risk_flags_json: JSON.stringify(record.riskFlags),
    source_json: JSON.stringify(record.source),
    links_json: JSON.stringify(record.links),
    append_count: record.appendCount,
    archived: record.archived ? 1 : 0,
    body_hash: record.bodyHash,
    file_mtime_ms: record.fileMtimeMs,
    file_size: record.fileSize,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  };
}

/** The record a meta row holds. */
export function metaRowToRecord(row: MemoryMetaRow): MemoryRecord {
  return {
    scope: row.scope as MemoryRecord["scope"],
    workdirHash: row.workdir_hash,
    slug: row.slug,
    type: row.type as MemoryRecord["type"],
    description: row.description,
    body: row.body,
    ...(row.date_local === null ? {} : { dateLocal: row.date_local }),
    unreviewed: Number(row.unreviewed) === 1,
    riskFlags: JSON.parse(row.risk_flags_json) as string[],
    source: JSON.parse(row.source_json) as MemoryRecord["source"],
    links: JSON.parse(row.links_json) as MemoryRecord["links"],
    appendCount: Number(row.append_count),
    archived: Number(row.archived) === 1,
    bodyHash: row.body_hash,
    fileMtimeMs: Number(row.file_mtime_ms),
    fileSize: Number(row.file_size),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** The audit entry a row holds. */
export function auditRowToEntry(row: MemoryAuditRow): MemoryAuditEntry {
  return {
    at: Number(row.at),
    op: row.op as MemoryAuditEntry["op"],
    actor: row.actor as MemoryAuditEntry["actor"],
    scope: row.scope as MemoryAuditEntry["scope"],
    workdirHash: row.workdir_hash,
    slug: row.slug,
    ...(row.detail_json === null ? {} : { detail: JSON.parse(row.detail_json) as Record<string, unknown> }),
  };
}

/** The run a row holds. */
export function organizeRunRowToRun(row: MemoryOrganizeRunRow): MemoryOrganizeRun {
  return {
    id: row.id,
    startedAt: Number(row.started_at),
    ...(row.finished_at === null ? {} : { finishedAt: Number(row.finished_at) }),
    status: row.status,
    ...(row.note === null ? {} : { note: row.note }),
    applied: Number(row.applied),
    rejected: Number(row.rejected),
    ...(row.conversation_id === null ? {} : { conversationId: row.conversation_id }),
  };
}
