/**
 * The answer of a Grep call, the same on the local disk and on a workspace:
 * the hits rendered for one page and the details that count them.
 */
import { renderGrep } from "./grep-format.js";
import type { GrepFileHits } from "./grep-result.js";
import type { SearchBase } from "./search-base.js";
import type { SearchCaches } from "./search-caches.js";

/** The arguments of a Grep call that shape its answer. */
export interface GrepAnswerInput {
  readonly pattern: string;
  readonly output_mode: "content" | "files" | "count";
  readonly offset: number;
  readonly head_limit: number;
}

/** How one Grep call is answered. */
export interface GrepAnswerOptions {
  readonly input: GrepAnswerInput;
  readonly base: SearchBase;
  /** Context lines around a match (0 unless `output_mode` is `content`). */
  readonly context: number;
  readonly engine: "ripgrep" | "typescript";
  readonly maxChars?: number;
  readonly caches?: SearchCaches;
}

/** Renders `hits` as a Grep result (text and details). */
export function grepAnswer(hits: GrepFileHits[], options: GrepAnswerOptions) {
  const { input, base } = options;
  const rendered = renderGrep(
    hits,
    {
      outputMode: input.output_mode,
      offset: input.offset,
      headLimit: input.head_limit,
      context: options.context,
      displayDirectory: base.displayDirectory,
      pattern: input.pattern,
      maxChars: options.maxChars,
    },
    options.caches,
  );
  return {
    content: rendered.text,
    details: {
      kind: "grep" as const,
      pattern: input.pattern,
      path: base.fileName !== undefined ? base.resolved.displayPath : base.displayDirectory,
      outputMode: input.output_mode,
      matchCount: rendered.matchCount,
      fileCount: rendered.fileCount,
      returned: rendered.returned,
      offset: input.offset,
      hasMore: rendered.hasMore,
      engine: options.engine,
    },
  };
}
