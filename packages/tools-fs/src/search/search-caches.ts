import type { CompiledIgnoreFile } from "./gitignore-matcher.js";

/** Cached verdicts (ignored or not) per entry name, for one sequence of ignore files and states. */
export interface NameVerdicts {
  readonly files: Map<string, boolean>;
  readonly directories: Map<string, boolean>;
}

/**
 * The search caches of one file-tool bundle (i.e. one registry): compiled
 * ignore files, name verdicts per ignore-file stack and Grep's reused text
 * buffer. They survive across calls of the bundle's tools (that keeps
 * Glob, List and Grep fast) and are dropped by {@link SearchCaches.close},
 * which the bundle's close (`registry.close()`) calls; a closed cache keeps
 * nothing more, so a late call still works, uncached.
 *
 * Callers without a bundle (tests, `walkTree` from the package index) get a
 * fresh cache per call.
 */
export class SearchCaches {
  /** Compiled ignore files by text (bounded: {@link SearchCaches.FILE_LIMIT}, oldest first out). */
  readonly ignoreFiles = new Map<string, CompiledIgnoreFile>();
  /** Name verdicts per ignore-file stack (key: compiled file ids and state ids). */
  readonly nameVerdicts = new Map<string, NameVerdicts>();
  /** Verdicts in every stack of {@link nameVerdicts} together (bounded: {@link SearchCaches.VERDICT_LIMIT}). */
  cachedVerdicts = 0;
  /** Grep's text buffer kept for the next rendering (up to {@link SearchCaches.KEPT_BYTES}). */
  spare: Buffer | undefined;
  private closed = false;

  /** Compiled ignore files kept. */
  static readonly FILE_LIMIT = 256;
  /** Ignore-file stacks kept; past it the stacks start over. */
  static readonly STACK_LIMIT = 10_000;
  /** Verdicts of all stacks together (a few MB); past it every stack starts over. */
  static readonly VERDICT_LIMIT = 200_000;
  /** A text buffer up to this size is kept for the next rendering (fresh memory costs page faults). */
  static readonly KEPT_BYTES = 16 * 1024 * 1024;

  /** Whether {@link close} ran: nothing is kept any more. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Whether nothing is cached (for tests). */
  get isEmpty(): boolean {
    return this.ignoreFiles.size === 0 && this.nameVerdicts.size === 0 && this.cachedVerdicts === 0 && this.spare === undefined;
  }

  /** Drops every verdict stack (directories holding one keep their now empty maps). */
  clearVerdicts(): void {
    for (const stack of this.nameVerdicts.values()) {
      stack.files.clear();
      stack.directories.clear();
    }
    this.nameVerdicts.clear();
    this.cachedVerdicts = 0;
  }

  /** Drops everything and keeps nothing from now on. */
  close(): void {
    this.closed = true;
    this.clearVerdicts();
    this.ignoreFiles.clear();
    this.spare = undefined;
  }
}
