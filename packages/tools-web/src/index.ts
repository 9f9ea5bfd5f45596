/**
 * @agent-tools/tools-web: WebFetch, one public URL as text through an SSRF guard.
 *
 * @packageDocumentation
 */
export { webTools, createWebToolBundle, webFetchUserAgent } from "./web-tools-plugin.js";
export { createWebFetchTool, webFetchInputSchema, WEB_FETCH_PAGE_CHARS } from "./web-fetch-tool.js";
export type { WebFetchDetails } from "./web-fetch-tool.js";
export { resolveWebFetchOptions, WEB_FETCH_DEFAULT_MAX_BYTES, WEB_FETCH_MAX_BYTES, WEB_FETCH_DEFAULT_TIMEOUT_MS } from "./web-fetch-options.js";
export type { WebFetchOptions, ResolvedWebFetchOptions } from "./web-fetch-options.js";
export type { WebFetchCacheOptions, WebFetchCache, CachedPage } from "./web-fetch-cache.js";
export { createWebFetchCache, WEB_FETCH_CACHE_TTL_MS } from "./web-fetch-cache.js";
export type { PdfText, ConvertedContent, WebContentFormat } from "./content/convert-content.js";
export type { ResolveHost, ResolvedAddress } from "./guard/web-ssrf-guard.js";
export { WEB_FETCH_MAX_REDIRECTS } from "./http/fetch-page.js";
