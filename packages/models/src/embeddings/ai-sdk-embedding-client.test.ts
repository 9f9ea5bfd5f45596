import { inspect } from "node:util";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { ModelClientError, SdkError } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { fakeVector, rejection, useEmbeddingsTestServer } from "./__fixtures__/embeddings-test-server.js";
import { AiSdkEmbeddingClient } from "./index.js";
import type { AiSdkEmbeddingModel } from "./index.js";

const KEY = "sk-aisdk-7d3e9b1c5a2f4e68";
const serve = useEmbeddingsTestServer();

/** The AI SDK's own OpenAI-compatible provider, pointed at the fake server: its real request and parsing code runs. */
function providerModel(baseURL: string) {
  return createOpenAICompatible({ name: "fake", baseURL, apiKey: KEY }).textEmbeddingModel("fake-embed");
}

describe("AiSdkEmbeddingClient over @ai-sdk/openai-compatible", () => {
  it("embeds through the provider and names the model with its dimension", async () => {
    const fake = await serve(() => ({ vectors: "auto", dimension: 6 }));
    const embedder = new AiSdkEmbeddingClient(providerModel(fake.baseURL), { dimensions: 6 });
    const vectors = await embedder.embed(["alpha", "beta"]);
    expect(Array.from(vectors[1]!)).toEqual(Array.from(Float32Array.from(fakeVector("beta", 6))));
    expect(embedder.modelId).toBe("fake.embedding:fake-embed@6");
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(fake.requests[0]!.body.input).toEqual(["alpha", "beta"]);
  });

  it("splits 250 texts into provider calls of 96 and keeps the order", async () => {
    const fake = await serve(() => ({ vectors: "auto", dimension: 4 }));
    const texts = Array.from({ length: 250 }, (_, index) => `t${index}`);
    const vectors = await new AiSdkEmbeddingClient(providerModel(fake.baseURL), { dimensions: 4 }).embed(texts);
    expect(fake.requests.map((request) => (request.body.input as string[]).length)).toEqual([96, 96, 58]);
    expect(vectors).toHaveLength(250);
    expect(Array.from(vectors[249]!)).toEqual(Array.from(Float32Array.from(fakeVector("t249", 4))));
  });

  it("refuses a wrong length and a wrong count as invalid_response", async () => {
    const wrongLength = await serve(() => ({ vectors: "auto", dimension: 5 }));
    const lengthError = (await rejection(new AiSdkEmbeddingClient(providerModel(wrongLength.baseURL), { dimensions: 6 }).embed(["a"]))) as ModelClientError;
    expect(lengthError.code).toBe("invalid_response");
    expect(lengthError.message).toMatch(/vector 0 has 5 components, not 6/);
    await wrongLength.close();
    const wrongCount = await serve(() => ({ json: { data: [{ embedding: fakeVector("a", 6) }] } }));
    const countError = (await rejection(new AiSdkEmbeddingClient(providerModel(wrongCount.baseURL), { dimensions: 6 }).embed(["a", "b"]))) as ModelClientError;
    expect(countError.code).toBe("invalid_response");
    expect(countError.message).toMatch(/1 vectors came back for 2 texts/);
  });

  it("maps the provider's schema failure (a non-array embedding) to invalid_response", async () => {
    const fake = await serve(() => ({ json: { data: [{ embedding: "not numbers" }] } }));
    const error = (await rejection(new AiSdkEmbeddingClient(providerModel(fake.baseURL), { dimensions: 6 }).embed(["a"]))) as ModelClientError;
    expect(error.code).toBe("invalid_response");
  });

  for (const [status, message] of [
    [401, "Incorrect API key provided."],
    [429, "Rate limit reached."],
    [500, "Internal failure."],
  ] as const) {
    it(`maps HTTP ${status} to http_error with the provider's message and without the key`, async () => {
      const fake = await serve(() => ({ status, json: { error: { message, type: "x" } } }));
      const error = (await rejection(new AiSdkEmbeddingClient(providerModel(fake.baseURL), { dimensions: 6 }).embed(["a"]))) as ModelClientError;
      expect(error).toBeInstanceOf(ModelClientError);
      expect(error.code).toBe("http_error");
      expect(error.status).toBe(status);
      expect(error.message).toContain(message);
      expect(JSON.stringify({ message: error.message, json: error.toJSON() })).not.toContain(KEY);
    });
  }

  it("keeps a cause without the request body: the memory texts stay out of util.inspect", async () => {
    const fake = await serve(() => ({ status: 500, json: { error: { message: "Internal failure." } } }));
    const text = "my private memory about the 4th-floor door code 7734";
    const error = (await rejection(new AiSdkEmbeddingClient(providerModel(fake.baseURL), { dimensions: 6 }).embed([text]))) as ModelClientError;
    expect(error.code).toBe("http_error");
    expect(fake.requests[0]!.body.input).toEqual([text]);
    const cause = error.cause as Error;
    expect(cause.name).toBe("AI_APICallError");
    expect(cause.message).toContain("Internal failure.");
    expect(inspect(error, { depth: 8 })).not.toContain("door code");
    expect(inspect(error, { depth: 8 })).not.toContain(KEY);
  });

  it("maps an unreachable server to network_error", async () => {
    const fake = await serve(() => ({ vectors: "auto", dimension: 6 }));
    const baseURL = fake.baseURL;
    await fake.close();
    const error = (await rejection(new AiSdkEmbeddingClient(providerModel(baseURL), { dimensions: 6 }).embed(["a"]))) as ModelClientError;
    expect(error.code).toBe("network_error");
    expect(JSON.stringify(error.toJSON())).not.toContain(KEY);
  });

  it("rejects with AbortError before a call, and cancels a call in flight", async () => {
    const fake = await serve(() => ({ hang: true }));
    const embedder = new AiSdkEmbeddingClient(providerModel(fake.baseURL), { dimensions: 6 });
    const aborted = new AbortController();
    aborted.abort();
    expect(((await rejection(embedder.embed(["a"], { signal: aborted.signal }))) as Error).name).toBe("AbortError");
    expect(fake.requests).toHaveLength(0);
    const controller = new AbortController();
    const pending = embedder.embed(["a"], { signal: controller.signal });
    const disconnected = fake.nextDisconnect();
    while (fake.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(((await rejection(pending)) as Error).name).toBe("AbortError");
    await disconnected;
  });

  it("create() probes the dimension with one call", async () => {
    const fake = await serve(() => ({ vectors: "auto", dimension: 10 }));
    const embedder = await AiSdkEmbeddingClient.create(providerModel(fake.baseURL));
    expect(embedder.dimension).toBe(10);
    expect(fake.requests).toHaveLength(1);
  });
});

describe("AiSdkEmbeddingClient over a specification v2 model", () => {
  /** A v2 model (AI SDK 5's shape) that embeds in-process and states its limit only as a promise. */
  function v2Model(limit: number, calls: string[][]): AiSdkEmbeddingModel {
    return {
      specificationVersion: "v2",
      provider: "local",
      modelId: "hash",
      maxEmbeddingsPerCall: Promise.resolve(limit),
      doEmbed: async ({ values }) => {
        calls.push(values);
        return { embeddings: values.map((value) => fakeVector(value, 3)) };
      },
    };
  }

  it("create() honours a limit given as a promise", async () => {
    const calls: string[][] = [];
    const embedder = await AiSdkEmbeddingClient.create(v2Model(4, calls), { dimensions: 3 });
    expect(embedder.maxBatchSize).toBe(4);
    await embedder.embed(["a", "b", "c", "d", "e", "f"]);
    expect(calls.map((values) => values.length)).toEqual([4, 2]);
    await expect(AiSdkEmbeddingClient.create(v2Model(4, calls), { dimensions: 3, maxBatchSize: 5 })).rejects.toThrow(/above the model's limit of 4/);
  });

  it("refuses a NaN the model returns, and a batch size above a stated limit", async () => {
    const model: AiSdkEmbeddingModel = { ...v2Model(8, []), maxEmbeddingsPerCall: 8, doEmbed: async () => ({ embeddings: [[0.1, Number.NaN, 0.2]] }) };
    const error = (await rejection(new AiSdkEmbeddingClient(model, { dimensions: 3 }).embed(["a"]))) as ModelClientError;
    expect(error.code).toBe("invalid_response");
    expect(error.message).toMatch(/not finite/);
    expect(() => new AiSdkEmbeddingClient(model, { dimensions: 3, maxBatchSize: 9 })).toThrow(/above the model's limit of 8/);
    expect(() => new AiSdkEmbeddingClient(model, { dimensions: 3, batchSize: 4 } as never)).toThrow(/did you mean "maxBatchSize"/);
    expect(() => new AiSdkEmbeddingClient("text-embedding-3-small" as never, { dimensions: 3 })).toThrow(SdkError);
  });
});
