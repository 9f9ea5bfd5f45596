/**
 * Prompts of the enabled MCP servers for the host (`McpHostBundles.prompts`
 * and `getPrompt`): listed across servers, filled in with string arguments
 * checked against the server's own list first (an unknown prompt or
 * argument fails `not_found` / `invalid_arguments` naming the closest, a
 * missing required one names it), messages mapped to `ToolContent`.
 */
import { type Logger, type ToolContent, ToolError } from "@agent-tools/core";
import { closestName } from "@agent-tools/core/internal";
import type { McpPromptInfo, McpPromptResult } from "@agent-tools/core/mcp";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { mapMcpContentBlock } from "../content-mapping.js";
import { type McpServerAccess, connectServer, enabledServer, requestFailure, serverFeatures, useServer } from "../resources/resource-access.js";
import { RESOURCE_IMAGE_CAP_BYTES, RESOURCE_TEXT_CAP_BYTES, capText, checkImage } from "../resources/resource-content.js";
import type { McpServerConfig } from "../settings.js";
import { selectEnabledMcpServers } from "../settings.js";

/** Pages of `prompts/list` followed at most per server. */
const MAX_PROMPT_PAGES = 20;

/** The host's view of MCP prompts. */
export interface McpPromptAccess {
  /** The prompts of every enabled server that offers prompts (starting those not started); a failing server is logged and left out. */
  prompts(): Promise<McpPromptInfo[]>;
  /** Fills in `name` on `serverId` with string `args`. */
  getPrompt(serverId: string, name: string, args?: Record<string, string>): Promise<McpPromptResult>;
}

type ListedPrompt = Awaited<ReturnType<Client["listPrompts"]>>["prompts"][number];

async function listAll(client: Client, server: McpServerConfig): Promise<ListedPrompt[]> {
  const out: ListedPrompt[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PROMPT_PAGES; page += 1) {
    const answer = await client.listPrompts(cursor === undefined ? {} : { cursor }, { timeout: server.timeoutMs }).catch((error: unknown) => {
      throw requestFailure(server.id, "prompts/list", error);
    });
    out.push(...answer.prompts);
    cursor = answer.nextCursor;
    if (cursor === undefined) break;
  }
  return out;
}

function infoOf(serverId: string, prompt: ListedPrompt): McpPromptInfo {
  return {
    serverId,
    name: prompt.name,
    ...(prompt.title === undefined ? {} : { title: prompt.title }),
    ...(prompt.description === undefined ? {} : { description: prompt.description }),
    ...(prompt.arguments === undefined
      ? {}
      : {
          arguments: prompt.arguments.map((argument) => ({
            name: argument.name,
            ...(argument.description === undefined ? {} : { description: argument.description }),
            ...(argument.required === undefined ? {} : { required: argument.required }),
          })),
        }),
  };
}

/** One prompt message's content: text as text, a checked image as an image, the rest (embedded resources with their URI) as text. */
export function mapPromptContent(block: CallToolResult["content"][number]): ToolContent {
  if (block.type !== "image") return mapMcpContentBlock(block);
  const checked = checkImage(block.data, block.mimeType);
  return "image" in checked ? checked.image : { type: "text", text: `[image ${block.mimeType}, ${checked.bytes} bytes; not shown: ${checked.note}]` };
}

/** The most messages of one prompt handed to the host; the rest are left out with one note. */
export const PROMPT_MESSAGE_CAP = 200;

/** Bytes of the text budget kept for the notes (a truncation note and the left-out note). */
const PROMPT_NOTE_RESERVE_BYTES = 512;

/**
 * The messages of one prompt within the resource tools' caps: 256 KiB of
 * text over all messages, notes included (the message that reaches it is
 * cut with a note), images under 5 MiB together (the rest described, the
 * description counted as text), at most {@link PROMPT_MESSAGE_CAP}
 * messages. Once the text budget is spent or the count reached, the
 * remaining messages are dropped and ONE note says how many: a server
 * cannot fill the conversation, neither with big messages nor with many.
 */
export function capPromptMessages(messages: McpPromptResult["messages"]): McpPromptResult["messages"] {
  const textCap = RESOURCE_TEXT_CAP_BYTES - PROMPT_NOTE_RESERVE_BYTES;
  let textBudget = textCap;
  let imageBudget = RESOURCE_IMAGE_CAP_BYTES;
  const out: McpPromptResult["messages"] = [];
  let next = 0;
  while (next < messages.length && out.length < PROMPT_MESSAGE_CAP && textBudget > 0) {
    const message = messages[next]!;
    next += 1;
    const content = message.content;
    if (content.type === "image") {
      const bytes = Math.floor((content.data.length * 3) / 4);
      if (bytes < imageBudget) {
        imageBudget -= bytes;
        out.push(message);
        continue;
      }
      const text = `[image ${content.mimeType}, ${bytes} bytes; not shown: the images of this prompt reached 5 MiB together]`;
      textBudget -= Buffer.byteLength(text, "utf8");
      out.push({ role: message.role, content: { type: "text", text } });
      continue;
    }
    const capped = capText(content.text, Math.max(0, textBudget), "a prompt carries at most 256 KiB of text");
    textBudget -= capped.usedBytes;
    if (!capped.truncated) {
      out.push(message);
      continue;
    }
    out.push({ role: message.role, content: { type: "text", text: capped.text } });
    break;
  }
  const left = messages.length - next;
  if (left > 0) {
    const why = out.length >= PROMPT_MESSAGE_CAP ? `a prompt carries at most ${PROMPT_MESSAGE_CAP} messages` : "a prompt carries at most 256 KiB of text";
    out.push({ role: "user", content: { type: "text", text: `[${left} more message${left === 1 ? "" : "s"} of this prompt left out; ${why}]` } });
  }
  return out;
}

