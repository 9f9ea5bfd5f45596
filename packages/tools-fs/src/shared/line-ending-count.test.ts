import { describe, expect, it } from "vitest";
import { countLineEndings, countLineEndingsJs, lineEndingCounterUsesWasm, linesFromLineFeeds } from "./line-ending-count.js";

/** Deterministic pseudo-random bytes (xorshift), drawn from `alphabet`. */
function randomBytes(length: number, seed: number, alphabet: number[]): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed >>> 0 || 1;
  for (let index = 0; index < length; index += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[index] = alphabet[(state >>> 0) % alphabet.length]!;
  }
  return bytes;
}

describe("countLineEndings", () => {
  it("runs the WebAssembly SIMD counter on Node", () => {
    expect(lineEndingCounterUsesWasm()).toBe(true);
  });

  it("counts LF and CRLF", () => {
    expect(countLineEndings(Buffer.from("a\r\nb\nc"))).toEqual({ lf: 2, crlf: 1 });
    expect(countLineEndings(Buffer.from(""))).toEqual({ lf: 0, crlf: 0 });
    expect(countLineEndings(Buffer.from("\n"))).toEqual({ lf: 1, crlf: 0 });
    expect(countLineEndings(Buffer.from("\r\r\n\n\r"))).toEqual({ lf: 2, crlf: 1 });
  });

  it("agrees with the JavaScript loop on random data of every small length", () => {
    for (let length = 0; length < 300; length += 1) {
      const bytes = randomBytes(length, length + 1, [10, 13, 97, 32]);
      expect(countLineEndings(bytes)).toEqual(countLineEndingsJs(bytes));
    }
  });

  it("agrees at 16-byte vector boundaries and 255-vector blocks", () => {
    for (const at of [15, 16, 17, 31, 32, 4079, 4080, 4081, 4095, 4096]) {
      const bytes = new Uint8Array(8200).fill(97);
      bytes[at - 1] = 13;
      bytes[at] = 10;
      expect(countLineEndings(bytes)).toEqual({ lf: 1, crlf: 1 });
    }
    // Every byte an LF: lanes reach their limit of 255 within a block.
    const allLf = new Uint8Array(100_000).fill(10);
    expect(countLineEndings(allLf)).toEqual({ lf: 100_000, crlf: 0 });
    const allCrlf = Buffer.from("\r\n".repeat(70_000));
    expect(countLineEndings(allCrlf)).toEqual({ lf: 70_000, crlf: 70_000 });
  });

  it("pairs a CR and an LF across the 128 KB chunk boundary", () => {
    const chunk = 128 * 1024;
    for (const at of [chunk - 1, chunk, chunk + 1, 2 * chunk]) {
      const bytes = new Uint8Array(3 * chunk + 7).fill(120);
      bytes[at - 1] = 13;
      bytes[at] = 10;
      expect(countLineEndings(bytes)).toEqual({ lf: 1, crlf: 1 });
    }
  });

  it("agrees with the JavaScript loop on large random data", () => {
    for (const seed of [3, 7, 11]) {
      const bytes = randomBytes(600_000 + seed, seed, [10, 13, 13, 97, 98, 32, 0, 255]);
      expect(countLineEndings(bytes)).toEqual(countLineEndingsJs(bytes));
      const view = bytes.subarray(seed, bytes.length - seed);
      expect(countLineEndings(view)).toEqual(countLineEndingsJs(view));
    }
  });
});

describe("linesFromLineFeeds", () => {
  it("counts a last line without LF", () => {
    expect(linesFromLineFeeds(0, 0, -1)).toBe(0);
    expect(linesFromLineFeeds(1, 2, 10)).toBe(1);
    expect(linesFromLineFeeds(1, 3, 97)).toBe(2);
  });
});
