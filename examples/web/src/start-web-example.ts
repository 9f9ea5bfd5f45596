/**
 * The whole web example in one process: the gateway, the registry and the
 * executing host, connected. The tests use it; `start-web.ts` runs the two
 * halves as separate processes (by default the gateway as its child).
 */
import type { ModelClient } from "@agent-tools/core";
import { createGatewayToken } from "./gateway/gateway-token.js";
import { startGateway } from "./gateway/start-gateway.js";
import { startHost } from "./host/start-host.js";
import type { WebApprovalOptions } from "./host/web-approval.js";

/** Options of {@link startWebExample}. */
export interface WebExampleOptions {
  /** The workspace; default a temporary copy of the sample project, deleted on close. */
  workdir?: string;
  /** The gateway's port on 127.0.0.1; default 0 (any free port). */
  port?: number;
  /** Default the scripted web demo model ("fix", "long", "approve"). */
  model?: ModelClient;
  /** Shown on the page; default "scripted demo" or the model's id. */
  modelName?: string;
  /** The built page; default `examples/web/dist/page`. */
  pageDir?: string;
  /** The token in the page's URL (opens `/page` only); default 24 random bytes, base64url. */
  pageToken?: string;
  /** The executing host's token (opens `/host` only); default 24 random bytes, base64url. Must differ from `pageToken`. */
  hostToken?: string;
  /** Approval rules; default `DEMO_APPROVAL` (Write asks) for the scripted model, `REAL_MODEL_APPROVAL` (all but read-only and task tools ask) for a given one. */
  approval?: WebApprovalOptions;
}

/** A running web example. */
export interface WebExample {
  /** The page's address with the token: `http://127.0.0.1:PORT/?token=...`. */
  readonly url: string;
  /** The gateway's base URL, `http://127.0.0.1:PORT` (WebSockets at `/page` and `/host`). */
  readonly gatewayUrl: string;
  /** The page's token (the one in `url`); it cannot open `/host`. The host token stays inside. */
  readonly pageToken: string;
  /** The workspace the tools work in (canonical path). */
  readonly workdir: string;
  /** Stops the turns, closes the host, the registry and the gateway, deletes temporary directories. */
  close(): Promise<void>;
}

/**
 * Starts the gateway and the executing host and resolves once the host is
 * connected.
 *
 * @example
 * const web = await startWebExample();
 * console.log(`Open ${web.url}`);
 * await web.close();
 */
export async function startWebExample(options: WebExampleOptions = {}): Promise<WebExample> {
  const pageToken = options.pageToken ?? createGatewayToken();
  const hostToken = options.hostToken ?? createGatewayToken();
  const gateway = await startGateway({ pageToken, hostToken, port: options.port, pageDir: options.pageDir });
  let host: Awaited<ReturnType<typeof startHost>>;
  try {
    host = await startHost({
      gatewayUrl: gateway.url,
      hostToken,
      workdir: options.workdir,
      model: options.model,
      modelName: options.modelName,
      approval: options.approval,
    });
  } catch (error) {
    await gateway.close();
    throw error;
  }
  await host.connected;
  return {
    url: `${gateway.url}/?token=${encodeURIComponent(pageToken)}`,
    gatewayUrl: gateway.url,
    pageToken,
    workdir: host.workdir,
    close: async () => {
      await host.close();
      await gateway.close();
    },
  };
}
