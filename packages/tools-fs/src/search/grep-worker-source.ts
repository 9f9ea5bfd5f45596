/**
 * The Grep search worker, as a self-contained JavaScript source string run
 * with `new Worker(source, { eval: true })`: it loads the same way from the
 * TypeScript sources (tests) and from dist/, with no file to resolve.
 *
 * The search steps are not copied: the source text of the functions in
 * grep-line-scan.ts (the same ones the in-process engine calls) is embedded
 * here; the worker parity test compares both paths.
 *
 * Protocol: the worker first posts `{ ready: true }`; each message `{ id,
 * files, query }` (paths relative to `query.directory`; `query` is a
 * `GrepWorkerQuery` of grep-workers.ts) is answered with `{ id, hits }`, where `hits` is a
 * flat Int32Array `[fileIndex, lineCount, ...lines]` per file with matches.
 * A worker serves one search at a time but may serve many in turn: it
 * compiles the regex again only when the query changes.
 */
import {
  countNewlines,
  createFileReader,
  createLiteralFinder,
  decodeText,
  matchingLines,
  matchingLinesAt,
  matchingLinesByLine,
  requiredLiteral,
  searchFileBytes,
  searchFinder,
} from "./grep-line-scan.js";

const SHARED_FUNCTIONS = [
  countNewlines,
  matchingLinesByLine,
  matchingLines,
  decodeText,
  createLiteralFinder,
  matchingLinesAt,
  searchFileBytes,
  requiredLiteral,
  searchFinder,
  createFileReader,
]
  .map(String)
  .join("\n\n");

/** The worker program. */
export const GREP_WORKER_SOURCE = `
"use strict";
const { parentPort } = require("node:worker_threads");
const fs = require("node:fs");
// Loaders that keep function names (tsx/esbuild) wrap inner functions in __name(fn, "name").
var __name = (target) => target;
const path = require("node:path");

${SHARED_FUNCTIONS}

const read = createFileReader(fs);
let current; // { key, directory, regex, multiline, finder } of the last query

parentPort.postMessage({ ready: true });
parentPort.on("message", ({ id, files, query }) => {
  const key = JSON.stringify(query);
  if (!current || current.key !== key) {
    current = { key, directory: query.directory, regex: new RegExp(query.source, query.flags), multiline: query.multiline, finder: searchFinder(query.pattern, query.ignoreCase) };
  }
  const { directory, regex, multiline, finder } = current;
  const out = [];
  for (let index = 0; index < files.length; index += 1) {
    let bytes;
    try {
      bytes = read(path.join(directory, files[index]));
    } catch {
      continue;
    }
    const lines = searchFileBytes(bytes, regex, multiline, finder);
    if (!lines || !lines.length) continue;
    out.push(index, lines.length);
    for (const line of lines) out.push(line);
  }
  const hits = Int32Array.from(out);
  parentPort.postMessage({ id, hits }, [hits.buffer]);
});
`;
