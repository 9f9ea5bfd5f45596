/**
 * A tool call the server refused with `UrlElicitationRequiredError`
 * (-32042): each listed elicitation goes to the host's `onUrlElicitation`
 * in turn; when every one was accepted the call waits for the server's
 * completion notices (at most {@link URL_ELICITATION_COMPLETION_WAIT_MS} or
 * the server's timeout, whichever is shorter) and is retried once.
 * Otherwise (no callback, a decline or cancel, more than
 * {@link URL_ELICITATION_MAX_PER_REFUSAL} elicitations, a second -32042) the
 * call fails with the server's message. Runs outside the per-server call queue:
 * the user may take a while.
 */
import { ToolError } from "@agent-tools/core";
import { ElicitRequestURLParamsSchema, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { McpUrlElicitationParams, UrlElicitationBroker } from "./url-elicitation.js";

/** The longest a retry waits for `notifications/elicitation/complete` after the host accepted. */
export const URL_ELICITATION_COMPLETION_WAIT_MS = 30_000;

/** The most URL elicitations one -32042 may list; with more the call fails without asking the user. */
export const URL_ELICITATION_MAX_PER_REFUSAL = 3;

/** True for a `tools/call` refused with -32042 (URL elicitation required). */
export function isUrlElicitationRequired(error: unknown): error is McpError {
  return error instanceof McpError && error.code === ErrorCode.UrlElicitationRequired;
}

/** Options of {@link retryAfterUrlElicitation}. */
export interface UrlElicitationRetryOptions {
  serverId: string;
  /** Absent when the host gave no `onUrlElicitation`. */
  broker: UrlElicitationBroker | undefined;
  /**
   * The call's signal joined with the connection's lifetime, passed to the
   * host; a function so the joined signal is built only after a -32042, not
   * on every call.
   */
  signal: () => AbortSignal;
  timeoutMs?: number;
}

/** Runs `call`; after a -32042 asks the host and retries once (see the module comment). */
export async function retryAfterUrlElicitation<T>(call: () => Promise<T>, options: UrlElicitationRetryOptions): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!isUrlElicitationRequired(error)) throw error;
    const signal = options.signal();
    if (signal.aborted) throw error;
    const { broker, serverId } = options;
    const elicitations = listedElicitations(error);
    if (broker === undefined) throw refused(serverId, error, "this host takes no URL elicitations");
    if (elicitations.length === 0) throw refused(serverId, error, "the server listed no valid URL elicitation");
    if (elicitations.length > URL_ELICITATION_MAX_PER_REFUSAL)
      throw refused(
        serverId,
        error,
        `the server asked for too many URLs: ${elicitations.length}, at most ${URL_ELICITATION_MAX_PER_REFUSAL} per refusal; none was shown to the user`,
      );
    for (const elicitation of elicitations) {
      let action: string;
      try {
        action = await broker.ask(serverId, elicitation, signal);
      } catch (failure) {
        if (signal.aborted) throw failure;
        throw refused(serverId, error, `asking the user failed: ${(failure as Error)?.message ?? String(failure)}`);
      }
      if (action !== "accept") throw refused(serverId, error, `the user answered ${action}`);
    }
    const wait = Math.min(options.timeoutMs ?? URL_ELICITATION_COMPLETION_WAIT_MS, URL_ELICITATION_COMPLETION_WAIT_MS);
    await Promise.all(elicitations.map((elicitation) => broker.waitForCompletion(serverId, elicitation.elicitationId, signal, wait)));
    try {
      return await call();
    } catch (again) {
      if (isUrlElicitationRequired(again)) throw refused(serverId, again, "it still asks after the user accepted; the call is not retried again");
      throw again;
    }
  }
}

/** The well-formed URL elicitations of a -32042 error (others are left out). */
function listedElicitations(error: McpError): McpUrlElicitationParams[] {
  const listed = (error.data as { elicitations?: unknown } | undefined)?.elicitations;
  if (!Array.isArray(listed)) return [];
  const out: McpUrlElicitationParams[] = [];
  for (const entry of listed) {
    const parsed = ElicitRequestURLParamsSchema.safeParse(entry);
    if (parsed.success) out.push({ elicitationId: parsed.data.elicitationId, url: parsed.data.url, message: parsed.data.message });
  }
  return out;
}

function refused(serverId: string, error: McpError, reason: string): ToolError {
  return new ToolError("unavailable", `MCP server ${serverId} requires the user to open a URL first (${reason}): ${error.message}`, {
    details: { serverId, mcpErrorCode: ErrorCode.UrlElicitationRequired },
  });
}
