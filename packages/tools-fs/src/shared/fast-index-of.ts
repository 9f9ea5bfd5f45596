/**
 * A faster `Buffer.indexOf` for long needles in large haystacks.
 *
 * Node searches needles of 7 bytes or more with Boyer-Moore-Horspool (about
 * 0.3-0.55 ms per MB on source code), but shorter needles with `memchr` on
 * their first byte, which is ~20x faster when that byte is rare. So a long
 * needle is found through a short "probe": at most 6 of its bytes, starting
 * at the byte that is rarest in the haystack (byte frequencies sampled from
 * a few windows of the haystack). Each probe hit is verified against the
 * whole needle. If the probe turns out to hit often without a match, the
 * finder falls back to the plain native search for the rest of the scan.
 *
 * Finders created with one {@link SearchContext} share work: the byte
 * frequencies are sampled once, and the hits of a probe are collected in one
 * scan and reused by every later needle that picks the same probe. Edit's
 * passes search needles cut from the same old_string, so they fix one probe
 * for all of them ({@link preferProbe}): the file is scanned for it once.
 */

/** Haystacks below this size use `Buffer.indexOf` directly. */
export const FAST_INDEX_MIN_HAYSTACK = 256 * 1024;
/** Needles below this length use `Buffer.indexOf` directly (Node already uses `memchr` for them). */
const SHORT_NEEDLE = 7;
const PROBE_MAX = 6;
const SAMPLE_WINDOWS = 4;
const SAMPLE_BYTES = 8 * 1024;
/** A probe with more hits than this is not collected (its needles are searched as a stream). */
const HIT_LIST_CAP = 4096;

/** Work shared by the finders of one haystack: see {@link createSearchContext}. */
export interface SearchContext {
  readonly haystack: Buffer;
  frequencies?: Uint32Array;
  /** Every hit of a probe (latin1 key), or null when it has too many. */
  readonly hits: Map<string, Int32Array | null>;
  /**
   * The probe every finder of this context uses when its needle contains it
   * (unless the probe has too many hits to list); see {@link preferProbe}.
   */
  probe?: Buffer;
}

/**
 * A probe's hits collected ahead of the search, e.g. while the haystack was
 * being read ({@link ProbeHitCollector}).
 */
export interface CollectedProbe {
  /** The byte frequencies the probe was chosen with (a sample of the haystack's start). */
  readonly frequencies: Uint32Array;
  /** The probe. */
  readonly probe: Buffer;
  /** Every offset of `probe` in the haystack, ascending; null past the hit-list cap. */
  readonly hits: Int32Array | null;
}

/**
 * A context for several searches in one haystack (pass it to each
 * {@link createIndexFinder}); `collected` seeds it with a probe's hits, which
 * must be every hit of that probe in exactly this haystack.
 */
export function createSearchContext(haystack: Buffer, collected?: CollectedProbe): SearchContext {
  const context: SearchContext = { haystack, hits: new Map() };
  if (collected) {
    context.frequencies = collected.frequencies;
    context.hits.set(collected.probe.toString("latin1"), collected.hits);
  }
  return context;
}

/**
 * Collects every hit of the probe {@link preferProbe} would cut from `text`
 * while the haystack arrives front to back (a file read in chunks), so the
 * scan overlaps the read. The frequencies come from the first part seen (at
 * least {@link FAST_INDEX_MIN_HAYSTACK} bytes; a smaller first part, or an
 * empty `text`, collects nothing). The probe choice only changes speed:
 * the hits are those of {@link createSearchContext}'s own collection.
 *
 * @example
 * const collector = new ProbeHitCollector(Buffer.from("alphaMarker();"));
 * collector.advance(buffer.subarray(0, firstChunkEnd));
 * collector.advance(buffer.subarray(0, fileEnd));
 * const search = createSearchContext(buffer.subarray(0, fileEnd), collector.collected(fileEnd));
 */
export class ProbeHitCollector {
  private probe: Buffer | undefined;
  private frequencies: Uint32Array | undefined;
  private readonly hits: number[] = [];
  private overflow = false;
  /** Start offsets below this have been searched. */
  private searched = 0;
  /** Length of the prefix searched so far (-1: collecting stopped). */
  private seen = 0;

