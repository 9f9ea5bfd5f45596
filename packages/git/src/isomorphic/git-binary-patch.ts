/**
 * Git's binary patch encoding (`GIT binary patch`): zlib-deflated data in
 * base85 lines, as `literal` (whole content) or `delta` (git's copy/insert
 * delta against the old content) hunks.
 */
import { deflateSync, inflateSync } from "node:zlib";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~";
const DECODE = new Map([...ALPHABET].map((char, index) => [char, index]));

/** Encodes bytes as git's base85 lines (at most 52 bytes a line, length prefix A-Z / a-z). */
export function encodeBase85Lines(data: Uint8Array): string[] {
  const lines: string[] = [];
  for (let offset = 0; offset < data.length; offset += 52) {
    const chunk = data.subarray(offset, Math.min(offset + 52, data.length));
    let line = chunk.length <= 26 ? String.fromCharCode(64 + chunk.length) : String.fromCharCode(96 + chunk.length - 26);
    for (let index = 0; index < chunk.length; index += 4) {
      let value = 0;
      for (let byte = 0; byte < 4; byte++) value = value * 256 + (chunk[index + byte] ?? 0);
      let group = "";
      for (let digit = 0; digit < 5; digit++) {
        group = ALPHABET[value % 85]! + group;
        value = Math.floor(value / 85);
      }
      line += group;
    }
    lines.push(line);
  }
  return lines;
}

/** Decodes git's base85 lines; throws on a malformed line. */
export function decodeBase85Lines(lines: readonly string[]): Buffer {
  const parts: Buffer[] = [];
  for (const line of lines) {
    const prefix = line.charCodeAt(0);
    const length = prefix >= 65 && prefix <= 90 ? prefix - 64 : prefix >= 97 && prefix <= 122 ? prefix - 96 + 26 : -1;
    const body = line.slice(1);
    if (length < 1 || body.length !== Math.ceil(length / 4) * 5) throw new Error(`corrupt binary patch line: ${line.slice(0, 20)}`);
    const bytes = Buffer.alloc(Math.ceil(length / 4) * 4);
    for (let group = 0; group < body.length / 5; group++) {
      let value = 0;
      for (let digit = 0; digit < 5; digit++) {
        const decoded = DECODE.get(body[group * 5 + digit]!);
        if (decoded === undefined) throw new Error(`corrupt binary patch line: ${line.slice(0, 20)}`);
        value = value * 85 + decoded;
      }
      if (value > 0xffffffff) throw new Error(`corrupt binary patch line: ${line.slice(0, 20)}`);
      bytes.writeUInt32BE(value, group * 4);
    }
    parts.push(bytes.subarray(0, length));
  }
  return Buffer.concat(parts);
}

/** The `GIT binary patch` section (forward literal, then reverse literal) for `oldContent` -> `newContent`. */
export function formatBinaryPatch(oldContent: Uint8Array, newContent: Uint8Array): string {
  const literal = (content: Uint8Array) => [`literal ${content.length}`, ...encodeBase85Lines(deflateSync(content)), ""].join("\n");
  return `GIT binary patch\n${literal(newContent)}\n${literal(oldContent)}\n`;
}

/** One hunk of a binary patch. */
export interface BinaryHunk {
  kind: "literal" | "delta";
  /** The inflated size stated in the header. */
  size: number;
  /** The inflated data (whole content, or a git delta). */
  data: Buffer;
}

/** Reads a binary hunk's lines (after its `literal N` / `delta N` header) into a hunk. */
export function decodeBinaryHunk(kind: "literal" | "delta", size: number, lines: readonly string[]): BinaryHunk {
  const data = inflateSync(decodeBase85Lines(lines));
  if (data.length !== size) throw new Error(`binary patch hunk inflates to ${data.length} bytes, not ${size}`);
  return { kind, size, data };
}

function readVarint(delta: Buffer, position: { offset: number }): number {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = delta[position.offset++];
    if (byte === undefined) throw new Error("truncated git delta");
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if ((byte & 0x80) === 0) return value;
  }
}

/** Applies a git delta (as in pack files and binary patches) to `base`. */
export function applyGitDelta(base: Uint8Array, delta: Buffer): Buffer {
  const position = { offset: 0 };
  const baseSize = readVarint(delta, position);
  if (baseSize !== base.length) throw new Error(`git delta expects a ${baseSize}-byte base, the file has ${base.length} bytes`);
  const resultSize = readVarint(delta, position);
  const result = Buffer.alloc(resultSize);
  let written = 0;
  while (position.offset < delta.length) {
    const command = delta[position.offset++]!;
    if (command & 0x80) {
      let copyOffset = 0;
      let copySize = 0;
      for (let bit = 0; bit < 4; bit++) if (command & (1 << bit)) copyOffset += delta[position.offset++]! * 2 ** (8 * bit);
      for (let bit = 0; bit < 3; bit++) if (command & (1 << (4 + bit))) copySize += delta[position.offset++]! * 2 ** (8 * bit);
      if (copySize === 0) copySize = 0x10000;
      if (copyOffset + copySize > base.length || written + copySize > resultSize) throw new Error("git delta copies out of range");
      result.set(base.subarray(copyOffset, copyOffset + copySize), written);
      written += copySize;
    } else if (command > 0) {
      if (written + command > resultSize || position.offset + command > delta.length) throw new Error("git delta inserts out of range");
      delta.copy(result, written, position.offset, position.offset + command);
      position.offset += command;
      written += command;
    } else {
      throw new Error("git delta has a reserved command 0");
    }
  }
  if (written !== resultSize) throw new Error("git delta produced the wrong size");
  return result;
}
