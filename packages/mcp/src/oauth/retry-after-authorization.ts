import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { McpAuthProviderSource, McpAuthTransport } from "../client-host-options.js";
import type { McpServerConfig } from "../settings.js";

/** Authorization rounds per operation: a first sign-in plus one step-up to more scopes. */
export const MAX_AUTHORIZATION_ROUNDS = 2;

/** What {@link retryAfterAuthorization} needs. */
export interface AuthorizationRetryOptions {
  source: McpAuthProviderSource | undefined;
  config: McpServerConfig;
  /** The transport of the failed attempt (its `finishAuth` exchanges the code). */
  transport(): McpAuthTransport | undefined;
  /** Aborts a sign-in the host is still waiting for; asked only after a failure, so a call that succeeds builds no signal. */
  signal(): AbortSignal;
  /** Drops the connection, so the next attempt starts on a new transport (needed after a refused step-up). */
  reset?(): Promise<void>;
}

/** The SDK's error when a server still answers 403 insufficient_scope after its own step-up attempt (a refresh, which keeps the old scopes). */
function isRefusedStepUp(error: unknown): boolean {
  return error instanceof StreamableHTTPError && error.code === 403 && /after trying upscoping/.test(error.message);
}

/**
 * Runs `operation`; when it fails with the SDK's `UnauthorizedError` (the
 * provider was sent to an authorization URL), lets the source run the
 * host's interactive step and exchange the code, then runs `operation`
 * again, at most {@link MAX_AUTHORIZATION_ROUNDS} times. A step-up the SDK
 * answered with a refresh (still 403 insufficient_scope) makes the source
 * skip the refresh next time, and runs again on a new connection, so the
 * user is asked for the wider scopes. Any other failure,
 * or one with no pending authorization, is rethrown unchanged.
 */
export async function retryAfterAuthorization<T>(operation: () => Promise<T>, options: AuthorizationRetryOptions): Promise<T> {
  for (let round = 0; ; round += 1) {
    try {
      return await operation();
    } catch (error) {
      const signal = options.signal();
      if (isRefusedStepUp(error) && options.reset !== undefined && round < MAX_AUTHORIZATION_ROUNDS && !signal.aborted) {
        if (!(await options.source?.prepareStepUp?.(options.config))) throw error;
        await options.reset();
        continue;
      }
      const complete = options.source?.completeAuthorization;
      if (!(error instanceof UnauthorizedError) || complete === undefined || round >= MAX_AUTHORIZATION_ROUNDS || signal.aborted) throw error;
      const authorized = await complete.call(options.source, options.config, options.transport(), signal);
      if (!authorized) throw error;
    }
  }
}
