import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderGrep } from "./grep-format.js";
import { FileBytesHits, TextFileHits } from "./grep-file-hits.js";
import { decodeText } from "./grep-line-scan.js";
import type { GrepByteRange } from "./grep-result.js";
import { seededRandom as random } from "../__fixtures__/seeded-random.js";

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "tools-fs-file-hits-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const PIECES: Buffer[] = [
  Buffer.from("return x;"),
  Buffer.from("é€😀"),
  Buffer.from("\r\n"),
  Buffer.from("\n"),
  Buffer.from("\r"),
  Buffer.from("\n\n"),
  Buffer.from([0xff, 0xc3]), // invalid, then a truncated sequence
  Buffer.from([0xe2, 0x82]), // truncated before whatever follows
  Buffer.from("\ufeff"),
  Buffer.from(" \t"),
];

describe("FileBytesHits", () => {
  it("gives every line as the decoded text's hits give it (BOM, CRLF, lone CR, invalid bytes, no final line feed)", () => {
    const next = random(11);
    for (let round = 0; round < 400; round += 1) {
      const parts: Buffer[] = next() < 0.2 ? [Buffer.from([0xef, 0xbb, 0xbf])] : [];
      const count = Math.floor(next() * 20);
      for (let index = 0; index < count; index += 1) parts.push(PIECES[Math.floor(next() * PIECES.length)]!);
      const bytes = Buffer.concat(parts);
      const file = `f${round}.txt`;
      writeFileSync(path.join(root, file), bytes);
      const text = decodeText(bytes);
      const lineCount = text.split("\n").length + 1;
      const all = Array.from({ length: lineCount + 1 }, (_, index) => index + 1);
      const fromText = new TextFileHits(file, all, text);
      const fromBytes = new FileBytesHits(file, all, root);
      // (The text's last line keeps the file's final line feed, which the renderer trims; the bytes' does not.)
      for (let line = 0; line <= lineCount + 1; line += 1)
        expect([round, line, fromBytes.lineText(line)]).toEqual([round, line, fromText.lineText(line)?.replace(/\n$/, "")]);
      // The renderer takes bytes where it can: the same answer.
      const options = { outputMode: "content" as const, offset: 0, headLimit: 100, context: 1, displayDirectory: ".", pattern: "x" };
      const matches = all.filter(() => next() < 0.5).filter((line) => fromText.lineText(line) !== undefined);
      if (matches.length === 0) continue;
      expect(renderGrep([new FileBytesHits(file, matches, root)], options).text).toBe(renderGrep([new TextFileHits(file, matches, text)], options).text);
    }
  });

  it("reads the file only when a line is asked for, and lets it go on release", () => {
    const file = "lazy.txt";
    writeFileSync(path.join(root, file), "one\ntwo\n");
    const hits = new FileBytesHits(file, [2], root);
    writeFileSync(path.join(root, file), "uno\ndos\n");
    const range: GrepByteRange = { buffer: Buffer.alloc(0), start: 0, end: 0 };
    expect(hits.lineBytes(2, range)).toBe(true);
    expect(range.buffer.toString("utf8", range.start, range.end)).toBe("dos");
    hits.release();
    rmSync(path.join(root, file));
    expect(hits.lineText(2)).toBeUndefined(); // vanished since: nothing to show
  });
});
