import http from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { ModelClientError } from "@agent-tools/core";
import { afterEach, describe, expect, it } from "vitest";
import { OpenAICompatibleModelClient } from "./index.js";

const KEY = "sk-chat-5c1e9a7b3d2f4e60";
const HEADER_KEY = "azure-9f8e7d6c5b4a3210";

interface SeenRequest {
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

interface RawServer {
  readonly origin: string;
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}

const servers: RawServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A real HTTP server on 127.0.0.1 that records every request and answers with `respond`. */
async function serve(respond: (response: http.ServerResponse) => void): Promise<RawServer> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      seen.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      respond(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const raw: RawServer = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  servers.push(raw);
  return raw;
}

/** `text` with every character written as a JSON `\uXXXX` escape, as a provider may echo it. */
function escaped(text: string): string {
  return [...text].map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
}

async function rejection(promise: Promise<unknown>): Promise<ModelClientError> {
  const error = await promise.then(
    () => expect.unreachable("the call should have failed"),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ModelClientError);
  return error as ModelClientError;
}

/** Everything an error shows: message, data, cause, as JSON and as util.inspect prints it. */
function everythingShown(error: ModelClientError): string {
  return `${error.message}\n${JSON.stringify(error.toJSON())}\n${JSON.stringify(error.data)}\n${inspect(error, { depth: 8 })}`;
}

function client(baseURL: string, options: { stream?: boolean; apiKey?: string } = {}): OpenAICompatibleModelClient {
  return new OpenAICompatibleModelClient({
    baseURL: `${baseURL}/v1`,
    model: "m",
    apiKey: options.apiKey ?? KEY,
    headers: { "api-key": HEADER_KEY, "x-api-key": HEADER_KEY },
    stream: options.stream ?? false,
  });
}

describe("OpenAICompatibleModelClient and redirects", () => {
  for (const [status, stream] of [
    [302, false],
    [307, false],
    [308, true],
  ] as const) {
    it(`answers HTTP ${status}${stream ? " (streamed)" : ""} to another origin with an http_error and never follows it`, async () => {
      const other = await serve((response) => response.end("{}"));
      const first = await serve((response) => {
        response.writeHead(status, { location: `${other.origin}/v1/chat/completions` });
        response.end();
      });
      const error = await rejection(client(first.origin, { stream }).generate({ messages: [{ role: "user", content: "the secret plan" }] }));
      expect(error.code).toBe("http_error");
      expect(error.status).toBe(status);
      expect(error.message).toContain(`HTTP ${status} (a redirect)`);
      expect(first.seen).toHaveLength(1);
      expect(other.seen).toHaveLength(0);
      expect(everythingShown(error)).not.toContain(KEY);
    });
  }
});

describe("OpenAICompatibleModelClient and secrets in errors", () => {
  it("redacts a JSON-escaped key the provider echoes in an HTTP 401 from message, data.body and cause", async () => {
    const server = await serve((response) => {
      response.writeHead(401, { "content-type": "application/json" });
      response.end(`{"error":{"message":"Incorrect API key provided: ${escaped(KEY)} (header ${escaped(HEADER_KEY)})"}}`);
    });
    const error = await rejection(client(server.origin).generate({ messages: [] }));
    expect(error.code).toBe("http_error");
    expect(error.status).toBe(401);
    expect(error.message).toContain("Incorrect API key provided: [redacted] (header [redacted])");
    expect(error.data?.body).toContain("[redacted]");
    expect(everythingShown(error)).not.toContain(KEY);
    expect(everythingShown(error)).not.toContain(HEADER_KEY);
  });

  it("redacts an escaped key in a 2xx { error } body and in a mid-stream error event", async () => {
    const whole = await serve((response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(`{"error":{"message":"key ${escaped(KEY)} is revoked"}}`);
    });
    const wholeError = await rejection(client(whole.origin).generate({ messages: [] }));
    expect(wholeError.code).toBe("provider_error");
    expect(wholeError.message).toBe("The model server reported an error: key [redacted] is revoked");
    expect(everythingShown(wholeError)).not.toContain(KEY);

    const streamed = await serve((response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(`data: {"error":{"message":"key ${escaped(HEADER_KEY)} is revoked"}}\n\n`);
    });
    const streamError = await rejection(client(streamed.origin, { stream: true }).generate({ messages: [] }));
    expect(streamError.code).toBe("provider_error");
    expect(streamError.message).toBe("The model server reported an error mid-stream: key [redacted] is revoked");
    expect(everythingShown(streamError)).not.toContain(HEADER_KEY);
  });

  it("redacts a plain echoed key from a non-JSON body", async () => {
    const server = await serve((response) => {
      response.writeHead(502, { "content-type": "text/plain" });
      response.end(`bad gateway for Bearer ${KEY}`);
    });
    const error = await rejection(client(server.origin).generate({ messages: [] }));
    expect(error.message).toContain("bad gateway for Bearer [redacted]");
    expect(error.data?.body).toBe("bad gateway for Bearer [redacted]");
    expect(everythingShown(error)).not.toContain(KEY);
  });

  it("keeps the key out of a network_error's cause (fetch quotes an invalid header value)", async () => {
    const server = await serve((response) => response.end("{}"));
    const badKey = `${KEY}\nX`;
    const error = await rejection(client(server.origin, { apiKey: badKey }).generate({ messages: [] }));
    expect(error.code).toBe("network_error");
    expect(error.cause).toBeInstanceOf(Error);
    expect(server.seen).toHaveLength(0);
    expect(everythingShown(error)).not.toContain(KEY);
  });
});
