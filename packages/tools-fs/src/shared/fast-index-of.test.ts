import { describe, expect, it } from "vitest";
import { FAST_INDEX_MIN_HAYSTACK, chooseProbe, createIndexFinder, createSearchContext, fastIndexOf, preferProbe } from "./fast-index-of.js";

function random(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

function randomBuffer(length: number, next: () => number, alphabet: string): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  for (let index = 0; index < length; index += 1) bytes[index] = alphabet.charCodeAt(Math.floor(next() * alphabet.length));
  return bytes;
}

/** Every occurrence (non-overlapping, as Edit's exact pass walks them) by a finder and by Buffer.indexOf. */
function allHits(haystack: Buffer, needle: Buffer, step: number, context?: ReturnType<typeof createSearchContext>) {
  const finder = createIndexFinder(haystack, needle, context);
  const fast: number[] = [];
  const native: number[] = [];
  // At most 300 hits each: short needles over a two-letter alphabet hit everywhere.
  for (let at = finder.find(0); at !== -1 && fast.length < 300; at = finder.find(at + step)) fast.push(at);
  for (let at = haystack.indexOf(needle); at !== -1 && native.length < 300; at = haystack.indexOf(needle, at + step)) native.push(at);
  return { fast, native };
}

describe("createIndexFinder", () => {
  it("matches Buffer.indexOf on random haystacks and needles", () => {
    const next = random(42);
    const size = FAST_INDEX_MIN_HAYSTACK + 4096;
    for (const alphabet of ["ab", "abc\n", "abcdefghijklmnopqrstuvwxyz \n;(){}", "aaaaaaaaaaaaaaaab"]) {
      const haystack = randomBuffer(size, next, alphabet);
      // One shared context for all needles of this haystack: probe hit lists are reused across needles.
      const context = createSearchContext(haystack);
      for (let round = 0; round < 30; round += 1) {
        const length = 1 + Math.floor(next() * 24);
        // Half the needles are cut from the haystack (so they occur), half are random.
        const needle =
          round % 2 === 0 ? Buffer.from(haystack.subarray(Math.floor(next() * (size - length)))).subarray(0, length) : randomBuffer(length, next, alphabet);
        for (const step of [1, length]) {
          const { fast, native } = allHits(haystack, needle, step);
          expect(fast).toEqual(native);
          expect(allHits(haystack, needle, step, context).fast).toEqual(native);
        }
        for (const from of [0, 1, Math.floor(next() * size), size - length, size - length + 1, size, size + 5]) {
          expect(fastIndexOf(haystack, needle, from)).toBe(haystack.indexOf(needle, from));
        }
      }
    }
  });

  it("finds needles at the very start and end and across the sampled windows", () => {
    const haystack = Buffer.alloc(FAST_INDEX_MIN_HAYSTACK * 2, "x");
    const needle = Buffer.from("const benchMarker = 1;");
    for (const at of [0, 1, 8191, 8192, FAST_INDEX_MIN_HAYSTACK, haystack.length - needle.length]) {
      const copy = Buffer.from(haystack);
      needle.copy(copy, at);
      expect(fastIndexOf(copy, needle)).toBe(at);
      expect(fastIndexOf(copy, needle, at + 1)).toBe(-1);
    }
    expect(fastIndexOf(haystack, needle)).toBe(-1);
  });

  it("falls back to the native search when the probe keeps missing", () => {
    // The probe's rare byte occurs everywhere in the second half, never as the needle.
    const haystack = Buffer.alloc(FAST_INDEX_MIN_HAYSTACK * 2, "a");
    for (let index = FAST_INDEX_MIN_HAYSTACK; index < haystack.length; index += 3) haystack[index] = 0x7a; // z
    const needle = Buffer.from("zaaaaaaaaaaaaaaaaaq");
    haystack.write("zaaaaaaaaaaaaaaaaaq", haystack.length - 40, "latin1");
    expect(fastIndexOf(haystack, needle)).toBe(haystack.indexOf(needle));
    expect(fastIndexOf(haystack, needle)).toBe(haystack.length - 40);
  });

  it("shares one probe scan between needles cut from the same text", () => {
    const haystack = Buffer.alloc(FAST_INDEX_MIN_HAYSTACK * 2, "abc def\n");
    haystack.write("alphaMarker();\nbetaMarker();\n", 300_000, "latin1");
    haystack.write("  alphaMarker();   \n", 400_000, "latin1");
    const context = createSearchContext(haystack);
    expect(createIndexFinder(haystack, Buffer.from("alphaMarker();\nbetaMarker();\n"), context).find(0)).toBe(300_000);
    expect(context.hits.size).toBe(1);
    const anchor = createIndexFinder(haystack, Buffer.from("alphaMarker();"), context);
    expect(context.hits.size).toBe(1);
    expect([anchor.find(0), anchor.find(300_001), anchor.find(400_003)]).toEqual([300_000, 400_002, -1]);
  });

  it("searches every needle holding the preferred probe through its one hit list, at the probe's offset in that needle", () => {
    const haystack = Buffer.alloc(FAST_INDEX_MIN_HAYSTACK * 2, "abc def\n");
    haystack.write("alphaMarker();\nbetaMarker();\n", 300_000, "latin1");
    haystack.write("\tbetaMarker();  \n", 350_000, "latin1");
    haystack.write("  alphaMarker();   \n", 400_000, "latin1");
    const context = createSearchContext(haystack);
    preferProbe(context, Buffer.from("alphaMarker();"));
    expect(context.probe && "alphaMarker();".includes(context.probe.toString("latin1"))).toBe(true);
    for (const needle of ["alphaMarker();\nbetaMarker();\n", "alphaMarker();", "  alphaMarker();   "]) {
      const { fast, native } = allHits(haystack, Buffer.from(needle), 1, context);
      expect(fast, needle).toEqual(native);
      expect(fast.length, needle).toBeGreaterThan(0);
    }
    // One scan served the three needles, each holding the probe at another offset.
    expect([...context.hits.keys()]).toEqual([context.probe!.toString("latin1")]);
    // Needles without it pick their own probe.
    for (const needle of ["Marker();\nbeta", "betaMarker();"]) {
      const { fast, native } = allHits(haystack, Buffer.from(needle), 1, context);
      expect(fast, needle).toEqual(native);
    }
  });

  it("ignores a preferred probe that hits too often, and one the needle lacks", () => {
    const haystack = Buffer.alloc(FAST_INDEX_MIN_HAYSTACK * 2, "ab ab ab\n");
    haystack.write("ab ab ab unique-needle-here\n", 123_456, "latin1");
    const context = createSearchContext(haystack);
    preferProbe(context, Buffer.from("ab ab"));
    const needle = Buffer.from("ab ab ab unique-needle-here");
    expect(createIndexFinder(haystack, needle, context).find(0)).toBe(haystack.indexOf(needle));
    expect(context.hits.get(context.probe!.toString("latin1"))).toBeNull();
    const other = Buffer.from("unique-needle-here");
    expect(createIndexFinder(haystack, other, context).find(0)).toBe(haystack.indexOf(other));
    const small = createSearchContext(Buffer.from("tiny haystack"));
    preferProbe(small, Buffer.from("haystack"));
    expect(small.probe).toBeUndefined();
  });

  it("works on needles that are views into a larger buffer", () => {
    const haystack = Buffer.alloc(FAST_INDEX_MIN_HAYSTACK + 100, "-");
    haystack.write("hello wonderful world", 5000);
    const backing = Buffer.from("xxhello wonderful worldyy");
    const needle = new Uint8Array(backing.buffer, backing.byteOffset + 2, 21);
    expect(fastIndexOf(haystack, needle)).toBe(5000);
  });
});

describe("chooseProbe", () => {
  it("starts at the rarest byte and keeps six bytes when it can", () => {
    const frequencies = new Array(256).fill(100);
    frequencies["M".charCodeAt(0)] = 1;
    expect(chooseProbe(Buffer.from("const benchMarker = 1;"), frequencies)).toEqual({ offset: 11, length: 6 });
    frequencies[";".charCodeAt(0)] = 0;
    expect(chooseProbe(Buffer.from("const benchMarker = 1;"), frequencies)).toEqual({ offset: 21, length: 1 });
  });
});