  constructor(private readonly text: Uint8Array) {}

  /** Searches the new bytes of `prefix`: the haystack's first bytes, a longer prefix of the same memory each call. */
  advance(prefix: Buffer): void {
    if (this.seen === -1) return;
    if (prefix.length < this.seen) {
      this.seen = -1;
      return;
    }
    if (!this.probe) {
      if (this.text.length === 0 || prefix.length < FAST_INDEX_MIN_HAYSTACK) {
        this.seen = -1;
        return;
      }
      this.frequencies = sampleFrequencies(prefix);
      const { offset, length } = chooseProbe(this.text, this.frequencies);
      this.probe = Buffer.from(this.text.subarray(offset, offset + length));
    }
    this.seen = prefix.length;
    if (this.overflow) return;
    const probe = this.probe;
    for (let at = prefix.indexOf(probe, this.searched); at !== -1; at = prefix.indexOf(probe, at + 1)) {
      if (this.hits.length === HIT_LIST_CAP) {
        this.overflow = true;
        return;
      }
      this.hits.push(at);
    }
    this.searched = Math.max(this.searched, prefix.length - probe.length + 1);
  }

  /** The probe and its hits when exactly `length` bytes were searched; undefined otherwise. */
  collected(length: number): CollectedProbe | undefined {
    if (!this.probe || !this.frequencies || this.seen !== length) return undefined;
    return { frequencies: this.frequencies, probe: this.probe, hits: this.overflow ? null : Int32Array.from(this.hits) };
  }
}

/**
 * Fixes the probe of `context`'s later finders: the one {@link chooseProbe}
 * picks in `text`, which should be a part of every needle to come (Edit uses
 * the most distinctive line of old_string, which every pass's needle
 * contains). A needle without it picks its own probe, as without a context.
 */
export function preferProbe(context: SearchContext, text: Uint8Array): void {
  const haystack = context.haystack;
  if (text.length === 0 || haystack.length < FAST_INDEX_MIN_HAYSTACK) return;
  const frequencies = (context.frequencies ??= sampleFrequencies(haystack));
  const { offset, length } = chooseProbe(text, frequencies);
  context.probe = Buffer.from(text.subarray(offset, offset + length));
}

/** Every offset of `probe` in `haystack`, or null past {@link HIT_LIST_CAP} hits. */
function collectHits(haystack: Buffer, probe: Buffer): Int32Array | null {
  const hits: number[] = [];
  for (let at = haystack.indexOf(probe, 0); at !== -1; at = haystack.indexOf(probe, at + 1)) {
    if (hits.length === HIT_LIST_CAP) return null;
    hits.push(at);
  }
  return Int32Array.from(hits);
}

/** The hits of `probe` in the context's haystack, collected on first use; null when there are too many. */
function hitsOf(context: SearchContext, probe: Buffer): Int32Array | null {
  const key = probe.toString("latin1");
  let hits = context.hits.get(key);
  if (hits === undefined) {
    hits = collectHits(context.haystack, probe);
    context.hits.set(key, hits);
  }
  return hits;
}

