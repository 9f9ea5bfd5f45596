/**
 * `@agent-tools/tools-web/internal`: what the workspace packages share (the
 * sdk builds the bundle with its own option paths in messages and types the
 * tool's input); no semver promise to hosts.
 */
export { createWebToolBundle } from "./web-tools-plugin.js";
export type { WebFetchInput } from "./web-fetch-tool.js";
