import { randomBytes } from "node:crypto";
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
