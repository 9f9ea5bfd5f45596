/**
 * `elicitation/create` (form mode): the requested schema is checked against
 * the spec's subset, the host's `onElicitation` asks the user, defaults fill
 * the fields the answer left out, and the answer is checked against the
 * schema before it goes back to the server.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type ElicitRequest, type ElicitRequestURLParams, type ElicitResult, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { McpElicitationRequest, McpElicitationResult, McpElicitationSchema } from "./client-feature-types.js";
import { applyElicitationDefaults, checkElicitationContent, checkElicitationSchema } from "./elicitation-schema.js";

/** The host's callback that asks the user. */
export type McpElicitationCallback = (request: McpElicitationRequest) => Promise<McpElicitationResult>;

/**
 * The method only: the client checks the params against the SDK's schema
 * itself (a failure is InvalidParams), while the SDK's own schema here would
 * fail the parse as InternalError and strip unknown keys.
 */
const ElicitationMethodSchema = z.object({ method: z.literal("elicitation/create"), params: z.record(z.string(), z.unknown()) });

/** Answers a URL-mode request (see url-elicitation-handler.ts). */
export type McpUrlElicitationAnswer = (params: ElicitRequestURLParams, signal: AbortSignal) => Promise<ElicitResult>;

/**
 * Registers the `elicitation/create` handler of one server's client (the
 * capability of each mode given must be declared; the SDK refuses a mode
 * that was not).
 */
export function installElicitationHandler(
  client: Client,
  serverId: string,
  onElicitation: McpElicitationCallback | undefined,
  onUrlElicitation?: McpUrlElicitationAnswer,
): void {
  client.setRequestHandler(ElicitationMethodSchema, async (request, extra) => {
    // The client has validated the params against ElicitRequestSchema before this runs.
    const params = request.params as ElicitRequest["params"];
    if (params.mode === "url") {
      if (onUrlElicitation === undefined)
        throw new McpError(ErrorCode.InvalidParams, "This client answers form-mode elicitation only; send a form (requestedSchema).");
      return onUrlElicitation(params, extra.signal);
    }
    if (onElicitation === undefined) throw new McpError(ErrorCode.InvalidParams, "This client answers URL-mode elicitation only.");
    const problems = checkElicitationSchema(params.requestedSchema);
    if (problems.length > 0) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `The elicitation form is outside the MCP spec's subset (a flat object of string, number, integer, boolean and enum fields): ${problems.join(" ")}`,
      );
    }
    const requestedSchema = params.requestedSchema as McpElicitationSchema;
    let answer: McpElicitationResult;
    try {
      answer = await onElicitation({ serverId, message: params.message, requestedSchema, signal: extra.signal });
    } catch (error) {
      if (extra.signal.aborted) throw error;
      throw new McpError(ErrorCode.InternalError, `The client could not ask the user: ${(error as Error)?.message ?? String(error)}`);
    }
    return toElicitResult(answer, requestedSchema);
  });
}

function toElicitResult(answer: McpElicitationResult, schema: McpElicitationSchema): ElicitResult {
  const action = (answer as { action?: unknown } | undefined)?.action;
  if (action === "decline" || action === "cancel") return { action };
  if (action !== "accept")
    throw new McpError(ErrorCode.InternalError, `The client's answer has action ${JSON.stringify(action)}; expected accept, decline or cancel.`);
  const content = applyElicitationDefaults(schema, (answer as { content?: Record<string, unknown> }).content ?? {});
  const problems = checkElicitationContent(schema, content);
  if (problems.length > 0) throw new McpError(ErrorCode.InternalError, `The user's answer does not match the requested form: ${problems.join(" ")} Ask again.`);
  return { action: "accept", content: content as ElicitResult["content"] };
}
