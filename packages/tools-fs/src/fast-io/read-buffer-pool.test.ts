import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { appendFile, open } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { READ_POOL_MIN_BYTES, ReadBufferPool, SCAN_CHUNK_BYTES, scanChunkBytes } from "./read-buffer-pool.js";

const pool = new ReadBufferPool();
const readPoolState = () => pool.usage();
const readWholeFile = pool.readWholeFile.bind(pool);
const encodeText = pool.encodeText.bind(pool);

const directory = mkdtempSync(path.join(os.tmpdir(), "tools-fs-read-pool-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("ReadBufferPool.close", () => {
  it("drops every buffer and serves later reads from fresh memory", async () => {
    const own = new ReadBufferPool();
    const file = path.join(directory, "close.txt");
    writeFileSync(file, Buffer.alloc(READ_POOL_MIN_BYTES + 1, "x"));
    const handle = await open(file, "r");
    try {
      const read = await own.readWholeFile(handle, READ_POOL_MIN_BYTES + 1);
      expect(read.pooled).toBe(true);
      read.release();
      expect(own.usage()).toEqual({ buffers: 1, busy: 0 });
      own.close();
      expect(own.usage()).toEqual({ buffers: 0, busy: 0 });
      const again = await own.readWholeFile(handle, READ_POOL_MIN_BYTES + 1);
      expect(again.pooled).toBe(false);
      expect(own.usage().buffers).toBe(0);
    } finally {
      await handle.close();
    }
  });
});

function fileOf(name: string, bytes: Buffer): string {
  const file = path.join(directory, name);
  writeFileSync(file, bytes);
  return file;
}

async function readAll(file: string) {
  const handle = await open(file, "r");
  try {
    return await readWholeFile(handle, (await handle.stat()).size);
  } finally {
    await handle.close();
  }
}

