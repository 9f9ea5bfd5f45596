/**
 * A JSON scanner that records where things are: the byte range of every
 * value down to a given depth, and of every object member's key. It works
 * on the UTF-8 bytes themselves (JSON's structural characters are ASCII,
 * and no byte of a multi-byte UTF-8 sequence is), so a caller can splice
 * the original bytes and leave everything else exactly as it was.
 *
 * Values below the recorded depth are skipped without recursion (a
 * notebook's outputs may nest deeply). The input is expected to have
 * parsed with `JSON.parse` already; a malformed one throws `Error`.
 */

/** A value and where it is: `start` its first byte, `end` one past its last. */
export interface JsonNode {
  readonly type: "object" | "array" | "string" | "number" | "literal";
  readonly start: number;
  readonly end: number;
  /** An object's members in file order (recorded depths only). */
  readonly members?: readonly JsonMember[];
  /** An array's elements in order (recorded depths only). */
  readonly elements?: readonly JsonNode[];
}

/** One member of an object: its key (decoded), where the key's quote starts, and its value. */
export interface JsonMember {
  readonly key: string;
  readonly keyStart: number;
  readonly keyEnd: number;
  readonly value: JsonNode;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** True for JSON whitespace (space, tab, LF, CR). */
function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/**
 * Scans the JSON text in `bytes` from `start` (a UTF-8 BOM before it is
 * skipped), recording children of containers `depth` levels deep (0: only
 * the top value's own range).
 *
 * @example
 * const top = scanJsonPositions(Buffer.from('{"cells": [1, 2]}'), 2);
 * top.members![0]!.value.elements![1]; // { type: "number", start: 14, end: 15 }
 */
export function scanJsonPositions(bytes: Uint8Array, depth: number, start = 0): JsonNode {
  let position = start;
  if (bytes[position] === 0xef && bytes[position + 1] === 0xbb && bytes[position + 2] === 0xbf) position += 3;

  const skipSpace = () => {
    while (isSpace(bytes[position])) position += 1;
  };
  const expect = (byte: number) => {
    if (bytes[position] !== byte) throw new Error(`JSON: expected ${String.fromCharCode(byte)} at byte ${position}`);
    position += 1;
  };
  const stringEnd = (from: number): number => {
    let index = from + 1;
    while (index < bytes.length) {
      const byte = bytes[index];
      if (byte === BACKSLASH) index += 2;
      else if (byte === QUOTE) return index + 1;
      else index += 1;
    }
    throw new Error("JSON: unterminated string");
  };
  // Skips a container without recording anything, iteratively (strings may hold brackets).
  const skipContainer = (from: number): number => {
    let level = 0;
    let index = from;
    while (index < bytes.length) {
      const byte = bytes[index]!;
      if (byte === QUOTE) {
        index = stringEnd(index);
        continue;
      }
      if (byte === 0x7b || byte === 0x5b) level += 1;
      else if (byte === 0x7d || byte === 0x5d) {
        level -= 1;
        if (level === 0) return index + 1;
      }
      index += 1;
    }
    throw new Error("JSON: unterminated container");
  };
  const scalarEnd = (from: number): number => {
    let index = from;
    while (index < bytes.length && !isSpace(bytes[index]) && bytes[index] !== 0x2c && bytes[index] !== 0x7d && bytes[index] !== 0x5d) index += 1;
    return index;
  };

  const value = (level: number): JsonNode => {
    skipSpace();
    const begin = position;
    const byte = bytes[position];
    if (byte === QUOTE) {
      position = stringEnd(position);
      return { type: "string", start: begin, end: position };
    }
    if (byte === 0x7b || byte === 0x5b) {
      const type = byte === 0x7b ? "object" : "array";
      if (level <= 0) {
        position = skipContainer(position);
        return { type, start: begin, end: position };
      }
      return type === "object" ? object(level) : array(level);
    }
    if (byte === undefined) throw new Error("JSON: unexpected end");
    position = scalarEnd(position);
    if (position === begin) throw new Error(`JSON: unexpected byte at ${begin}`);
    return { type: byte === 0x74 || byte === 0x66 || byte === 0x6e ? "literal" : "number", start: begin, end: position };
  };

  const object = (level: number): JsonNode => {
    const begin = position;
    expect(0x7b);
    const members: JsonMember[] = [];
    skipSpace();
    if (bytes[position] === 0x7d) {
      position += 1;
      return { type: "object", start: begin, end: position, members };
    }
    for (;;) {
      skipSpace();
      const keyStart = position;
      if (bytes[position] !== QUOTE) throw new Error(`JSON: expected a key at byte ${position}`);
      const keyEnd = stringEnd(position);
      const key = JSON.parse(Buffer.from(bytes.subarray(keyStart, keyEnd)).toString("utf8")) as string;
      position = keyEnd;
      skipSpace();
      expect(0x3a);
      members.push({ key, keyStart, keyEnd, value: value(level - 1) });
      skipSpace();
      if (bytes[position] === 0x2c) {
        position += 1;
        continue;
      }
      expect(0x7d);
      return { type: "object", start: begin, end: position, members };
    }
  };

  const array = (level: number): JsonNode => {
    const begin = position;
    expect(0x5b);
    const elements: JsonNode[] = [];
    skipSpace();
    if (bytes[position] === 0x5d) {
      position += 1;
      return { type: "array", start: begin, end: position, elements };
    }
    for (;;) {
      elements.push(value(level - 1));
      skipSpace();
      if (bytes[position] === 0x2c) {
        position += 1;
        continue;
      }
      expect(0x5d);
      return { type: "array", start: begin, end: position, elements };
    }
  };

  return value(depth);
}

/** The last member named `key` (as `JSON.parse` keeps the last of duplicates). */
export function memberOf(node: JsonNode, key: string): JsonMember | undefined {
  const members = node.members ?? [];
  for (let index = members.length - 1; index >= 0; index -= 1) if (members[index]!.key === key) return members[index];
  return undefined;
}
