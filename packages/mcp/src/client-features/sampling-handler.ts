/**
 * `sampling/createMessage`: a server asks the host's model for a completion.
 * The request is mapped to a text-only `ModelRequest`, the host approves it
 * (or the server gets a "refused" error), and the model's text goes back.
 */
import { type ModelMessage, type ModelResponse, isAbortError } from "@agent-tools/core";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CreateMessageRequestSchema, type CreateMessageResult, ErrorCode, McpError, type SamplingMessage } from "@modelcontextprotocol/sdk/types.js";
import type { McpSamplingOptions } from "./client-feature-types.js";

/** The JSON-RPC error code of a request the user refused (the MCP spec's example uses -1). */
export const MCP_USER_REFUSED_CODE = -1;

/** Registers the `sampling/createMessage` handler of one server's client (the capability must be declared). */
export function installSamplingHandler(client: Client, serverId: string, sampling: McpSamplingOptions): void {
  client.setRequestHandler(CreateMessageRequestSchema, async (request, extra): Promise<CreateMessageResult> => {
    const params = request.params;
    if (params.tools !== undefined || params.toolChoice !== undefined)
      throw new McpError(ErrorCode.InvalidParams, "This client does not offer tools in sampling; send the request without tools and toolChoice.");
    const messages: ModelMessage[] = [];
    if (params.systemPrompt !== undefined && params.systemPrompt !== "") messages.push({ role: "system", content: params.systemPrompt });
    params.messages.forEach((message, index) => messages.push({ role: message.role, content: messageText(message, index) }));
    const stopSequences = params.stopSequences?.filter((sequence) => sequence !== "");
    const modelHints = (params.modelPreferences?.hints ?? []).flatMap((hint) => (typeof hint.name === "string" ? [hint.name] : []));
    const signal = extra.signal;
    let approved: boolean;
    try {
      approved = await sampling.approve({
        serverId,
        messages,
        maxTokens: params.maxTokens,
        temperature: params.temperature,
        stopSequences,
        modelHints,
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new McpError(
        ErrorCode.InternalError,
        `The client could not ask the user to approve the sampling request: ${(error as Error)?.message ?? String(error)}`,
      );
    }
    if (approved !== true) throw new McpError(MCP_USER_REFUSED_CODE, `The user refused the sampling request of ${serverId}; do not repeat it unasked.`);
    let response: ModelResponse;
    try {
      response = await sampling.model.generate({ messages, maxOutputTokens: params.maxTokens, temperature: params.temperature, signal });
    } catch (error) {
      if (signal.aborted || isAbortError(error)) throw error;
      throw new McpError(ErrorCode.InternalError, `The host's model ${sampling.model.id} failed: ${(error as Error)?.message ?? String(error)}`);
    }
    return answer(response, sampling.model.id, stopSequences ?? []);
  });
}

/** The text of one message; image, audio and tool content are refused because a ModelClient takes text only. */
function messageText(message: SamplingMessage, index: number): string {
  const blocks = Array.isArray(message.content) ? message.content : [message.content];
  const texts: string[] = [];
  for (const block of blocks) {
    if (block.type !== "text")
      throw new McpError(
        ErrorCode.InvalidParams,
        `Sampling message ${index + 1} has ${block.type} content; this client's model takes text only. Send the request as text.`,
      );
    texts.push(block.text);
  }
  return texts.join("\n\n");
}

/**
 * The result sent back. A ModelClient has no stop sequences, so the text is
 * cut at the first one the model produced (`stopReason: "stopSequence"`).
 */
function answer(response: ModelResponse, model: string, stopSequences: readonly string[]): CreateMessageResult {
  let text = response.text;
  let cut = -1;
  for (const sequence of stopSequences) {
    const at = text.indexOf(sequence);
    if (at !== -1 && (cut === -1 || at < cut)) cut = at;
  }
  if (cut !== -1) text = text.slice(0, cut);
  const stopReason =
    cut !== -1 ? "stopSequence" : response.finishReason === "length" ? "maxTokens" : response.finishReason === "stop" ? "endTurn" : response.finishReason;
  return { role: "assistant", content: { type: "text", text }, model, stopReason };
}
