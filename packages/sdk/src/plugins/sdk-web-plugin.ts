import type { ToolPlugin } from "@agent-tools/core";
import type { WebFetchOptions } from "@agent-tools/tools-web";

/** Pages of a fetched PDF read at most (the page text is shown in windows anyway). */
const PDF_MAX_PAGES = 500;
/** Characters of a fetched PDF's text kept at most. */
const PDF_MAX_CHARS = 2_000_000;

/**
 * `webTools` of `@agent-tools/tools-web` (WebFetch), imported only when the
 * host turns it on (a host without it loads no HTML converter). PDFs are
 * read with tools-fs's PDF reader (Read's, on the optional pdfjs-dist)
 * unless the host gives its own `pdfText`. A worktree child gets WebFetch
 * too (read-only), with its own cache.
 */
export function sdkWebPlugin(options: true | WebFetchOptions): ToolPlugin {
  const given = options === true ? {} : options;
  return {
    id: "web",
    scopes: ["chat", "cron"],
    child: "inherit",
    async create() {
      const { createWebToolBundle } = await import("@agent-tools/tools-web/internal");
      const pdfText =
        given.pdfText ??
        (async (bytes: Uint8Array, signal: AbortSignal) => {
          const { readPdfPages } = await import("@agent-tools/tools-fs/pdf");
          return (await readPdfPages(bytes, { pageStart: 1, pageLimit: PDF_MAX_PAGES, maxChars: PDF_MAX_CHARS, signal })).text;
        });
      // Checked here (fail closed), named by the option path the host wrote (webFetch.allowHosts[0]).
      return createWebToolBundle({ ...given, pdfText }, "webFetch.");
    },
  };
}
