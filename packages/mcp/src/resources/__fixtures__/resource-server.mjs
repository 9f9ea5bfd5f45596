// A stdio MCP server with resources (two pages, a template, text, a large
// text, a PNG, a binary blob, an image whose bytes lie, invalid base64),
// subscriptions and prompts, started by the resource and prompt tests.
// Env: RES_NAME (prefix of its prompt names), RES_SUBSCRIBE=0 (no resources.subscribe),
// RES_RESOURCES=0 (no resources capability).
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

/** A 1x1 PNG. */
export const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const name = process.env.RES_NAME ?? "res";
const withResources = process.env.RES_RESOURCES !== "0";
const withSubscribe = process.env.RES_SUBSCRIBE !== "0";
const BIG = "0123456789abcdef".repeat(20 * 1024); // 320 KiB
let counter = 0;
const subscribed = new Set();

const texts = {
  "mem://notes/readme": { text: "The readme of the fixture.", mimeType: "text/plain" },
  "mem://big": { text: BIG, mimeType: "text/plain" },
  "mem://counter": {
    get text() {
      return `counter=${counter}`;
    },
    mimeType: "text/plain",
  },
};
const blobs = {
  "mem://logo.png": { blob: PNG_BASE64, mimeType: "image/png" },
  "mem://data.bin": { blob: Buffer.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]).toString("base64"), mimeType: "application/octet-stream" },
  "mem://fake.png": { blob: Buffer.from("this is not a png at all").toString("base64"), mimeType: "image/png" },
  "mem://broken.png": { blob: "!!not base64!!", mimeType: "image/png" },
};
const pages = {
  "": {
    resources: [
      { uri: "mem://notes/readme", name: "readme", title: "Readme", mimeType: "text/plain", description: "The fixture's readme" },
      { uri: "mem://big", name: "big", mimeType: "text/plain" },
      { uri: "mem://counter", name: "counter", mimeType: "text/plain" },
    ],
    nextCursor: "page-2",
  },
  "page-2": {
    resources: [
      { uri: "mem://logo.png", name: "logo", mimeType: "image/png" },
      { uri: "mem://data.bin", name: "data", mimeType: "application/octet-stream", size: 10 },
      { uri: "mem://fake.png", name: "fake", mimeType: "image/png" },
      { uri: "mem://broken.png", name: "broken", mimeType: "image/png" },
    ],
  },
};

const capabilities = { tools: {}, prompts: {} };
if (withResources) capabilities.resources = withSubscribe ? { subscribe: true } : {};
const server = new Server({ name: `resource-fixture-${name}`, version: "1.0.0" }, { capabilities });

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: "bump", description: "Increments the counter and notifies subscribers of mem://counter.", inputSchema: { type: "object", properties: {} } }],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name !== "bump") throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}`);
  counter += 1;
  // Sent whether or not anyone subscribed to it: the client must drop it.
  await server.sendResourceUpdated({ uri: "mem://notes/readme" });
  if (subscribed.has("mem://counter")) await server.sendResourceUpdated({ uri: "mem://counter" });
  return { content: [{ type: "text", text: `counter=${counter}; subscribed=${[...subscribed].join(",")}` }] };
});

if (withResources) {
  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    const page = pages[request.params?.cursor ?? ""];
    if (!page) throw new McpError(ErrorCode.InvalidParams, `Unknown cursor ${request.params?.cursor}`);
    return page;
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [{ uriTemplate: "mem://notes/{name}", name: "note", title: "A note by name", mimeType: "text/plain" }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    if (texts[uri]) return { contents: [{ uri, mimeType: texts[uri].mimeType, text: texts[uri].text }] };
    if (blobs[uri]) return { contents: [{ uri, ...blobs[uri] }] };
    const note = uri.match(/^mem:\/\/notes\/(.+)$/);
    if (note) return { contents: [{ uri, mimeType: "text/plain", text: `Note ${note[1]}.` }] };
    throw new McpError(-32002, `Resource not found: ${uri}`);
  });
  if (withSubscribe) {
    server.setRequestHandler(SubscribeRequestSchema, async (request) => {
      subscribed.add(request.params.uri);
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
      subscribed.delete(request.params.uri);
      return {};
    });
  }
}

server.setRequestHandler(ListPromptsRequestSchema, async (request) => {
  const all = [
    {
      name: `${name}_greet`,
      title: "Greeting",
      description: "Greets someone.",
      arguments: [
        { name: "who", description: "Whom to greet", required: true },
        { name: "style", description: "plain or warm" },
      ],
    },
    { name: `${name}_summary`, description: "Summarises the fixture." },
  ];
  // Two pages, one prompt each, so a listing must follow the cursor.
  return request.params?.cursor === "p2" ? { prompts: all.slice(1) } : { prompts: all.slice(0, 1), nextCursor: "p2" };
});
server.setRequestHandler(GetPromptRequestSchema, async (request) => {
  const args = request.params.arguments ?? {};
  if (request.params.name === `${name}_summary`) return { messages: [{ role: "user", content: { type: "text", text: `Summarise ${name}.` } }] };
  if (request.params.name !== `${name}_greet`) throw new McpError(ErrorCode.InvalidParams, `Prompt not found: ${request.params.name}`);
  if (typeof args.who !== "string") throw new McpError(ErrorCode.InvalidParams, "Missing required argument: who");
  return {
    description: `A greeting for ${args.who}`,
    messages: [
      { role: "user", content: { type: "text", text: `Greet ${args.who} in a ${args.style ?? "plain"} way.` } },
      { role: "assistant", content: { type: "image", data: PNG_BASE64, mimeType: "image/png" } },
      { role: "user", content: { type: "resource", resource: { uri: "mem://notes/readme", mimeType: "text/plain", text: "The readme of the fixture." } } },
    ],
  };
});

await server.connect(new StdioServerTransport());
