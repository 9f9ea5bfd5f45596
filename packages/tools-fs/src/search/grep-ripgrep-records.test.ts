import { describe, expect, it } from "vitest";
import { RipgrepRecordSplitter } from "./grep-ripgrep-records.js";
import { seededRandom as random } from "../__fixtures__/seeded-random.js";

/** The whole-buffer split this replaces (the reference). */
function splitWhole(output: Buffer): Array<[string, string]> {
  const records: Array<[string, string]> = [];
  let position = 0;
  while (position < output.length) {
    const nul = output.indexOf(0, position);
    if (nul === -1) break;
    let name = output.toString("utf8", position, nul);
    if (name.startsWith("./")) name = name.slice(2);
    const lf = output.indexOf("\n\n", nul + 1, "latin1");
    const crlf = output.indexOf("\n\r\n", nul + 1, "latin1");
    const separator = lf === -1 ? crlf : crlf === -1 ? lf : Math.min(lf, crlf);
    const end = separator === -1 ? output.length : separator + 1;
    records.push([name, output.toString("latin1", nul + 1, end)]);
    position = separator === -1 ? output.length : separator + (separator === lf ? 2 : 3);
  }
  return records;
}

function splitChunks(chunks: Buffer[]): Array<[string, string]> {
  const records: Array<[string, string]> = [];
  const splitter = new RipgrepRecordSplitter((path, buffer, start, end) => records.push([path, buffer.toString("latin1", start, end)]));
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return records;
}

/** Output shaped like ripgrep's: CRLF lines and separators, paths with line feeds, a last record without separator. */
function randomOutput(next: () => number): Buffer {
  let text = "";
  const files = Math.floor(next() * 6);
  for (let file = 0; file < files; file += 1) {
    const crlf = next() < 0.3;
    text += `${next() < 0.7 ? "./" : ""}dir/f${file}${next() < 0.1 ? "\n\nodd" : ""}${next() < 0.1 ? "é" : ""}.ts\u0000`;
    const lines = 1 + Math.floor(next() * 4);
    for (let line = 0; line < lines; line += 1) {
      if (next() < 0.1) text += crlf ? "--\r\n" : "--\n";
      else text += `${line + 1}${next() < 0.7 ? ":" : "-"}${"x\r".slice(0, Math.floor(next() * 2))}text${line}${crlf ? "\r\n" : "\n"}`;
    }
    if (file < files - 1 || next() < 0.5) text += next() < 0.3 ? "\r\n" : "\n";
  }
  return Buffer.from(text, "utf8");
}

describe("RipgrepRecordSplitter", () => {
  it("splits any chunking of the output as the whole-buffer split does", () => {
    const next = random(7);
    for (let round = 0; round < 2_000; round += 1) {
      const output = randomOutput(next);
      const expected = splitWhole(output);
      expect(splitChunks([output])).toEqual(expected);
      const chunks: Buffer[] = [];
      for (let position = 0; position < output.length; ) {
        const size = next() < 0.5 ? 1 + Math.floor(next() * 3) : 1 + Math.floor(next() * 40);
        chunks.push(output.subarray(position, position + size));
        position += size;
      }
      expect(splitChunks(chunks)).toEqual(expected);
    }
  });

  it("passes a record inside one chunk as a view of it (no copy)", () => {
    const chunk = Buffer.from("./a.ts\u00001:x\n\n./b.ts\u00002:y\n");
    const buffers: Buffer[] = [];
    const splitter = new RipgrepRecordSplitter((_path, buffer) => buffers.push(buffer));
    splitter.push(chunk);
    splitter.end();
    expect(buffers[0]).toBe(chunk);
    // The last record (no separator after it) is a view of the same memory.
    expect(buffers[1]!.buffer).toBe(chunk.buffer);
  });

  it("splits a CRLF separator split over three chunks", () => {
    expect(splitChunks([Buffer.from("a\u00001:x\n"), Buffer.from("\r"), Buffer.from("\nb\u00002:y\n")])).toEqual([
      ["a", "1:x\n"],
      ["b", "2:y\n"],
    ]);
  });
});
