import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ContentHasher, contentHash, contentHashJs } from "./content-hash.js";

describe("contentHash (FNV-1a 64)", () => {
  it("matches the reference vectors", () => {
    expect(contentHash(Buffer.from(""))).toBe("cbf29ce484222325");
    expect(contentHash(Buffer.from("a"))).toBe("af63dc4c8601ec8c");
    expect(contentHash(Buffer.from("foobar"))).toBe("85944171f73967e8");
  });

  it("gives the same result in WebAssembly, JavaScript and in chunks", () => {
    const bytes = randomBytes(5 * 1024 * 1024 + 17);
    const whole = contentHash(bytes);
    expect(contentHashJs(bytes.subarray(0, 100_000))).toBe(contentHash(bytes.subarray(0, 100_000)));
    const hasher = new ContentHasher();
    for (let offset = 0; offset < bytes.length; offset += 777_777) hasher.update(bytes.subarray(offset, offset + 777_777));
    expect(hasher.digest()).toBe(whole);
  });
});

describe("ContentHasher.lineCount", () => {
  it("counts lines inclusively of the newline, across chunks", () => {
    expect(new ContentHasher().lineCount()).toBe(0);
    expect(new ContentHasher().update(Buffer.from("a")).lineCount()).toBe(1);
    expect(new ContentHasher().update(Buffer.from("a\n")).lineCount()).toBe(1);
    expect(new ContentHasher().update(Buffer.from("a\nb")).update(Buffer.from("\n\nc")).lineCount()).toBe(4);
  });
});

describe("countLineEndings", () => {
  it("counts LF and CRLF, also across its internal chunks", async () => {
    const { countLineEndings } = await import("./line-ending-count.js");
    expect(countLineEndings(Buffer.from("a\r\nb\nc\r\n"))).toEqual({ lf: 3, crlf: 2 });
    expect(countLineEndings(Buffer.from("\n\r\n\r"))).toEqual({ lf: 2, crlf: 1 });
    const big = Buffer.alloc(4 * 1024 * 1024 + 2, 97);
    big[4 * 1024 * 1024 - 1] = 13;
    big[4 * 1024 * 1024] = 10;
    expect(countLineEndings(big)).toEqual({ lf: 1, crlf: 1 });
  });
});

describe("the FNV-1a 64 WebAssembly module (src/wasm/fnv-hash.wat)", () => {
  it("agrees with the JavaScript reference on random inputs, whole and in pieces", () => {
    let seed = 12345;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let round = 0; round < 200; round += 1) {
      const length = round < 20 ? round : next() % 70_000;
      const bytes = new Uint8Array(length);
      for (let index = 0; index < length; index += 1) bytes[index] = next() >>> 24;
      const expected = contentHashJs(bytes);
      expect(new ContentHasher().update(bytes).digest()).toBe(expected);
      const cut = length ? next() % length : 0;
      expect(new ContentHasher().update(bytes.subarray(0, cut)).update(bytes.subarray(cut)).digest()).toBe(expected);
      expect(new ContentHasher(null).update(bytes).digest()).toBe(expected);
    }
  });

  it("is the module the hashing worker runs", () => {
    // The worker is a module file of its own: it imports the same WebAssembly bytes and instantiates them.
    const worker = readFileSync(new URL("../fast-io/hash-worker-thread.ts", import.meta.url), "utf8");
    expect(worker).toContain('import { FNV_HASH_WASM } from "../wasm/fnv-hash.wasm.js";');
    expect(worker).toContain("new wasm.Module(FNV_HASH_WASM)");
  });
});
