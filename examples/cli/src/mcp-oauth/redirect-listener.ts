/**
 * MCP OAuth sign-in for the CLI: the authorization URL is printed (nothing
 * is opened), and a one-shot HTTP listener on 127.0.0.1 receives the
 * browser's redirect, answers a short page and hands the callback URL to
 * the MCP client.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { raceWithAbort } from "@agent-tools/core";
import type { BuiltinToolRegistryOptions } from "@agent-tools/sdk";

type OAuthOptions = NonNullable<NonNullable<BuiltinToolRegistryOptions["mcp"]>["oauth"]>;
/** The host's sign-in callback, as the SDK types it. */
export type AuthorizationCallback = NonNullable<OAuthOptions["onAuthorization"]>;

/** How long the listener waits for the browser by default: 5 minutes. */
export const DEFAULT_REDIRECT_TIMEOUT_MS = 5 * 60_000;

/** Options of {@link createTerminalOAuthAuthorization}. */
export interface TerminalOAuthOptions {
  /** Where the sign-in URL is printed (stderr in `--json` mode). */
  output: NodeJS.WritableStream;
  /** Used when the authorization URL names no `redirect_uri`; its port is the listener's (0: any free port). */
  redirectUrl?: string;
  /** Default {@link DEFAULT_REDIRECT_TIMEOUT_MS}. */
  timeoutMs?: number;
}

/** A listener waiting for one redirect. */
export interface RedirectListener {
  /** The callback URL the listener answers, with its real port. */
  readonly url: string;
  /** Resolves with the full callback URL of the first request to the callback path. */
  readonly redirect: Promise<string>;
  close(): Promise<void>;
}

const PAGE = (title: string, text: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body></html>`;

/**
 * Listens on the host and port of `redirectUrl` (loopback only; port 0: any
 * free port) until one request reaches its path; other paths get 404.
 */
export async function startRedirectListener(redirectUrl: string): Promise<RedirectListener> {
  const target = new URL(redirectUrl);
  if (target.protocol !== "http:" || !["127.0.0.1", "localhost", "[::1]"].includes(target.hostname))
    throw new Error(`The OAuth redirect URL ${redirectUrl} is not a loopback http URL; the CLI can only receive redirects on this machine.`);
  let resolveRedirect!: (url: string) => void;
  const redirect = new Promise<string>((resolve) => {
    resolveRedirect = resolve;
  });
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", `http://${request.headers.host ?? target.host}`);
    if (url.pathname !== target.pathname) {
      response.writeHead(404, { "content-type": "text/plain" }).end("Not found\n");
      return;
    }
    const failed = url.searchParams.get("error");
    response
      .writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
      .end(
        failed
          ? PAGE("Sign-in failed", "The authorization server refused the sign-in; see the terminal.")
          : PAGE("Signed in", "You can close this tab and go back to the terminal."),
      );
    resolveRedirect(url.href);
  });
  const host = target.hostname === "[::1]" ? "::1" : "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE"
          ? new Error(`Port ${target.port} of the OAuth redirect URL ${redirectUrl} is in use; free it or configure another redirect URL.`)
          : error,
      ),
    );
    server.listen(Number(target.port || 80), host, resolve);
  });
  const url = new URL(target.href);
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.href,
    redirect,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The CLI's `mcp.oauth.onAuthorization`: prints the sign-in URL, listens on
 * the port of the authorization request's `redirect_uri` and returns the
 * redirect, or fails after the timeout or when the signal aborts.
 *
 * @example
 * mcp: { getSettings, oauth: { onAuthorization: createTerminalOAuthAuthorization({ output: process.stdout }) } }
 */
export function createTerminalOAuthAuthorization(options: TerminalOAuthOptions): AuthorizationCallback {
  return async ({ serverId, authorizationUrl, signal }) => {
    const redirectUrl = new URL(authorizationUrl).searchParams.get("redirect_uri") ?? options.redirectUrl;
    if (!redirectUrl) throw new Error(`The sign-in URL of MCP server ${serverId} names no redirect_uri and no redirect URL is configured.`);
    const listener = await startRedirectListener(redirectUrl);
    const timeoutMs = options.timeoutMs ?? DEFAULT_REDIRECT_TIMEOUT_MS;
    try {
      options.output.write(
        `MCP server ${serverId} asks you to sign in. Open this URL in a browser:\n  ${authorizationUrl}\nWaiting for the redirect to ${listener.url} ...\n`,
      );
      const stop = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
      const callbackUrl = await raceWithAbort(listener.redirect, stop, () =>
        signal.aborted
          ? new Error(`The sign-in for MCP server ${serverId} was cancelled.`)
          : new Error(`No sign-in redirect for MCP server ${serverId} within ${Math.round(timeoutMs / 1000)} s; ask again to retry.`),
      );
      options.output.write(`Sign-in redirect for MCP server ${serverId} received.\n`);
      return { callbackUrl };
    } finally {
      await listener.close();
    }
  };
}
