import { describe, expect, it } from "vitest";
import { OutputRingBuffer } from "./output-ring-buffer.js";
import { Utf8ChunkJoiner, incompleteUtf8Tail } from "./utf8.js";

describe("OutputRingBuffer", () => {
  it("pages 70 KiB of output as 65536 + 6144 bytes", () => {
    const ring = new OutputRingBuffer();
    ring.append("stdout", Buffer.alloc(70 * 1024, "a"));
    const first = ring.read(0);
    expect(first.bytes).toBe(65536);
    expect(first.cursor).toBe(65536);
    expect(first.hasMore).toBe(true);
    expect(first.outputTruncated).toBe(false);
    const second = ring.read(first.cursor);
    expect(second.bytes).toBe(6144);
    expect(second.cursor).toBe(70 * 1024);
    expect(second.hasMore).toBe(false);
    expect(second.output).toEqual([{ stream: "stdout", text: "a".repeat(6144) }]);
  });

  it("keeps stdout and stderr in arrival order and merges adjacent fragments of a stream", () => {
    const ring = new OutputRingBuffer();
    ring.append("stdout", Buffer.from("a1 "));
    ring.append("stdout", Buffer.from("a2 "));
    ring.append("stderr", Buffer.from("e1 "));
    ring.append("stdout", Buffer.from("a3"));
    expect(ring.read(0).output).toEqual([
      { stream: "stdout", text: "a1 a2 " },
      { stream: "stderr", text: "e1 " },
      { stream: "stdout", text: "a3" },
    ]);
    expect(ring.read(3).output[0]).toEqual({ stream: "stdout", text: "a2 " });
  });

  it("evicts the oldest bytes past its capacity and reports output_truncated for evicted history", () => {
    const ring = new OutputRingBuffer(1024 * 1024);
    for (let index = 0; index < 20; index += 1) ring.append(index % 2 ? "stderr" : "stdout", Buffer.alloc(100 * 1024, String(index % 10)));
    expect(ring.nextCursor).toBe(2000 * 1024);
    expect(ring.oldestCursor).toBe(2000 * 1024 - 1024 * 1024);
    const page = ring.read(0);
    expect(page.outputTruncated).toBe(true);
    expect(page.start).toBe(ring.oldestCursor);
    expect(page.bytes).toBe(65536);
    const latest = ring.read(ring.nextCursor - 10);
    expect(latest.outputTruncated).toBe(false);
    expect(latest.output).toEqual([{ stream: "stderr", text: "9".repeat(10) }]);
    const fresh = ring.read(ring.oldestCursor);
    expect(fresh.outputTruncated).toBe(false);
  });

  it("keeps the tail of an oversize chunk", () => {
    const ring = new OutputRingBuffer(1024);
    const data = Buffer.concat([Buffer.alloc(3000, "x"), Buffer.from("END")]);
    ring.append("stdout", data);
    expect(ring.nextCursor).toBe(3003);
    const page = ring.read(undefined, 4096);
    expect(page.outputTruncated).toBe(false);
    expect(page.bytes).toBe(1024);
    expect(page.output[0]!.text.endsWith("END")).toBe(true);
  });

  it("never splits a UTF-8 character at a page end or after eviction", () => {
    const ring = new OutputRingBuffer(64);
    const text = `${"é".repeat(40)}a`; // 81 bytes
    ring.append("stdout", Buffer.from(text));
    // 81 bytes into 64: the oldest byte (offset 17) is a continuation byte, skipped
    const page = ring.read(undefined, 64);
    expect(page.outputTruncated).toBe(false);
    expect(page.output[0]!.text).toBe(`${"é".repeat(31)}a`);
    expect(page.start).toBe(18);
    const ring2 = new OutputRingBuffer();
    ring2.append("stdout", Buffer.from("ab€cd"));
    const part = ring2.read(0, 4); // "ab" + 2 of 3 bytes of €: stop before it
    expect(part.output[0]!.text).toBe("ab");
    expect(part.cursor).toBe(2);
    expect(ring2.read(part.cursor, 4).output[0]!.text).toBe("€c");
  });

  it("reads nothing from a cursor at or past the end", () => {
    const ring = new OutputRingBuffer();
    ring.append("stdout", Buffer.from("abc"));
    expect(ring.read(3)).toMatchObject({ output: [], cursor: 3, hasMore: false, outputTruncated: false });
    expect(ring.read(99)).toMatchObject({ output: [], cursor: 3 });
  });

  it("stays correct across many wraps", () => {
    const ring = new OutputRingBuffer(1000);
    let all = "";
    for (let index = 0; index < 500; index += 1) {
      const piece = `${index}-`.repeat((index % 7) + 1);
      all += piece;
      ring.append("stdout", Buffer.from(piece));
    }
    const page = ring.read(undefined, 1000);
    expect(page.output[0]!.text).toBe(all.slice(all.length - 1000));
  });
});

describe("UTF-8 chunking", () => {
  it("carries an incomplete character to the next chunk of the stream", () => {
    const joiner = new Utf8ChunkJoiner();
    const bytes = Buffer.from("a€b");
    expect(joiner.push(bytes.subarray(0, 2)).toString()).toBe("a");
    expect(joiner.push(bytes.subarray(2, 3)).length).toBe(0);
    expect(joiner.push(bytes.subarray(3)).toString()).toBe("€b");
    expect(joiner.flush()).toBeUndefined();
    expect(incompleteUtf8Tail(Buffer.from("😀").subarray(0, 3))).toBe(3);
    expect(incompleteUtf8Tail(Buffer.from("😀"))).toBe(0);
  });
});
