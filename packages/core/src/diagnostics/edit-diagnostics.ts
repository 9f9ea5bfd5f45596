/**
 * The contract between the tools that change files (Write, Edit,
 * ApplyPatch, Delete, NotebookEdit) and a plugin that can tell what a change
 * broke (the language servers of `@agent-tools/lsp`). The file tools never
 * import that plugin: it contributes an {@link EditDiagnostics} to
 * {@link EDIT_DIAGNOSTICS_SLOT}, and each changing tool calls `before` just
 * before it commits and `after` once its change is on disk, then appends
 * the report's text to its result and its details under `diagnostics`.
 */
import { type PluginSlot, definePluginSlot } from "../plugins/tool-plugin.js";

/** One changed file, as the changing tool reports it. */
export interface DiagnosticsFileChange {
  /** Absolute path in the workspace's namespace (canonical, as the tool wrote it). */
  readonly path: string;
  /** The path as the model should read it in the result (workspace-relative or `root://...`). */
  readonly displayPath: string;
  /** What happened to the file. A move reports `deleted` for the source and `created` for the target. */
  readonly change: "created" | "modified" | "deleted";
}

/** A problem a language server reported, 1-based as the model sees lines in Read. */
export interface EditDiagnostic {
  /** The file's display path. */
  readonly path: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based character (UTF-16 code units, as LSP counts them). */
  readonly character: number;
  readonly severity: "error" | "warning" | "information" | "hint";
  readonly message: string;
  /** The server's code, e.g. `2322` for TypeScript. */
  readonly code?: string | number;
  /** Who said it, e.g. `typescript`, `Pyright`. */
  readonly source?: string;
}

/** What the changing tool puts in `details.diagnostics`. */
export interface EditDiagnosticsDetails {
  /**
   * `clean`: nothing new; `new_problems`: `introduced` lists what the change
   * introduced; `pending`: the servers did not answer within the budget (a
   * later `LSP diagnostics` call or the next change shows them);
   * `unavailable`: no server handles these files (or it failed to start).
   */
  readonly status: "clean" | "new_problems" | "pending" | "unavailable";
  /** Problems present after the change that were not there before it (capped). */
  readonly introduced: readonly EditDiagnostic[];
  /** How many problems of the changed files the change removed. */
  readonly resolvedCount: number;
  /** Milliseconds spent waiting for the servers. */
  readonly waitedMs: number;
  /** Why `unavailable` or `pending`, for the host's logs. */
  readonly reason?: string;
}

/** The report of one change: text for the model (may be empty) and details. */
export interface EditDiagnosticsReport {
  /** Appended to the tool's result after a blank line; empty when nothing is worth telling. */
  readonly text: string;
  readonly details: EditDiagnosticsDetails;
}

/** Taken before the change; handed back to {@link EditDiagnostics.after}. Opaque to the tools. */
export interface EditDiagnosticsBaseline {
  readonly paths: readonly string[];
}

/** Options of both calls. */
export interface EditDiagnosticsCallOptions {
  /** The tool call's signal: aborting returns at once. */
  readonly signal?: AbortSignal;
}

/**
 * A diagnostics provider. Both calls must never throw for the tool (a
 * provider failure is a `status: "unavailable"` report) and must return
 * within the provider's own time budget.
 */
export interface EditDiagnostics {
  /** Records what the servers report for these files now (absolute workspace paths), before they change. */
  before(paths: readonly string[], options?: EditDiagnosticsCallOptions): Promise<EditDiagnosticsBaseline>;
  /**
   * After the change is committed: tells the servers, waits within the
   * budget, and reports what the change introduced (`undefined`: the
   * provider has nothing to say about these files, e.g. no language is
   * configured for them).
   */
  after(
    baseline: EditDiagnosticsBaseline,
    changes: readonly DiagnosticsFileChange[],
    options?: EditDiagnosticsCallOptions,
  ): Promise<EditDiagnosticsReport | undefined>;
}

/** Where a plugin contributes its diagnostics provider; the changing tools use the first one. */
export const EDIT_DIAGNOSTICS_SLOT: PluginSlot<EditDiagnostics> = definePluginSlot<EditDiagnostics>("core.editDiagnostics");
