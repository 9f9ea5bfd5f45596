/**
 * The Grep search worker, as a self-contained JavaScript source string run
 * with `new Worker(source, { eval: true })`: it loads the same way from the
 * TypeScript sources (tests) and from dist/, with no file to resolve.
 *
 * It mirrors `searchBytes`, `matchingLines` and `literalPrefilter` of
 * grep-engine.ts line for line; the worker parity test compares both paths.
 *
 * Protocol: workerData `{ directory, source, flags, multiline, pattern,
 * ignoreCase }`; the worker first posts `{ ready: true }`; each message `{ id, files }` (paths relative to
 * `directory`) is answered with `{ id, hits }`, where `hits` is a flat
 * Int32Array `[fileIndex, lineCount, ...lines]` per file with matches.
 */
export const GREP_WORKER_SOURCE = String.raw`
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const { readFileSync } = require("node:fs");
const path = require("node:path");
const { directory, source, flags, multiline, pattern, ignoreCase } = workerData;
const regex = new RegExp(source, flags);

function countNewlines(text) {
  let count = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) count += 1;
  return count;
}

function matchingLinesByLine(text) {
  const single = new RegExp(regex.source, regex.flags.replace("g", ""));
  const lines = [];
  const all = text.split("\n");
  if (all.length && all[all.length - 1] === "") all.pop();
  for (let index = 0; index < all.length; index += 1) if (single.test(all[index])) lines.push(index + 1);
  return lines;
}

function matchingLines(text) {
  const lines = [];
  regex.lastIndex = 0;
  let scanned = 0;
  let line = 1;
  const lineAt = (offset) => {
    for (let index = text.indexOf("\n", scanned); index !== -1 && index < offset; index = text.indexOf("\n", index + 1)) line += 1;
    scanned = offset;
    return line;
  };
  for (;;) {
    const match = regex.exec(text);
    if (!match) break;
    const start = match.index;
    if (start === text.length && start > 0 && text.charCodeAt(start - 1) === 10) break;
    const value = match[0];
    const startLine = lineAt(start);
    if (!multiline && value.includes("\n")) return matchingLinesByLine(text);
    const endLine = multiline && value.length > 0 ? startLine + countNewlines(value.slice(0, -1)) : startLine;
    for (let current = startLine; current <= endLine; current += 1) if (lines[lines.length - 1] !== current) lines.push(current);
    const nextLineStart = text.indexOf("\n", multiline && value.length > 0 ? start + value.length - 1 : start);
    if (nextLineStart === -1 || nextLineStart + 1 >= text.length) break;
    if (multiline && value.length > 0 && value.endsWith("\n")) {
      regex.lastIndex = start + value.length;
    } else {
      regex.lastIndex = nextLineStart + 1;
    }
    lineAt(regex.lastIndex);
  }
  return lines;
}

function makePrefilter() {
  if (!/^[A-Za-z0-9_ \-]+$/.test(pattern)) return undefined;
  if (!ignoreCase || !/[A-Za-z]/.test(pattern)) {
    const needle = Buffer.from(pattern, "latin1");
    return (bytes) => bytes.indexOf(needle) !== -1;
  }
  const literal = new RegExp(pattern.replace(/-/g, "\\-"), "i");
  return (bytes) => literal.test(bytes.toString("latin1"));
}
const prefilter = makePrefilter();

parentPort.postMessage({ ready: true });
parentPort.on("message", ({ id, files }) => {
  const out = [];
  for (let index = 0; index < files.length; index += 1) {
    let bytes;
    try {
      bytes = readFileSync(path.join(directory, files[index]));
    } catch {
      continue;
    }
    if (prefilter && !prefilter(bytes)) continue;
    if (bytes.indexOf(0) !== -1) continue;
    let text = bytes.toString("utf8");
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.includes("\r\n")) text = text.replace(/\r\n/g, "\n");
    const lines = matchingLines(text);
    if (!lines.length) continue;
    out.push(index, lines.length);
    for (const line of lines) out.push(line);
  }
  const hits = Int32Array.from(out);
  parentPort.postMessage({ id, hits }, [hits.buffer]);
});
`;
