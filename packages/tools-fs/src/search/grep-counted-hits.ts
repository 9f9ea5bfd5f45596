/** Hits known by their counts only, and hits cut to a count: the pieces a paged ripgrep search assembles. */
import type { GrepByteRange, GrepFileHits } from "./grep-result.js";

/** A file known by its match count and perhaps its first matching line (0 when not known): never rendered in content. */
export class CountedFileHits implements GrepFileHits {
  constructor(
    readonly path: string,
    readonly matchCount: number,
    readonly firstMatchLine = 0,
  ) {}
  matchLines(): readonly number[] {
    return [];
  }
  lineText(): undefined {
    return undefined;
  }
}

/** Hits of a page file, cut to the count of the counting run (binary files may differ). */
export class LimitedFileHits implements GrepFileHits {
  constructor(
    private readonly inner: GrepFileHits,
    readonly matchCount: number,
  ) {}
  get path(): string {
    return this.inner.path;
  }
  get firstMatchLine(): number {
    return this.inner.firstMatchLine;
  }
  matchLines(): readonly number[] {
    const lines = this.inner.matchLines();
    return lines.length > this.matchCount ? lines.slice(0, this.matchCount) : lines;
  }
  lineText(line: number): string | undefined {
    return this.inner.lineText(line);
  }
  lineBytes(line: number, range: GrepByteRange): boolean {
    return this.inner.lineBytes?.(line, range) ?? false;
  }
}
