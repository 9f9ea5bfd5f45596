/**
 * The memory domain's vocabulary: types, scopes, entries and the limits every
 * layer shares. Pure data, no I/O.
 */

/** Kinds of entry the model writes. `daily` journals are managed by appends, not written. */
export const MEMORY_TYPES = ["user", "feedback", "project", "reference"] as const;
/** A kind of entry the model writes. */
export type MemoryType = (typeof MEMORY_TYPES)[number];
/** A kind of stored entry: the written types plus the append-managed daily journal. */
export type StoredMemoryType = MemoryType | "daily";

/** Where an entry lives: one global store, or one per project (canonical workdir). */
export type MemoryScope = "global" | "project";
/** Scope as the model asks for it: `auto` reads global plus the current project. */
export type MemoryScopeQuery = MemoryScope | "auto";

/** Evidence confidence of a write; downgraded when the quote does not support it. */
export type MemoryConfidence = "high" | "medium" | "low";

/** Who caused a change, as the audit log records it. */
export type MemoryActor = "user" | "tool" | "extractor" | "reconcile";
/** What a change was, as the audit log records it. */
export type MemoryAuditOp = "write" | "update" | "delete" | "restore" | "batch" | "accept" | "wipe" | "reconcile";

/** Limits of the memory tools (bytes are UTF-8 bytes). */
export const MEMORY_LIMITS = {
  /** Body of a non-daily entry. */
  bodyBytes: 8 * 1024,
  /** Body of a daily journal. */
  dailyBodyBytes: 32 * 1024,
  /** A daily journal past this many bytes gets a warning in the answer. */
  dailyWarningBytes: 28 * 1024,
  /** Non-daily entries per scope (global, or one project); overwrites are exempt. */
  entriesPerScope: 500,
  descriptionMinChars: 1,
  descriptionMaxChars: 120,
  sourceQuoteMaxChars: 80,
  reasoningMaxChars: 240,
  overrideRejectMaxChars: 240,
  aliasesMax: 8,
  conflictsWithMax: 8,
  /** `length` of a read (lines). */
  readLengthMax: 500,
  /** `limit` of list/search. */
  resultLimitMax: 32,
  resultLimitDefault: 8,
  /** Hour of local time at which the daily journal rolls over to the next date. */
  dailyRolloverHour: 4,
  /** Daily journals older than this many days are archived. */
  dailyArchiveDays: 90,
} as const;

/** Identity of one entry: scope, project hash (empty for global) and slug. */
export interface MemoryKey {
  readonly scope: MemoryScope;
  /** First 16 hex characters of the SHA-256 of the canonical workdir; `""` for global. */
  readonly workdirHash: string;
  readonly slug: string;
}

/** Where a write's content came from and how sure it is (kept as JSON in the index). */
export interface MemorySource {
  readonly confidence: MemoryConfidence;
  readonly sourceQuote?: string;
  readonly reasoning?: string;
  /** True when the evidence contract lowered the requested confidence. */
  readonly autoDowngraded?: boolean;
  /** Conversation or run that wrote it, when the host says. */
  readonly conversationId?: string;
}

/** Links to other entries (kept as JSON in the index). */
export interface MemoryLinks {
  readonly aliases?: readonly string[];
  readonly supersedes?: string;
  readonly conflictsWith?: readonly string[];
}

/**
 * One entry as the index holds it. The Markdown file is the truth; the index
 * row mirrors it plus the file state it was derived from.
 */
export interface MemoryRecord extends MemoryKey {
  readonly type: StoredMemoryType;
  readonly description: string;
  readonly body: string;
  /** `YYYY-MM-DD` of a daily journal (then scope is global); undefined otherwise. */
  readonly dateLocal?: string;
  /** Written by the extractor and not yet accepted. */
  readonly unreviewed: boolean;
  /** Soft risk patterns found in the content (stored, flagged). */
  readonly riskFlags: readonly string[];
  readonly source: MemorySource;
  readonly links: MemoryLinks;
  /** Appends to a daily journal. */
  readonly appendCount: number;
  /** Archived daily journals are left out of search and list unless asked. */
  readonly archived: boolean;
  /** SHA-256 hex of the Markdown file's bytes. */
  readonly bodyHash: string;
  readonly fileMtimeMs: number;
  readonly fileSize: number;
  /** Epoch ms. */
  readonly createdAt: number;
  /** Epoch ms. */
  readonly updatedAt: number;
}

/** One line of the audit log. */
export interface MemoryAuditEntry {
  readonly at: number;
  readonly op: MemoryAuditOp;
  readonly actor: MemoryActor;
  readonly scope: MemoryScope;
  readonly workdirHash: string;
  readonly slug: string;
  /** Free JSON-able detail (mode, previous hash, batch size...). */
  readonly detail?: Readonly<Record<string, unknown>>;
}

/** One run of the extractor or an organiser, as the organise-runs table records it. */
export interface MemoryOrganizeRun {
  readonly id: string;
  readonly startedAt: number;
  readonly finishedAt?: number;
  /** `updated`, `noop`, `failed`, `timeout`, `skipped`. */
  readonly status: string;
  readonly note?: string;
  readonly applied: number;
  readonly rejected: number;
  readonly conversationId?: string;
}
