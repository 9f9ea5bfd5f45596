import http from "node:http";
import type { AddressInfo } from "node:net";

/** A request the test server received. */
export interface ChatCompletionsTestRequest {
  /** The request path, e.g. `/v1/chat/completions`. */
  path: string;
  /** Lower-cased request headers. */
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (`model`, `messages`, `tools`, `stream`, ...). */
  body: Record<string, unknown>;
}

/** A scripted reply of the test server. */
export type ChatCompletionsTestReply =
  | {
      /** An assistant answer, sent as one JSON object or as SSE chunks depending on the request's `stream`. */
      text?: string;
      toolCalls?: { id?: string; name: string; arguments: string }[];
      /** Default `tool_calls` when there are tool calls, else `stop`. */
      finishReason?: string;
      usage?: { prompt_tokens: number; completion_tokens: number };
      /** Characters per streamed text or argument fragment; default 3. */
      chunkSize?: number;
    }
  | { status: number; body: string; contentType?: string }
  | { events: string[] }
  | { hang: true };

/** Options of {@link createChatCompletionsTestServer}. */
export interface ChatCompletionsTestServerOptions {
  /** Answers each request; called in arrival order. */
  respond(request: ChatCompletionsTestRequest, index: number): ChatCompletionsTestReply | Promise<ChatCompletionsTestReply>;
}

/** A running test server. */
export interface ChatCompletionsTestServer {
  /** `http://127.0.0.1:<port>/v1`: pass it as `baseURL`. */
  readonly baseURL: string;
  /** Every request received, in order. */
  readonly requests: ChatCompletionsTestRequest[];
  /** Resolves when a client closed a connection before its reply ended (e.g. on abort). */
  nextDisconnect(): Promise<void>;
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

function split(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}

function streamChunks(reply: Extract<ChatCompletionsTestReply, { text?: string }>, model: string): unknown[] {
  const size = Math.max(1, reply.chunkSize ?? 3);
  const base = { id: "chatcmpl-test", object: "chat.completion.chunk", created: 0, model };
  const chunks: unknown[] = [{ ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] }];
  for (const piece of split(reply.text ?? "", size)) chunks.push({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
  (reply.toolCalls ?? []).forEach((call, index) => {
    const fragments = split(call.arguments, size);
    chunks.push({
      ...base,
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index, id: call.id ?? `call_${index}`, type: "function", function: { name: call.name, arguments: "" } }] },
          finish_reason: null,
        },
      ],
    });
    for (const fragment of fragments) {
      chunks.push({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: fragment } }] }, finish_reason: null }] });
    }
  });
  const finish = reply.finishReason ?? ((reply.toolCalls ?? []).length > 0 ? "tool_calls" : "stop");
  chunks.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] });
  if (reply.usage) chunks.push({ ...base, choices: [], usage: { ...reply.usage, total_tokens: reply.usage.prompt_tokens + reply.usage.completion_tokens } });
  return chunks;
}

function wholeCompletion(reply: Extract<ChatCompletionsTestReply, { text?: string }>, model: string): unknown {
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${index}`,
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 0,
    model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: reply.text ?? (toolCalls.length > 0 ? null : ""), ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
        finish_reason: reply.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
      },
    ],
    ...(reply.usage ? { usage: { ...reply.usage, total_tokens: reply.usage.prompt_tokens + reply.usage.completion_tokens } } : {}),
  };
}

/**
 * Starts a real local HTTP server that speaks the OpenAI chat-completions
 * protocol (JSON and SSE streaming, tool calls with argument deltas) and
 * answers from a script: for testing `OpenAICompatibleModelClient` and hosts
 * offline. Listens on 127.0.0.1 on a free port.
 *
 * @example
 * const server = await createChatCompletionsTestServer({ respond: () => ({ text: "Hello" }) });
 * const model = new OpenAICompatibleModelClient({ baseURL: server.baseURL, model: "test" });
 * await model.generate({ messages: [{ role: "user", content: "Hi" }] });
 * await server.close();
 */
export async function createChatCompletionsTestServer(options: ChatCompletionsTestServerOptions): Promise<ChatCompletionsTestServer> {
  const requests: ChatCompletionsTestRequest[] = [];
  const disconnectWaiters: (() => void)[] = [];
  let pendingDisconnects = 0;
  const noteDisconnect = () => {
    const waiter = disconnectWaiters.shift();
    if (waiter) waiter();
    else pendingDisconnects += 1;
  };
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (chunk: Buffer) => parts.push(chunk));
    req.on("end", () => {
      void (async () => {
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(Buffer.concat(parts).toString("utf8")) as Record<string, unknown>;
        } catch {
          res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "The request body is not JSON." } }));
          return;
        }
        const request: ChatCompletionsTestRequest = { path: req.url ?? "", headers: req.headers, body };
        const index = requests.length;
        requests.push(request);
        let finished = false;
        res.on("close", () => {
          if (!finished) noteDisconnect();
        });
        let reply: ChatCompletionsTestReply;
        try {
          reply = await options.respond(request, index);
        } catch (error) {
          reply = { status: 500, body: JSON.stringify({ error: { message: `The test script threw: ${(error as Error).message}` } }) };
        }
        const model = typeof body.model === "string" ? body.model : "test";
        if ("hang" in reply) {
          res.writeHead(200, { "content-type": body.stream ? "text/event-stream" : "application/json" });
          res.flushHeaders();
          if (body.stream) res.write(`data: ${JSON.stringify(streamChunks({ text: "" }, model)[0])}\n\n`);
          return;
        }
        if ("status" in reply) {
          finished = true;
          res.writeHead(reply.status, { "content-type": reply.contentType ?? "application/json" }).end(reply.body);
          return;
        }
        if ("events" in reply) {
          finished = true;
          res.writeHead(200, { "content-type": "text/event-stream" });
          res.end(reply.events.map((data) => `data: ${data}\n\n`).join(""));
          return;
        }
        finished = true;
        if (body.stream === true) {
          res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
          for (const chunk of streamChunks(reply, model)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
          res.end("data: [DONE]\n\n");
        } else {
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(wholeCompletion(reply, model)));
        }
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    nextDisconnect: () => {
      if (pendingDisconnects > 0) {
        pendingDisconnects -= 1;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => disconnectWaiters.push(resolve));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
