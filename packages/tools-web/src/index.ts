/**
 * @agent-tools/tools-web: WebFetch, one public URL as text through an SSRF guard.
 *
 * @packageDocumentation
 */
export { webTools, createWebToolBundle } from "./web-tools-plugin.js";
export type { WebFetchDetails, WebFetchInput } from "./web-fetch-tool.js";
export type { WebFetchOptions } from "./web-fetch-options.js";
export type { WebFetchCacheOptions } from "./web-fetch-cache.js";
export type { PdfText } from "./content/convert-content.js";
export type { ResolveHost, ResolvedAddress } from "./guard/web-ssrf-guard.js";
