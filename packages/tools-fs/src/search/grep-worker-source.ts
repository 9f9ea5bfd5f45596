/**
 * The Grep search worker, as a self-contained JavaScript source string run
 * with `new Worker(source, { eval: true })`: it loads the same way from the
 * TypeScript sources (tests) and from dist/, with no file to resolve.
 *
 * The search steps are not copied: the source text of the functions in
 * grep-line-scan.ts (the same ones the in-process engine calls) is embedded
 * here; the worker parity test compares both paths.
 *
 * Protocol: workerData `{ directory, source, flags, multiline, pattern,
 * ignoreCase }`; the worker first posts `{ ready: true }`; each message `{ id, files }` (paths relative to
 * `directory`) is answered with `{ id, hits }`, where `hits` is a flat
 * Int32Array `[fileIndex, lineCount, ...lines]` per file with matches.
 */
import { countNewlines, createFileReader, createLiteralFinder, decodeText, matchingLines, matchingLinesAt, matchingLinesByLine, requiredLiteral, searchFileBytes, searchFinder } from "./grep-line-scan.js";

const SHARED_FUNCTIONS = [countNewlines, matchingLinesByLine, matchingLines, decodeText, createLiteralFinder, matchingLinesAt, searchFileBytes, requiredLiteral, searchFinder, createFileReader].map(String).join("\n\n");

/** The worker program. */
export const GREP_WORKER_SOURCE = `
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const fs = require("node:fs");
// Loaders that keep function names (tsx/esbuild) wrap inner functions in __name(fn, "name").
var __name = (target) => target;
const path = require("node:path");
const { directory, source, flags, multiline, pattern, ignoreCase } = workerData;

${SHARED_FUNCTIONS}

const regex = new RegExp(source, flags);
const finder = searchFinder(pattern, ignoreCase);
const read = createFileReader(fs);

parentPort.postMessage({ ready: true });
parentPort.on("message", ({ id, files }) => {
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
