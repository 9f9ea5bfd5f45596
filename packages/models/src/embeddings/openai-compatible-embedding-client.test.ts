import { ModelClientError, SdkError } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { fakeVector, rejection, toBase64Float32, useEmbeddingsTestServer } from "./__fixtures__/embeddings-test-server.js";
import { OpenAICompatibleEmbeddingClient } from "./index.js";

const KEY = "sk-test-4f9c2a7e1b3d5f60";
const serve = useEmbeddingsTestServer();

function client(baseURL: string, extra: Partial<ConstructorParameters<typeof OpenAICompatibleEmbeddingClient>[0]> = {}) {
  return new OpenAICompatibleEmbeddingClient({ baseURL, model: "fake-embed", dimensions: 8, apiKey: KEY, ...extra });
}

function expectFloat32Close(actual: Float32Array, expected: number[]): void {
  expect(Array.from(actual)).toEqual(Array.from(Float32Array.from(expected)));
}

function expectNoKey(error: unknown): void {
  const shown = JSON.stringify({ message: (error as Error).message, json: (error as ModelClientError).toJSON?.() });
  expect(shown).not.toContain(KEY);
}

describe("OpenAICompatibleEmbeddingClient", () => {
  it("embeds texts through POST /embeddings with the model, the key, the dimensions and base64 encoding", async () => {
    const fake = await serve(() => ({ vectors: "auto", dimension: 8 }));
    const embedder = client(fake.baseURL);
    const vectors = await embedder.embed(["alpha", "beta"]);
    expect(vectors).toHaveLength(2);
    expectFloat32Close(vectors[0]!, fakeVector("alpha", 8));
    expectFloat32Close(vectors[1]!, fakeVector("beta", 8));
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.path).toBe("/v1/embeddings");
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(fake.requests[0]!.body).toEqual({ model: "fake-embed", input: ["alpha", "beta"], encoding_format: "base64", dimensions: 8 });
    expect(embedder.modelId).toBe("openai-compatible:fake-embed@8");
    expect(embedder.dimension).toBe(8);
    expect(embedder.maxBatchSize).toBe(96);
  });

  it("reads float answers as well, and leaves dimensions out when sendDimensions is false", async () => {
    const fake = await serve(() => ({ vectors: "auto", dimension: 8 }));
    const vectors = await client(fake.baseURL, { encodingFormat: "float", sendDimensions: false }).embed(["gamma"]);
    expectFloat32Close(vectors[0]!, fakeVector("gamma", 8));
    expect(fake.requests[0]!.body).toEqual({ model: "fake-embed", input: ["gamma"], encoding_format: "float" });
  });

  it("resolves [] for no texts without a request", async () => {
    const fake = await serve(() => ({ vectors: "auto", dimension: 8 }));
    expect(await client(fake.baseURL).embed([])).toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });

  it("splits 250 texts into requests of 96, 96 and 58 and keeps the order", async () => {
    const fake = await serve(() => ({ vectors: "auto", dimension: 8 }));
    const texts = Array.from({ length: 250 }, (_, index) => `text number ${index}`);
    const vectors = await client(fake.baseURL).embed(texts);
    expect(fake.requests.map((request) => (request.body.input as string[]).length)).toEqual([96, 96, 58]);
    expect(fake.requests.flatMap((request) => request.body.input as string[])).toEqual(texts);
    expect(vectors).toHaveLength(250);
    for (const index of [0, 95, 96, 191, 192, 249]) expectFloat32Close(vectors[index]!, fakeVector(texts[index]!, 8));
  });

  it("puts items answered out of order back in index order", async () => {
    const fake = await serve(() => ({ vectors: "auto", dimension: 8, shuffle: true }));
    const vectors = await client(fake.baseURL, { encodingFormat: "float" }).embed(["one", "two", "three"]);
    expectFloat32Close(vectors[0]!, fakeVector("one", 8));
    expectFloat32Close(vectors[2]!, fakeVector("three", 8));
  });

  const invalidAnswers: [string, unknown, RegExp][] = [
    ["a wrong count", { data: [{ index: 0, embedding: fakeVector("a", 8) }] }, /1 vectors came back for 2 texts/],
    ["a wrong length", { data: [0, 1].map((index) => ({ index, embedding: fakeVector("a", index === 1 ? 7 : 8) })) }, /vector 1 has 7 components, not 8/],
    ["a NaN (null in JSON)", { data: [0, 1].map((index) => ({ index, embedding: [...fakeVector("a", 7), null] })) }, /not a number/],
    ["a value beyond float32", { data: [0, 1].map((index) => ({ index, embedding: [...fakeVector("a", 7), 1e300] })) }, /not finite/],
    ["a non-array embedding", { data: [0, 1].map((index) => ({ index, embedding: { values: [] } })) }, /vector 0 is object/],
    ["data that is not an array", { data: "nope" }, /"data" is not an array/],
    ["a duplicate index", { data: [0, 0].map((index) => ({ index, embedding: fakeVector("a", 8) })) }, /index 0 appears twice/],
    [
      "a NaN in base64",
      { data: [0, 1].map((index) => ({ index, embedding: toBase64Float32([...fakeVector("a", 7), Number.NaN]) })) },
      /not finite \(NaN at 7\)/,
    ],
    ["a bad base64 length", { data: [0, 1].map((index) => ({ index, embedding: "AAAAAAA=" })) }, /not a whole number of float32/],
  ];
  for (const [what, json, reason] of invalidAnswers) {
    it(`refuses ${what} as invalid_response`, async () => {
      const fake = await serve(() => ({ json }));
      const error = await rejection(client(fake.baseURL).embed(["a", "b"]));
      expect(error).toBeInstanceOf(ModelClientError);
      expect((error as ModelClientError).code).toBe("invalid_response");
      expect((error as Error).message).toMatch(reason);
    });
  }

  it("refuses a body that is not JSON as invalid_response", async () => {
    const fake = await serve(() => ({ status: 200, text: "<html>gateway</html>", contentType: "text/html" }));
    const error = (await rejection(client(fake.baseURL).embed(["a"]))) as ModelClientError;
    expect(error.code).toBe("invalid_response");
    expect(error.data.body).toBe("<html>gateway</html>");
  });

  for (const [status, message] of [
    [401, "Incorrect API key provided."],
    [429, "Rate limit reached for requests."],
    [500, "The server had an error while processing your request."],
  ] as const) {
    it(`turns HTTP ${status} into http_error with the provider's message`, async () => {
      const fake = await serve(() => ({ status, json: { error: { message, type: "server_error" } } }));
      const error = (await rejection(client(fake.baseURL).embed(["a"]))) as ModelClientError;
      expect(error).toBeInstanceOf(ModelClientError);
      expect(error.code).toBe("http_error");
      expect(error.status).toBe(status);
      expect(error.message).toContain(`HTTP ${status}`);
      expect(error.message).toContain(message);
      expect(error.retryable).toBe(status !== 401);
    });
  }

  it("turns a 200 with an error object into provider_error", async () => {
    const fake = await serve(() => ({ json: { error: { message: "model not loaded" } } }));
    const error = (await rejection(client(fake.baseURL).embed(["a"]))) as ModelClientError;
    expect(error.code).toBe("provider_error");
    expect(error.message).toContain("model not loaded");
  });

  it("never shows the API key, even when the provider echoes it", async () => {
    const fake = await serve((request) => ({
      status: 401,
      json: { error: { message: `Incorrect API key provided: ${String(request.headers.authorization).slice(7)}` } },
    }));
    const error = (await rejection(client(fake.baseURL, { headers: { "x-api-key": "hdr-secret-99887766" } }).embed(["a"]))) as ModelClientError;
    expect(error.code).toBe("http_error");
    expect(error.message).toContain("Incorrect API key provided: [redacted]");
    expectNoKey(error);
    expect(JSON.stringify(error.toJSON())).not.toContain("hdr-secret-99887766");
  });

  it("turns an unreachable server into network_error without the key", async () => {
    const fake = await serve(() => ({ vectors: "auto", dimension: 8 }));
    const baseURL = fake.baseURL;
    await fake.close();
    const error = (await rejection(client(baseURL).embed(["a"]))) as ModelClientError;
    expect(error.code).toBe("network_error");
    expect(error.message).toContain("ECONNREFUSED");
    expectNoKey(error);
  });

  it("turns a server that never answers into network_error after timeoutMs", async () => {
    const fake = await serve(() => ({ hang: true }));
    const error = (await rejection(client(fake.baseURL, { timeoutMs: 100 }).embed(["a"]))) as ModelClientError;
    expect(error.code).toBe("network_error");
    expect(error.message).toContain("within 100 ms");
  });

  it("rejects with AbortError without a request when the signal is already aborted", async () => {
    const fake = await serve(() => ({ vectors: "auto", dimension: 8 }));
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(client(fake.baseURL).embed(["a"], { signal: controller.signal }));
    expect((error as Error).name).toBe("AbortError");
    expect(fake.requests).toHaveLength(0);
  });

  it("cancels the request when the signal aborts while waiting for the answer", async () => {
    const fake = await serve(() => ({ hang: true }));
    const controller = new AbortController();
    const pending = client(fake.baseURL).embed(["a"], { signal: controller.signal });
    const disconnected = fake.nextDisconnect();
    while (fake.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const error = await rejection(pending);
    expect((error as Error).name).toBe("AbortError");
    await disconnected;
  });

  it("cancels while the body is streaming, and stops before the next batch", async () => {
    const fake = await serve((_request, index) => (index === 0 ? { vectors: "auto", dimension: 8 } : { hangAfterHead: true }));
    const controller = new AbortController();
    const pending = client(fake.baseURL, { maxBatchSize: 2 }).embed(["a", "b", "c", "d", "e"], { signal: controller.signal });
    const disconnected = fake.nextDisconnect();
    while (fake.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(((await rejection(pending)) as Error).name).toBe("AbortError");
    await disconnected;
    expect(fake.requests).toHaveLength(2);
  });

  for (const declareLength of [true, false]) {
    it(`refuses an answer larger than maxResponseBytes (${declareLength ? "declared" : "streamed without content-length"})`, async () => {
      const big = { data: [{ index: 0, embedding: "A".repeat(200_000) }] };
      const fake = await serve(() => ({ json: big, declareLength }));
      const error = (await rejection(client(fake.baseURL, { maxResponseBytes: 64 * 1024 }).embed(["a"]))) as ModelClientError;
      expect(error.code).toBe("invalid_response");
      expect(error.message).toContain("larger than maxResponseBytes (65536 bytes)");
    });
  }

  it("create() probes the dimension once when it is not given, then does not send it", async () => {
    const fake = await serve(() => ({ vectors: "auto", dimension: 12 }));
    const embedder = await OpenAICompatibleEmbeddingClient.create({ baseURL: fake.baseURL, model: "fake-embed" });
    expect(embedder.dimension).toBe(12);
    expect(embedder.modelId).toBe("openai-compatible:fake-embed@12");
    expect(fake.requests).toHaveLength(1);
    await embedder.embed(["x"]);
    expect(fake.requests[1]!.body).toEqual({ model: "fake-embed", input: ["x"], encoding_format: "base64" });
  });

  it("create() with dimensions and the constructor make no request", async () => {
    const fake = await serve(() => ({ vectors: "auto", dimension: 8 }));
    await OpenAICompatibleEmbeddingClient.create({ baseURL: fake.baseURL, model: "fake-embed", dimensions: 8 });
    client(fake.baseURL);
    expect(fake.requests).toHaveLength(0);
  });

  it("refuses wrong options with an SdkError that names them", () => {
    const base = { baseURL: "http://127.0.0.1:1/v1", model: "m", dimensions: 8 };
    const attempt = (options: object) => () => new OpenAICompatibleEmbeddingClient(options as never);
    expect(attempt({ ...base, baseUrl: "x" })).toThrow(/no option "baseUrl" \(did you mean "baseURL"\?\)/);
    expect(attempt({ ...base, dimensions: 0 })).toThrow(/dimensions must be an integer from 1 to 65536/);
    expect(attempt({ ...base, maxBatchSize: 4096 })).toThrow(/maxBatchSize must be an integer from 1 to 2048/);
    expect(attempt({ ...base, encodingFormat: "binary" })).toThrow(/encodingFormat must be "base64" or "float"/);
    expect(attempt({ ...base, baseURL: "localhost:11434" })).toThrow(SdkError);
    expect(attempt({ ...base, timeoutMs: -1 })).toThrow(/timeoutMs/);
  });
});
