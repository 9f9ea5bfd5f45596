/**
 * The client side of URL-mode elicitation on one server's client:
 * `elicitation/create` requests with `mode: "url"` go to the host through
 * the broker (see url-elicitation.ts), and `notifications/elicitation/complete`
 * is recorded there.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type ElicitRequestURLParams, type ElicitResult, ElicitationCompleteNotificationSchema, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { UrlElicitationBroker } from "./url-elicitation.js";

/** Answers one URL-mode `elicitation/create` (the form-mode handler hands these over). */
export async function answerUrlElicitation(
  broker: UrlElicitationBroker,
  serverId: string,
  params: ElicitRequestURLParams,
  signal: AbortSignal,
): Promise<ElicitResult> {
  try {
    return { action: await broker.ask(serverId, { elicitationId: params.elicitationId, url: params.url, message: params.message }, signal) };
  } catch (error) {
    if (signal.aborted) throw error;
    throw new McpError(ErrorCode.InternalError, `The client could not ask the user: ${(error as Error)?.message ?? String(error)}`);
  }
}

/** Registers the `notifications/elicitation/complete` handler of one server's client. */
export function installUrlElicitationCompletion(client: Client, serverId: string, broker: UrlElicitationBroker): void {
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
    broker.complete(serverId, notification.params.elicitationId);
  });
}
