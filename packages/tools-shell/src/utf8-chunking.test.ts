import { describe, expect, it } from "vitest";
import { OutputRingBuffer } from "./output-ring-buffer.js";
import { Utf8ChunkJoiner } from "./utf8.js";

/** A small deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** Cuts `data` at random points (pieces of 0..max bytes). */
function cut(data: Buffer, next: () => number, max: number): Buffer[] {
  const pieces: Buffer[] = [];
  let offset = 0;
  while (offset < data.length) {
    const length = Math.floor(next() * (max + 1));
    pieces.push(data.subarray(offset, offset + length));
    offset += length;
  }
  return pieces;
}

const SAMPLES = ["a", "é", "€", "😀", "\0", "\n", "ß", "中文", "\u{10FFFF}"];

describe("Utf8ChunkJoiner.pushEach", () => {
  it("passes on the same bytes as push, split the same way at the end, for valid and invalid input cut anywhere", () => {
    const next = random(42);
    for (let round = 0; round < 400; round += 1) {
      const bytes = Buffer.from(Array.from({ length: Math.floor(next() * 40) }, () => Math.floor(next() * 256)));
      const valid = Buffer.from(Array.from({ length: 20 }, () => SAMPLES[Math.floor(next() * SAMPLES.length)]).join(""));
      for (const data of [bytes, valid, Buffer.concat([valid, bytes, valid])]) {
        const pieces = cut(data, next, 7);
        const joined = new Utf8ChunkJoiner();
        const each = new Utf8ChunkJoiner();
        for (const piece of pieces) {
          const whole = joined.push(piece);
          const parts: Buffer[] = [];
          each.pushEach(piece, (part) => parts.push(Buffer.from(part)));
          expect(Buffer.concat(parts).equals(whole)).toBe(true);
          expect(parts.every((part) => part.length > 0)).toBe(true);
        }
        expect(each.flush()?.toString("hex")).toBe(joined.flush()?.toString("hex"));
      }
    }
  });

  it("never copies the bulk of a chunk", () => {
    const joiner = new Utf8ChunkJoiner();
    const euro = Buffer.from("€");
    joiner.pushEach(Buffer.concat([Buffer.from("ab"), euro.subarray(0, 1)]), () => undefined);
    const chunk = Buffer.concat([euro.subarray(1), Buffer.alloc(1000, "x")]);
    const parts: Buffer[] = [];
    joiner.pushEach(chunk, (part) => parts.push(part));
    expect(parts.map((part) => part.toString())).toEqual(["€", "x".repeat(1000)]);
    expect(parts[1]!.buffer).toBe(chunk.buffer);
  });
});

describe("ring buffer fed through pushEach", () => {
  it("reassembles random multilingual output from pages of random sizes, across wrap-around", () => {
    const next = random(7);
    for (let round = 0; round < 30; round += 1) {
      const text = Array.from({ length: 3_000 }, () => SAMPLES[Math.floor(next() * SAMPLES.length)]).join("");
      const data = Buffer.from(text);
      const ring = new OutputRingBuffer(data.length + 16);
      const joiner = new Utf8ChunkJoiner();
      let read = "";
      let cursor = 0;
      for (const piece of cut(data, next, 300)) {
        joiner.pushEach(piece, (part) => ring.append("stdout", part));
        // Read as it streams in, like a hot ProcessWait reader.
        if (next() < 0.3) {
          const page = ring.read(cursor, 4 + Math.floor(next() * 200));
          expect(page.outputTruncated).toBe(false);
          read += page.output.map((fragment) => fragment.text).join("");
          cursor = page.cursor;
        }
      }
      expect(joiner.flush()).toBeUndefined();
      for (let page = ring.read(cursor, 97); page.bytes > 0; page = ring.read(cursor, 97)) {
        read += page.output.map((fragment) => fragment.text).join("");
        cursor = page.cursor;
      }
      expect(read).toBe(text);
    }
  });

  it("wraps a small ring many times and never returns a broken character", () => {
    const next = random(9);
    const text = Array.from({ length: 20_000 }, () => SAMPLES[Math.floor(next() * SAMPLES.length)]).join("");
    const ring = new OutputRingBuffer(1_000);
    const joiner = new Utf8ChunkJoiner();
    for (const piece of cut(Buffer.from(text), next, 500)) joiner.pushEach(piece, (part) => ring.append("stdout", part));
    const page = ring.read(undefined, 1_000);
    const tail = page.output.map((fragment) => fragment.text).join("");
    expect(tail).not.toContain("\uFFFD");
    expect(text.endsWith(tail)).toBe(true);
    expect(page.cursor).toBe(Buffer.byteLength(text));
  });
});