describe("readWholeFile", () => {
  it("reads small files into fresh memory and large ones into a reused shared buffer", async () => {
    const small = await readAll(fileOf("small.txt", Buffer.from("hello\n")));
    expect(small.pooled).toBe(false);
    expect(small.bytes.toString()).toBe("hello\n");
    const content = Buffer.alloc(READ_POOL_MIN_BYTES + 12_345, "line of text\n");
    const file = fileOf("large.txt", content);
    const first = await readAll(file);
    expect(first.pooled).toBe(true);
    expect(first.bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(first.bytes.equals(content)).toBe(true);
    expect(readPoolState().busy).toBe(1);
    first.release();
    first.release(); // idempotent
    expect(readPoolState().busy).toBe(0);
    const second = await readAll(file);
    expect(second.bytes.buffer).toBe(first.bytes.buffer); // the same memory again
    expect(second.bytes.equals(content)).toBe(true);
    second.release();
  });

  it("falls back to fresh memory while every pooled buffer is busy", async () => {
    const content = Buffer.alloc(READ_POOL_MIN_BYTES + 1, "x");
    const file = fileOf("busy.txt", content);
    const held = [await readAll(file), await readAll(file)];
    expect(held.every((read) => read.pooled)).toBe(true);
    const third = await readAll(file);
    expect(third.pooled).toBe(false);
    expect(third.bytes.equals(content)).toBe(true);
    for (const read of held) read.release();
    expect(readPoolState().busy).toBe(0);
  });

  it("waits for a buffer another thread is about to hand back rather than mapping new memory", async () => {
    const content = Buffer.alloc(READ_POOL_MIN_BYTES + 5, "w");
    const file = fileOf("handoff.txt", content);
    const handedOff = await readAll(file);
    const held = await readAll(file);
    expect(handedOff.pooled && held.pooled).toBe(true);
    let copied!: () => void;
    handedOff.releaseWhen(new Promise<void>((resolve) => (copied = resolve)));
    setTimeout(() => copied(), 20);
    const next = await readAll(file);
    expect(next.pooled).toBe(true);
    expect(next.bytes.buffer).toBe(handedOff.bytes.buffer);
    next.release();
    held.release();
    expect(readPoolState().busy).toBe(0);
  });

  it("encodes large text as UTF-8 into pooled memory, small text into a fresh Buffer", async () => {
    const small = await encodeText("héllo");
    expect(small.pooled).toBe(false);
    expect(small.bytes.equals(Buffer.from("héllo"))).toBe(true);
    const text = "línea ✓ 😀 text\n".repeat(120_000);
    const large = await encodeText(text);
    expect(large.pooled).toBe(true);
    expect(large.bytes.equals(Buffer.from(text, "utf8"))).toBe(true);
    large.release();
    expect(readPoolState().busy).toBe(0);
  });

  it("reads a file that grew a little after its size was taken (within the buffer's slack)", async () => {
    const content = Buffer.alloc(READ_POOL_MIN_BYTES + 7, "s");
    const file = fileOf("grew-little.txt", content);
    const handle = await open(file, "r");
    try {
      const size = (await handle.stat()).size;
      await appendFile(file, "tail\n");
      const read = await readWholeFile(handle, size);
      expect(read.pooled).toBe(true);
      expect(read.bytes.length).toBe(size + 5);
      expect(read.bytes.subarray(size).toString()).toBe("tail\n");
      read.release();
    } finally {
      await handle.close();
    }
  });

  it("with onChunk, reads in chunks and reports each as a longer prefix of the same memory", async () => {
    for (const size of [READ_POOL_MIN_BYTES + 3, 2 * SCAN_CHUNK_BYTES, 3 * SCAN_CHUNK_BYTES + 12_345, Math.floor(2.4 * SCAN_CHUNK_BYTES), 10 * 1024 * 1024]) {
      const content = Buffer.alloc(size, "abcdefghijklmnopqrstuvwxyz0"); // 27 bytes: no chunk starts like the one before
      const file = fileOf(`chunked-${size}.txt`, content);
      const handle = await open(file, "r");
      const prefixes: Array<{ buffer: ArrayBufferLike; byteOffset: number; length: number; copy: Buffer }> = [];
      try {
        // Counts the reads (none may be spent just to learn where the file ends).
        let reads = 0;
        const counted = {
          read: (...args: Parameters<typeof handle.read>) => {
            reads += 1;
            return handle.read(...args);
          },
        } as unknown as typeof handle;
        const read = await readWholeFile(counted, size, (prefix) =>
          prefixes.push({ buffer: prefix.buffer, byteOffset: prefix.byteOffset, length: prefix.length, copy: Buffer.from(prefix) }),
        );
        expect(read.pooled).toBe(true);
        expect(read.bytes.equals(content)).toBe(true);
        // Equal chunks; the last takes the rest (one read each: none just to find the end).
        const chunk = scanChunkBytes(size);
        let expectedReads = 1;
        for (let from = 0; size - from - chunk >= chunk / 2; from += chunk) expectedReads += 1;
        expect(reads).toBe(expectedReads);
        expect(prefixes.length).toBe(expectedReads);
        expect(prefixes.every((prefix, index) => index === prefixes.length - 1 || prefix.length === (index + 1) * chunk)).toBe(true);
        expect(prefixes.at(-1)!.length).toBe(size);
        for (const [index, prefix] of prefixes.entries()) {
          expect(prefix.buffer).toBe(read.bytes.buffer);
          expect(prefix.byteOffset).toBe(read.bytes.byteOffset);
          expect(prefix.copy.equals(content.subarray(0, prefix.length))).toBe(true); // complete when reported
          if (index > 0) expect(prefix.length).toBeGreaterThan(prefixes[index - 1]!.length);
        }
        read.release();
      } finally {
        await handle.close();
      }
    }
    // Unpooled reads never report; a throwing callback only stops the reports.
    const small = fileOf("chunked-small.txt", Buffer.from("small\n"));
    const handle = await open(small, "r");
    let calls = 0;
    try {
      const read = await readWholeFile(handle, 6, () => (calls += 1));
      expect(read.pooled).toBe(false);
    } finally {
      await handle.close();
    }
    expect(calls).toBe(0);
    const content = Buffer.alloc(3 * SCAN_CHUNK_BYTES, "t");
    const large = await open(fileOf("chunked-throw.txt", content), "r");
    try {
      const read = await readWholeFile(large, content.length, () => {
        calls += 1;
        throw new Error("scanner failed");
      });
      expect(read.bytes.equals(content)).toBe(true);
      expect(calls).toBe(1);
      read.release();
    } finally {
      await large.close();
    }
    expect(readPoolState().busy).toBe(0);
  });

  it("reads a file that grew after its size was taken", async () => {
    const content = Buffer.alloc(READ_POOL_MIN_BYTES, "y");
    const file = fileOf("growing.txt", content);
    const handle = await open(file, "r");
    try {
      const size = (await handle.stat()).size;
      await appendFile(file, Buffer.alloc(READ_POOL_MIN_BYTES, "z"));
      const read = await readWholeFile(handle, size);
      expect(read.bytes.length).toBe(2 * READ_POOL_MIN_BYTES);
      expect(read.bytes[read.bytes.length - 1]).toBe(0x7a);
      read.release();
    } finally {
      await handle.close();
    }
    expect(readPoolState().busy).toBe(0);
  });
});
