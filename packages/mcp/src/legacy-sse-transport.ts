import { ToolError } from "@agent-tools/core";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** How long a legacy SSE server gets to announce its POST endpoint. */
export const SSE_ENDPOINT_WAIT_MS = 3_000;

/**
 * A legacy HTTP+SSE client transport that waits {@link SSE_ENDPOINT_WAIT_MS}
 * for the server's `endpoint` event and otherwise falls back to the
 * configured `messageUrl` (resolved against `url`).
 */
export function createLegacySseTransport(
  url: URL,
  options: { headers?: Record<string, string>; messageUrl?: string; endpointWaitMs?: number; authProvider?: OAuthClientProvider },
): Transport {
  const inner = new SSEClientTransport(url, { requestInit: { headers: options.headers }, eventSourceInit: undefined, authProvider: options.authProvider });
  const wait = options.endpointWaitMs ?? SSE_ENDPOINT_WAIT_MS;
  const transport: Transport = {
    async start() {
      let timer: NodeJS.Timeout | undefined;
      const started = inner.start();
      const timedOut = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), wait);
      });
      try {
        const outcome = await Promise.race([started.then(() => "started" as const), timedOut]);
        if (outcome === "started") return;
      } finally {
        clearTimeout(timer);
      }
      started.catch(() => undefined);
      if (!options.messageUrl) {
        await inner.close().catch(() => undefined);
        throw new ToolError("unavailable", `The SSE server announced no message endpoint within ${wait} ms; set messageUrl to its POST endpoint.`, {
          details: { url: url.href, waitedMs: wait },
        });
      }
      // The SDK keeps the endpoint in a private field; set it ourselves for servers that never announce one.
      (inner as unknown as { _endpoint?: URL })._endpoint = new URL(options.messageUrl, url);
    },
    send: (message: JSONRPCMessage) => inner.send(message),
    close: () => inner.close(),
    setProtocolVersion: (version: string) => inner.setProtocolVersion?.(version),
  };
  inner.onclose = () => transport.onclose?.();
  inner.onerror = (error) => transport.onerror?.(error);
  inner.onmessage = (message: JSONRPCMessage) => transport.onmessage?.(message);
  return transport;
}
