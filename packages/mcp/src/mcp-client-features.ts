/**
 * Client features the host backs with callbacks: elicitation, sampling and
 * roots. Only what the host gives is declared in `initialize`.
 */
import type { McpClientFeatures } from "./client-host-options.js";

/** The host's callbacks for client features (part of `createMcpToolBundles` options). */
// biome-ignore lint/suspicious/noEmptyInterface: filled in as the features land.
export interface McpClientFeatureOptions {}

/** The features of every connection, or undefined when the host gave none. */
export function createMcpClientFeatures(_options: McpClientFeatureOptions): McpClientFeatures | undefined {
  return undefined;
}
