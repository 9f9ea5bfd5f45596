/**
 * Starts a worker thread from a module file of this package. The caller
 * names the module as built, `new URL("./x-worker.js", import.meta.url)`:
 * from dist (what hosts run) that file is started directly. From the
 * TypeScript sources (the tests, `tsx`), where only `x-worker.ts` exists and
 * plain Node cannot load it in a worker thread, the `.ts` file is started
 * through source-worker-loader.mjs, which registers tsx inside the thread.
 */
import { Worker, type WorkerOptions } from "node:worker_threads";

/** This package runs from its TypeScript sources rather than from dist. */
const FROM_SOURCES = import.meta.url.endsWith(".ts");

/**
 * Starts the worker module at `moduleUrl` (a `.js` URL next to the caller).
 *
 * @example
 * const worker = startWorkerModule(new URL("./hash-worker-thread.js", import.meta.url), { name: "hash" });
 */
export function startWorkerModule(moduleUrl: URL, options: WorkerOptions = {}): Worker {
  if (!FROM_SOURCES) return new Worker(moduleUrl, options);
  const source = moduleUrl.href.replace(/\.js$/, ".ts");
  return new Worker(new URL("./source-worker-loader.mjs", import.meta.url), { ...options, workerData: { sourceWorkerModule: source } });
}
