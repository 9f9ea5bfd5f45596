/**
 * @agent-tools/tools-web: WebFetch, one public URL as text through an SSRF guard.
 * The option types it takes (`WebFetchOptions["resolve"]`, `["pdfText"]`,
 * `["cache"]`) are reached through {@link WebFetchOptions}.
 *
 * @packageDocumentation
 */
export { webTools } from "./web-tools-plugin.js";
export type { WebFetchDetails } from "./web-fetch-tool.js";
export type { WebFetchOptions } from "./web-fetch-options.js";
