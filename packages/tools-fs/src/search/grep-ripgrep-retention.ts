/**
 * Which files of a ripgrep run keep their lines while the run prints.
 * ripgrep prints files in the order its threads finish them, not in the
 * path order a page is rendered in, so a page's files are only known once
 * the run ends. A content page reaches no further than its `head_limit`
 * lines and, under an output cap, than the characters the cap allows: a
 * file whose earlier files (by path) already fill the page can never be on
 * it, whatever else the run still prints (more files before it only push it
 * further). Such files are only counted, so one run answers any page while
 * holding about what the page can show.
 */
import { comparePaths } from "./file-walker.js";
import { CountedFileHits } from "./grep-counted-hits.js";
import type { GrepFileHits } from "./grep-result.js";

/**
 * Fewest characters a rendered content line takes besides its path: `:`, a
 * line number, `: ` and the line feed. A page can reach no further than
 * `maxChars` allows at this many characters plus the path per line.
 */
export const MIN_LINE_CHARS_BESIDES_PATH = 5;

/** Bytes of kept records below which a {@link PageRetention} does not look for files to let go of. */
const PRUNE_MIN_BYTES = 1024 * 1024;

/** Decides, file by file as a run prints them, which files keep their lines (see {@link pageRetention}, {@link arrivalRetention}). */
export interface HitsRetention {
  /** Adds a file's hits (`bytes`: its records) to `files`, kept or only counted. */
  add(files: GrepFileHits[], hits: GrepFileHits, bytes: number): void;
  /** False once a file that may be on the page was only counted (its lines must be searched again). */
  readonly complete: boolean;
}

/** What a content page can reach (see {@link pageRetention}). */
export interface GrepPageReach {
  /** Matching lines skipped before the page. */
  offset: number;
  /** Matching lines on the page at most. */
  headLimit: number;
  /** Characters the rendered page may carry (the output cap); undefined when not capped. */
  maxChars?: number;
  /** Bytes of records kept at most: past them the files with the last paths are only counted, even if the page may reach them. */
  retainBytes: number;
}

/** Only counted: matching lines and first line, no text. */
function counted(hits: GrepFileHits): GrepFileHits {
  return new CountedFileHits(hits.path, hits.matchCount, hits.firstMatchLine);
}

/**
 * Files keep their lines as they arrive until their records add up to
 * more than `retainBytes`; from the file that passes it on, files are only
 * counted (the page's files among them are searched again).
 */
export function arrivalRetention(retainBytes: number): HitsRetention {
  let retained = 0;
  let complete = true;
  return {
    add(files, hits, bytes) {
      if (complete && retained + bytes <= retainBytes) {
        retained += bytes;
        files.push(hits);
        return;
      }
      complete = false;
      files.push(counted(hits));
    },
    get complete() {
      return complete;
    },
  };
}

/** A kept file: where it is in the files, its path, matching lines and record bytes. */
interface KeptFile {
  index: number;
  path: string;
  count: number;
  bytes: number;
}

/**
 * Keeps the lines of the files a content page may reach, in path order
 * (see the module comment): every file whose path comes at or after
 * `cutoff` is out of the page's reach and only counted. Whenever the kept
 * records double (from 1 MiB), the kept files are sorted by path and
 * those the page cannot reach are let go. Only when the reachable files'
 * records pass `retainBytes` (memory) are reachable files only counted,
 * and the retention is no longer complete.
 */
export function pageRetention(reach: GrepPageReach): HitsRetention {
  const kept: KeptFile[] = [];
  let keptBytes = 0;
  let pruneAt = Math.min(reach.retainBytes, PRUNE_MIN_BYTES);
  let cutoff: string | undefined;
  let complete = true;
  const pageEnd = reach.offset + reach.headLimit;
  const maxChars = reach.maxChars ?? Number.POSITIVE_INFINITY;

  /** Lets go of the kept files the page cannot reach (and, past `retainBytes`, of the last ones it can). */
  const prune = (files: GrepFileHits[]) => {
    kept.sort((a, b) => comparePaths(a.path, b.path));
    let lines = 0; // matching lines before the file, in path order
    let leastChars = 0; // a lower bound of the page's rendered characters before it
    let cut = kept.length;
    let bytes = 0;
    for (let index = 0; index < kept.length; index += 1) {
      if (lines >= pageEnd || leastChars > maxChars) {
        cut = index;
        break;
      }
      const file = kept[index]!;
      const shown = Math.min(lines + file.count, pageEnd) - Math.max(lines, reach.offset);
      if (shown > 0) leastChars += shown * (file.path.length + MIN_LINE_CHARS_BESIDES_PATH);
      lines += file.count;
      bytes += file.bytes;
    }
    while (cut > 0 && bytes > reach.retainBytes) {
      cut -= 1;
      bytes -= kept[cut]!.bytes;
      complete = false;
    }
    if (cut < kept.length) {
      cutoff = kept[cut]!.path;
      for (let index = cut; index < kept.length; index += 1) files[kept[index]!.index] = counted(files[kept[index]!.index]!);
      kept.length = cut;
    }
    keptBytes = bytes;
    pruneAt = Math.min(reach.retainBytes, Math.max(PRUNE_MIN_BYTES, 2 * bytes));
  };

  return {
    add(files, hits, bytes) {
      if (cutoff !== undefined && comparePaths(hits.path, cutoff) >= 0) {
        files.push(counted(hits));
        return;
      }
      kept.push({ index: files.length, path: hits.path, count: hits.matchCount, bytes });
      files.push(hits);
      keptBytes += bytes;
      if (keptBytes > pruneAt) prune(files);
    },
    get complete() {
      return complete;
    },
  };
}
