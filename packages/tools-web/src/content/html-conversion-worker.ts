/**
 * The DOM parse and Markdown conversion of one page, in a worker thread:
 * both are synchronous and, on hostile markup, can take minutes and
 * gigabytes (misnested formatting elements make the parser rebuild hundreds
 * of elements per paragraph). In a worker the host's event loop stays free,
 * the call's abort and time cap end it (`terminate`), and its heap is
 * bounded. One worker per conversion, ended when it answers: nothing
 * outlives the call.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** Heap of the conversion worker at most; past it the conversion fails instead of the host. */
const WORKER_HEAP_MB = 512;

/** What the worker needs; plain data (it crosses the thread boundary). */
interface ConversionJob {
  readonly html: string;
  readonly pageUrl: string;
  readonly dropped: string;
  readonly turndown: string;
  readonly domino: string;
}

/** The worker's program (CommonJS, run with `eval`): the same steps for every source layout (src under vitest, dist when installed). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const TurndownService = require(workerData.turndown);
const domino = require(workerData.domino);
const absolute = (value, base) => {
  try {
    const url = new URL(value, base);
    return url.protocol === "http:" || url.protocol === "https:" || url.protocol === "mailto:" ? url.href : undefined;
  } catch {
    return undefined;
  }
};
const document = domino.createDocument(workerData.html, true);
let base = new URL(workerData.pageUrl);
const baseElement = document.querySelector("base[href]");
if (baseElement) {
  const resolved = absolute(baseElement.getAttribute("href") || "", base);
  if (resolved !== undefined) base = new URL(resolved);
}
const title = document.title.trim() || undefined;
for (const element of [...document.querySelectorAll(workerData.dropped)]) element.remove();
for (const [selector, attribute] of [["a[href]", "href"], ["img[src]", "src"]]) {
  for (const element of document.querySelectorAll(selector)) {
    const resolved = absolute(element.getAttribute(attribute) || "", base);
    element.setAttribute(attribute, resolved === undefined ? "" : resolved);
  }
}
const service = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "_" });
service.addRule("emptyLink", { filter: (node) => node.nodeName === "A" && node.getAttribute("href") === "", replacement: (content) => content });
service.addRule("emptyImage", { filter: (node) => node.nodeName === "IMG" && node.getAttribute("src") === "", replacement: (_content, node) => node.getAttribute("alt") || "" });
const markdown = service.turndown(document.body).replace(/\\n{3,}/g, "\\n\\n").trim();
parentPort.postMessage({ title, markdown });
`;

/**
 * Parses `html` and converts it to Markdown in a fresh worker, with the
 * elements matching `dropped` removed and links made absolute against
 * `pageUrl` (or the page's `<base href>`). Rejects with the signal's reason
 * when it aborts (the worker is terminated), and with the worker's error
 * when it fails or runs out of its heap.
 */
export function convertHtmlInWorker(
  html: string,
  pageUrl: URL,
  dropped: string,
  signal: AbortSignal,
): Promise<{ title: string | undefined; markdown: string }> {
  const require = createRequire(import.meta.url);
  const job: ConversionJob = { html, pageUrl: pageUrl.href, dropped, turndown: require.resolve("turndown"), domino: require.resolve("@mixmark-io/domino") };
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: job, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      // Ended whatever happened: a worker is never left running after its call.
      void worker.terminate();
      action();
    };
    const onAbort = () => settle(() => reject(signal.reason));
    signal.addEventListener("abort", onAbort, { once: true });
    worker.once("message", (message: { title: string | undefined; markdown: string }) => settle(() => resolve(message)));
    worker.once("error", (error) => settle(() => reject(error)));
    worker.once("exit", (code) => settle(() => reject(new Error(`the conversion worker stopped (exit code ${code})`))));
  });
}
