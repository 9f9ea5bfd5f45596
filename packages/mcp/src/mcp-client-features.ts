/**
 * Client features the host backs with callbacks: elicitation, sampling and
 * roots. Only what the host gives is declared in `initialize`; a server's
 * request for a feature that was not declared gets the SDK's
 * method-not-found error.
 */
import { SdkError } from "@agent-tools/core";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import type { McpClientFeatures } from "./client-host-options.js";
import type { McpHostOptions } from "@agent-tools/core/mcp";
import { installElicitationHandler } from "./client-features/elicitation-handler.js";
import { UrlElicitationBroker } from "./client-features/url-elicitation.js";
import { answerUrlElicitation, installUrlElicitationCompletion } from "./client-features/url-elicitation-handler.js";
import { RootsChangeNotifier, installRootsHandler } from "./client-features/roots-handler.js";
import { installSamplingHandler } from "./client-features/sampling-handler.js";

/** The host's callbacks for client features (part of `createMcpToolBundles` options; documented on `McpHostOptions`). */
export type McpClientFeatureOptions = Pick<McpHostOptions, "onElicitation" | "onUrlElicitation" | "sampling" | "roots">;

/** The client features of a runtime plus the roots-changed notice. */
export interface McpClientFeatureSet extends McpClientFeatures {
  /** Sends `notifications/roots/list_changed` to every connected server (no-op without roots). */
  notifyRootsChanged(): Promise<void>;
}

/**
 * The features of every connection, or undefined when the host gave none.
 * Throws `SdkError` (`invalid_options`) for a callback that is not a function.
 *
 * @example
 * const features = createMcpClientFeatures({ onElicitation: async () => ({ action: "decline" }), roots: () => [{ uri: "file:///repo", name: "workspace" }] });
 * const runtime = new McpRuntime({ clientFeatures: features });
 */
export function createMcpClientFeatures(options: McpClientFeatureOptions): McpClientFeatureSet | undefined {
  const { onElicitation, onUrlElicitation, sampling, roots } = options;
  if (onElicitation !== undefined && typeof onElicitation !== "function") throw new SdkError("invalid_options", "mcp.onElicitation must be a function.");
  // The broker's constructor throws SdkError naming mcp.onUrlElicitation for a value that is not a function.
  const urlElicitation = onUrlElicitation === undefined ? undefined : new UrlElicitationBroker(onUrlElicitation);
  if (sampling !== undefined && typeof sampling?.model?.generate !== "function")
    throw new SdkError("invalid_options", "mcp.sampling.model must be a ModelClient (an object with generate).");
  if (roots !== undefined && roots !== false && typeof roots !== "function") throw new SdkError("invalid_options", "mcp.roots must be a function or false.");
  const samplingOn = sampling !== undefined && typeof sampling.approve === "function";
  const rootsSource = typeof roots === "function" ? roots : undefined;
  if (onElicitation === undefined && urlElicitation === undefined && !samplingOn && rootsSource === undefined) return undefined;
  // Each elicitation mode is declared only with its own callback: form with onElicitation, url with onUrlElicitation.
  const elicitation = { ...(onElicitation !== undefined ? { form: {} } : {}), ...(urlElicitation !== undefined ? { url: {} } : {}) };
  const capabilities: ClientCapabilities = {
    ...(Object.keys(elicitation).length > 0 ? { elicitation } : {}),
    ...(samplingOn ? { sampling: {} } : {}),
    ...(rootsSource !== undefined ? { roots: { listChanged: true } } : {}),
  };
  const notifier = new RootsChangeNotifier();
  return {
    capabilities: () => structuredClone(capabilities),
    install(client, config) {
      if (onElicitation !== undefined || urlElicitation !== undefined) {
        const answerUrl =
          urlElicitation &&
          ((params: Parameters<typeof answerUrlElicitation>[2], signal: AbortSignal) => answerUrlElicitation(urlElicitation, config.id, params, signal));
        installElicitationHandler(client, config.id, onElicitation && ((request) => onElicitation(request)), answerUrl);
      }
      if (urlElicitation !== undefined) installUrlElicitationCompletion(client, config.id, urlElicitation);
      if (samplingOn) installSamplingHandler(client, config.id, sampling);
      if (rootsSource !== undefined) {
        installRootsHandler(client, rootsSource);
        notifier.track(config.id, client);
      }
    },
    urlElicitation,
    notifyRootsChanged: () => (rootsSource === undefined ? Promise.resolve() : notifier.notify()),
  };
}
