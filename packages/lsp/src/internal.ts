/**
 * `@agent-tools/lsp/internal`: what the workspace packages share (the sdk
 * checks the `lsp` option with the LSP plugin's own checker and types the
 * tool's input); no semver promise to hosts.
 */
export { checkLspPluginOptions } from "./tool/lsp-plugin-options.js";
export type { lspInputSchema } from "./tool/lsp-tool-input.js";