/** Index of the first element of the ascending `list` that is >= `value`. */
function lowerBound(list: Int32Array, value: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Searches one needle in one haystack; `find(from)` has exactly the result
 * of `haystack.indexOf(needle, from)` for `from >= 0`.
 */
export interface IndexFinder {
  /** The first offset at or after `from` where the needle starts, or -1. */
  find(from: number): number;
}

/** Byte counts of a few evenly spread windows of `haystack`. */
function sampleFrequencies(haystack: Uint8Array): Uint32Array {
  const counts = new Uint32Array(256);
  const step = Math.floor((haystack.length - SAMPLE_BYTES) / (SAMPLE_WINDOWS - 1));
  for (let window = 0; window < SAMPLE_WINDOWS; window += 1) {
    const start = window * step;
    const end = Math.min(haystack.length, start + SAMPLE_BYTES);
    for (let index = start; index < end; index += 1) counts[haystack[index]!]! += 1;
  }
  return counts;
}

/**
 * Where the probe starts: the needle byte rarest in the sample; among equally
 * rare bytes the earliest one that still leaves a full-length probe.
 */
export function chooseProbe(needle: Uint8Array, frequencies: ArrayLike<number>): { offset: number; length: number } {
  let best = 0;
  let bestScore = Infinity;
  for (let index = 0; index < needle.length; index += 1) {
    // A probe cut short by the needle's end verifies more false hits: a small penalty.
    const score = frequencies[needle[index]!]! * 4 + (needle.length - index < PROBE_MAX ? 1 : 0);
    if (score < bestScore) {
      bestScore = score;
      best = index;
    }
  }
  return { offset: best, length: Math.min(PROBE_MAX, needle.length - best) };
}

/**
 * A finder for `needle` in `haystack`.
 *
 * @example
 * const finder = createIndexFinder(content, Buffer.from("const benchMarker = 1;"));
 * for (let at = finder.find(0); at !== -1; at = finder.find(at + 22)) console.log(at);
 */
export function createIndexFinder(haystack: Buffer, needle: Uint8Array, context?: SearchContext): IndexFinder {
  const needleLength = needle.length;
  const native = (from: number) => haystack.indexOf(needle, from);
  if (needleLength < SHORT_NEEDLE || haystack.length < FAST_INDEX_MIN_HAYSTACK) return { find: native };
  const shared = context?.haystack === haystack ? context : undefined;
  const frequencies = shared ? (shared.frequencies ??= sampleFrequencies(haystack)) : sampleFrequencies(haystack);
  const whole = Buffer.isBuffer(needle) ? needle : Buffer.from(needle.buffer, needle.byteOffset, needleLength);
  const last = haystack.length - needleLength; // last possible start
  if (shared?.probe) {
    // Every occurrence of the needle holds the preferred probe where the needle does.
    const at = whole.indexOf(shared.probe);
    const hits = at === -1 ? null : hitsOf(shared, shared.probe);
    if (hits) return listFinder(haystack, whole, { offset: at, last, hits });
  }
  const { offset, length } = chooseProbe(needle, frequencies);
  const probe = Buffer.from(needle.buffer, needle.byteOffset + offset, length);
  if (shared) {
    const hits = hitsOf(shared, probe);
    if (hits) return listFinder(haystack, whole, { offset, last, hits });
  }
  // Probe hits that failed verification; past the budget the native search takes over.
  let misses = 0;
  let useNative = false;
  return {
    find(from: number): number {
      if (useNative || from < 0) return native(from);
      let at = from + offset;
      for (;;) {
        if (at - offset > last) return -1;
        const hit = haystack.indexOf(probe, at);
        if (hit === -1) return -1;
        const start = hit - offset;
        if (start > last) return -1;
        if (haystack.compare(whole, 0, needleLength, start, start + needleLength) === 0) return start;
        misses += 1;
        // Each miss costs a round trip from JavaScript; allow one per 4 KB scanned plus a few.
        if (misses > 64 && misses * 4096 > hit) {
          useNative = true;
          return native(start + 1);
        }
        at = hit + 1;
      }
    },
  };
}

/** A complete list of probe hits: positions `hits` (shifted by `offset`) up to `last`. */
interface ProbeHitList {
  offset: number;
  last: number;
  hits: Int32Array;
}

/** A finder walking a complete list of probe hits. */
function listFinder(haystack: Buffer, whole: Buffer, list: ProbeHitList): IndexFinder {
  const { offset, last, hits } = list;
  const needleLength = whole.length;
  return {
    find(from: number): number {
      if (from < 0) return haystack.indexOf(whole, from);
      for (let index = lowerBound(hits, from + offset); index < hits.length; index += 1) {
        const start = hits[index]! - offset;
        if (start > last) return -1;
        if (haystack.compare(whole, 0, needleLength, start, start + needleLength) === 0) return start;
      }
      return -1;
    },
  };
}

/**
 * `haystack.indexOf(needle, from)` through a one-off {@link createIndexFinder}
 * (prefer a finder when searching the same needle repeatedly).
 */
export function fastIndexOf(haystack: Buffer, needle: Uint8Array, from = 0): number {
  return createIndexFinder(haystack, needle).find(from);
}
