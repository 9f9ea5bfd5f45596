import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect } from "vitest";

/** A request the fake embeddings server received. */
export interface EmbeddingsTestRequest {
  path: string;
  /** Lower-cased request headers. */
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body (`model`, `input`, `encoding_format`, `dimensions`). */
  body: { model?: unknown; input?: unknown; encoding_format?: unknown; dimensions?: unknown };
}

/** What the server answers: computed vectors, a raw body, or nothing until the client goes away. */
export type EmbeddingsTestReply =
  | { vectors: "auto"; dimension: number; shuffle?: boolean }
  | { status?: number; json: unknown; declareLength?: boolean }
  | { status: number; text: string; contentType?: string }
  | { hang: true }
  | { hangAfterHead: true };

/** A deterministic vector of `text`: component i is a function of the text's characters and i. */
export function fakeVector(text: string, dimension: number): number[] {
  const vector: number[] = [];
  for (let index = 0; index < dimension; index += 1) {
    let value = index + 1;
    for (let position = 0; position < text.length; position += 1) value = (value * 31 + text.charCodeAt(position) * (index + 7)) % 10_007;
    vector.push(value / 10_007 - 0.5);
  }
  return vector;
}

/** Base64 of little-endian float32, as OpenAI's `encoding_format: "base64"` sends it. */
export function toBase64Float32(vector: readonly number[]): string {
  const buffer = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => buffer.writeFloatLE(value, index * 4));
  return buffer.toString("base64");
}

/** The body of an `/embeddings` answer for `input`, in the request's encoding, optionally with the items reversed. */
export function embeddingsAnswer(input: readonly string[], dimension: number, encoding: unknown, shuffle = false): unknown {
  const data = input.map((text, index) => {
    const vector = fakeVector(text, dimension);
    return { object: "embedding", index, embedding: encoding === "base64" ? toBase64Float32(vector) : vector };
  });
  if (shuffle) data.reverse();
  return { object: "list", data, model: "fake-embed", usage: { prompt_tokens: input.length, total_tokens: input.length } };
}

/** A running fake server. */
export interface EmbeddingsTestServer {
  /** `http://127.0.0.1:<port>/v1`. */
  readonly baseURL: string;
  readonly requests: EmbeddingsTestRequest[];
  /** Resolves when a client closed a connection before its answer ended. */
  nextDisconnect(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a fake OpenAI-compatible `/embeddings` server on 127.0.0.1 that answers with `respond`. */
export async function startEmbeddingsTestServer(
  respond: (request: EmbeddingsTestRequest, index: number) => EmbeddingsTestReply,
): Promise<EmbeddingsTestServer> {
  const requests: EmbeddingsTestRequest[] = [];
  const disconnectWaiters: (() => void)[] = [];
  let disconnects = 0;
  const server = http.createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const request: EmbeddingsTestRequest = {
        path: incoming.url ?? "",
        headers: incoming.headers,
        body: JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}"),
      };
      requests.push(request);
      outgoing.on("close", () => {
        if (outgoing.writableFinished) return;
        disconnects += 1;
        disconnectWaiters.splice(0).forEach((wake) => wake());
      });
      const reply = respond(request, requests.length - 1);
      if ("hang" in reply) return;
      if ("hangAfterHead" in reply) {
        outgoing.writeHead(200, { "content-type": "application/json" });
        outgoing.write('{"object":"list","data":[');
        return;
      }
      if ("vectors" in reply) {
        const input = Array.isArray(request.body.input) ? (request.body.input as string[]) : [];
        outgoing.writeHead(200, { "content-type": "application/json" });
        outgoing.end(JSON.stringify(embeddingsAnswer(input, reply.dimension, request.body.encoding_format, reply.shuffle)));
        return;
      }
      if ("json" in reply) {
        const text = JSON.stringify(reply.json);
        outgoing.writeHead(reply.status ?? 200, {
          "content-type": "application/json",
          ...(reply.declareLength === false ? {} : { "content-length": Buffer.byteLength(text) }),
        });
        if (reply.declareLength === false) {
          // Written in pieces without a content-length: the client must stop reading at its cap.
          for (let start = 0; start < text.length; start += 16_384) outgoing.write(text.slice(start, start + 16_384));
          outgoing.end();
        } else outgoing.end(text);
        return;
      }
      outgoing.writeHead(reply.status, { "content-type": reply.contentType ?? "application/json" });
      outgoing.end(reply.text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  let seenDisconnects = 0;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    nextDisconnect: () =>
      new Promise<void>((resolve) => {
        if (disconnects > seenDisconnects) {
          seenDisconnects += 1;
          resolve();
          return;
        }
        disconnectWaiters.push(() => {
          seenDisconnects += 1;
          resolve();
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Returns `serve(respond)`, which starts a fake server for the current test;
 * registers an `afterEach` that closes it.
 */
export function useEmbeddingsTestServer(): (respond: (request: EmbeddingsTestRequest, index: number) => EmbeddingsTestReply) => Promise<EmbeddingsTestServer> {
  let server: EmbeddingsTestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return async (respond) => {
    server = await startEmbeddingsTestServer(respond);
    return server;
  };
}

/** The error `promise` rejects with; fails the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable("the call should have failed"),
    (error: unknown) => error,
  );
}
