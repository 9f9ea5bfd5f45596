/**
 * A small HTTP server that speaks the OpenAI chat-completions protocol with
 * tools, streamed (SSE) and not, for the CLI's tests. Written independently of
 * the core adapter's own test server, so the two cross-check each other.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

/** One scripted assistant reply. */
export interface FakeReply {
  content?: string;
  toolCalls?: Array<{ id: string; name: string; arguments: string }>;
}

/** A request as the server received it. */
export interface FakeRequest {
  authorization?: string;
  body: {
    model: string;
    stream?: boolean;
    messages: Array<{
      role: string;
      content?: string | null;
      tool_call_id?: string;
      tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
    }>;
    tools?: Array<{ type: string; function: { name: string; description: string; parameters: unknown } }>;
  };
}

/** A running fake server. */
export interface FakeChatCompletionsServer {
  /** e.g. `http://127.0.0.1:43123/v1` */
  baseUrl: string;
  requests: FakeRequest[];
  close(): Promise<void>;
}

/** Starts a server on a free port that answers request N with `respond(request, N)`. */
export async function startFakeChatCompletionsServer(respond: (request: FakeRequest, index: number) => FakeReply): Promise<FakeChatCompletionsServer> {
  const requests: FakeRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      const request: FakeRequest = { authorization: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) };
      requests.push(request);
      let reply: FakeReply;
      try {
        reply = respond(request, requests.length - 1);
      } catch (error) {
        res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: String(error) } }));
        return;
      }
      const finishReason = reply.toolCalls?.length ? "tool_calls" : "stop";
      if (request.body.stream) {
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        const send = (delta: unknown, finish: string | null = null) =>
          res.write(
            `data: ${JSON.stringify({ id: "chatcmpl-fake", object: "chat.completion.chunk", model: request.body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
          );
        send({ role: "assistant" });
        for (const piece of pieces(reply.content ?? "", 5)) send({ content: piece });
        (reply.toolCalls ?? []).forEach((call, index) => {
          send({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] });
          for (const piece of pieces(call.arguments, 4)) send({ tool_calls: [{ index, function: { arguments: piece } }] });
        });
        send({}, finishReason);
        res.end("data: [DONE]\n\n");
        return;
      }
      const message = {
        role: "assistant",
        content: reply.content ?? null,
        ...(reply.toolCalls?.length
          ? { tool_calls: reply.toolCalls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } })) }
          : {}),
      };
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: "chatcmpl-fake",
          object: "chat.completion",
          model: request.body.model,
          choices: [{ index: 0, message, finish_reason: finishReason }],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let start = 0; start < text.length; start += size) out.push(text.slice(start, start + size));
  return out;
}