function checkArguments(serverId: string, prompt: ListedPrompt, args: unknown): Record<string, string> {
  if (args === undefined) args = {};
  if (args === null || typeof args !== "object" || Array.isArray(args))
    throw new ToolError("invalid_arguments", "Prompt arguments must be an object of strings.");
  const given = args as Record<string, unknown>;
  const declared = prompt.arguments ?? [];
  for (const [key, value] of Object.entries(given)) {
    if (typeof value !== "string")
      throw new ToolError("invalid_arguments", `Prompt argument ${key} must be a string, not ${value === null ? "null" : typeof value}.`);
    if (!declared.some((argument) => argument.name === key)) {
      const closest = closestName(
        key,
        declared.map((argument) => argument.name),
      );
      throw new ToolError(
        "invalid_arguments",
        `Prompt ${prompt.name} of ${serverId} has no argument ${key}.${closest === undefined ? "" : ` Did you mean ${closest}?`} Its arguments: ${declared.map((argument) => argument.name).join(", ") || "(none)"}.`,
        { details: { serverId, prompt: prompt.name, argument: key, ...(closest === undefined ? {} : { suggestion: closest }) } },
      );
    }
  }
  const missing = declared.filter((argument) => argument.required === true && given[argument.name] === undefined).map((argument) => argument.name);
  if (missing.length > 0)
    throw new ToolError("invalid_arguments", `Prompt ${prompt.name} of ${serverId} needs the argument${missing.length > 1 ? "s" : ""} ${missing.join(", ")}.`, {
      details: { serverId, prompt: prompt.name, missing },
    });
  return given as Record<string, string>;
}

/**
 * The prompt functions of one set of MCP bundles.
 *
 * @example
 * const access = createMcpPromptAccess({ getSettings, runtime });
 * const prompts = await access.prompts();
 * const filled = await access.getPrompt("docs", "summarise", { topic: "releases" });
 */
export function createMcpPromptAccess(access: McpServerAccess, logger?: Logger): McpPromptAccess {
  async function promptClient(server: McpServerConfig): Promise<Client> {
    const client = await connectServer(access, server);
    if (!client.getServerCapabilities()?.prompts)
      throw new ToolError("not_found", `MCP server ${server.id} offers no prompts.`, { details: { serverId: server.id } });
    return client;
  }
  return {
    async prompts() {
      const servers = selectEnabledMcpServers(access.getSettings()).filter((server) => serverFeatures(access, server.id)?.prompts !== false);
      const settled = await Promise.allSettled(
        servers.map((server) =>
          useServer(access, server.id, async () => (await listAll(await promptClient(server), server)).map((prompt) => infoOf(server.id, prompt))),
        ),
      );
      const out: McpPromptInfo[] = [];
      settled.forEach((result, index) => {
        if (result.status === "fulfilled") out.push(...result.value);
        else if (!(result.reason instanceof ToolError && result.reason.code === "not_found"))
          logger?.warn(`MCP prompts of ${servers[index]!.id} could not be listed: ${(result.reason as Error)?.message ?? String(result.reason)}`);
      });
      return out;
    },
    async getPrompt(serverId, name, args) {
      const server = enabledServer(access, serverId);
      return useServer(access, server.id, async () => {
        const client = await promptClient(server);
        const listed = await listAll(client, server);
        const prompt = listed.find((candidate) => candidate.name === name);
        if (!prompt) {
          const closest = closestName(
            String(name),
            listed.map((candidate) => candidate.name),
          );
          throw new ToolError(
            "not_found",
            `MCP server ${server.id} has no prompt ${String(name)}.${closest === undefined ? "" : ` Did you mean ${closest}?`}`,
            {
              details: { serverId: server.id, prompt: String(name), ...(closest === undefined ? {} : { suggestion: closest }) },
            },
          );
        }
        const checked = checkArguments(server.id, prompt, args);
        const answer = await client.getPrompt({ name, arguments: checked }, { timeout: server.timeoutMs }).catch((error: unknown) => {
          throw requestFailure(server.id, `Prompt ${name}`, error);
        });
        return {
          ...(answer.description === undefined ? {} : { description: capText(answer.description, 4096, "a prompt's description is cut at 4 KiB").text }),
          messages: capPromptMessages(
            answer.messages.map((message) => ({ role: message.role, content: mapPromptContent(message.content as CallToolResult["content"][number]) })),
          ),
        };
      });
    },
  };
}
