/**
 * The Grep search worker (started by {@link GrepThread} of
 * grep-worker-host.ts). It runs the very functions of grep-line-scan.ts the
 * in-process engine calls; the worker parity test compares both paths.
 *
 * Protocol: the worker first posts `{ ready: true }`; each message `{ id,
 * files, query }` (paths relative to `query.directory`; `query` is a
 * `GrepWorkerQuery` of grep-workers.ts) is answered with `{ id, hits }`, where `hits` is a
 * flat Int32Array `[fileIndex, lineCount, ...lines]` per file with matches.
 * A message may carry `contents` (the files' bytes, in the order of
 * `files`): the worker then matches those bytes instead of reading the files.
 * A worker serves one search at a time but may serve many in turn: it
 * compiles the regex again only when the query changes.
 */
import fs from "node:fs";
import path from "node:path";
import { parentPort } from "node:worker_threads";
import { createFileReader, searchFileBytes, searchFinder } from "./grep-line-scan.js";
import { GrepScanKernel } from "./grep-scan-kernel.js";
import type { GrepWorkerQuery } from "./grep-workers.js";

/** A query as posted: the search directory with the query. */
type WorkerQuery = GrepWorkerQuery & { directory: string };

/** The compiled form of the last query. */
interface CompiledQuery {
  key: string;
  directory: string;
  regex: RegExp;
  multiline: boolean;
  finder: ReturnType<typeof searchFinder>;
}

/** This thread's byte scanner: files are read into its memory and scanned there. */
const kernel = GrepScanKernel.create();
const read = createFileReader(fs, kernel);
/** This thread's last query, kept so that the next batch of the same search does not compile it again. */
const cache: { current?: CompiledQuery } = {};

function compile(query: WorkerQuery): CompiledQuery {
  const key = JSON.stringify(query);
  if (!cache.current || cache.current.key !== key) {
    cache.current = {
      key,
      directory: query.directory,
      regex: new RegExp(query.source, query.flags),
      multiline: query.multiline,
      finder: searchFinder(query.pattern, query.ignoreCase, kernel),
    };
  }
  return cache.current;
}

parentPort?.postMessage({ ready: true });
parentPort?.on("message", ({ id, files, query, contents }: { id: number; files: string[]; query: WorkerQuery; contents?: Uint8Array[] }) => {
  const { directory, regex, multiline, finder } = compile(query);
  const out: number[] = [];
  for (let index = 0; index < files.length; index += 1) {
    let bytes: Buffer | null;
    // `contents`: the files' bytes read by the caller (a workspace's files are not on this disk).
    const given = contents?.[index];
    if (given) bytes = Buffer.from(given.buffer, given.byteOffset, given.byteLength);
    else {
      try {
        bytes = read(path.join(directory, files[index]!));
      } catch {
        continue;
      }
    }
    const lines = searchFileBytes(bytes, regex, multiline, finder);
    if (!lines?.length) continue;
    out.push(index, lines.length);
    for (const line of lines) out.push(line);
  }
  const hits = Int32Array.from(out);
  parentPort?.postMessage({ id, hits }, [hits.buffer]);
});
