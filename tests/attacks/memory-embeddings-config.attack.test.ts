/**
 * Issue 40, area 5: the embedder option fails closed. `memory.embedder` (the
 * sdk), the memory tool bundle's `embedder` and `openMemoryService`'s: a
 * non-client, a dimension of 0 / NaN / 1.5 / Infinity / a string, an empty
 * model id, a throwing getter, a dimension the vector index cannot hold, a
 * model id the database cannot store, an embedder beside a ready service,
 * and misspelt keys are refused at build naming the option (with the near
 * name); a client that lies about its dimension fails its batches and
 * searches clearly without losing a write.
 */
import { SdkError } from "@agent-tools/core";
import { createMemoryToolBundle, InMemoryMemoryIndexStore, openMemoryService } from "@agent-tools/memory";
import { FunctionEmbeddingClient } from "@agent-tools/memory/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltinToolRegistryOptions, buildBuiltinToolRegistry } from "../../packages/sdk/src/index.js";
import { attackBackends, attackFolders, conceptEmbedder, conceptVector } from "./memory-embeddings-harness.js";

const backends = attackBackends("attack-memory-embeddings-config-");
const folders = attackFolders("attack-memory-embeddings-config-dirs-");
beforeAll(() => backends.start(), 120_000);
afterAll(async () => {
  await backends.stop();
  folders.cleanup();
});

const embed = async (texts: readonly string[]) => texts.map(() => new Float32Array(4));
const client = (overrides: Record<string, unknown>) => ({ modelId: "m", dimension: 4, maxBatchSize: 8, embed, ...overrides });

async function buildRejection(memory: unknown): Promise<unknown> {
  const dirs = folders.next();
  return buildBuiltinToolRegistry({ workdir: dirs.projectA, dataDir: dirs.dataDir, memory } as BuiltinToolRegistryOptions).then(
    async (registry) => {
      await registry.close();
      return undefined;
    },
    (thrown: unknown) => thrown,
  );
}

function expectOptionError(error: unknown, option: string): SdkError {
  expect(error, `expected ${option} to be refused`).toBeInstanceOf(SdkError);
  expect((error as SdkError).code).toBe("invalid_options");
  expect(JSON.stringify((error as SdkError).details ?? {}) + (error as Error).message).toContain(option);
  return error as SdkError;
}

describe("attack: the memory embedder option", () => {
  const invalid: [string, unknown][] = [
    ["a model name", "text-embedding-3-small"],
    ["null", null],
    ["a function", embed],
    ["an array", [client({})]],
    ["dimension 0", client({ dimension: 0 })],
    ["dimension NaN", client({ dimension: Number.NaN })],
    ["dimension 1.5", client({ dimension: 1.5 })],
    ["dimension Infinity", client({ dimension: Number.POSITIVE_INFINITY })],
    ["dimension -4", client({ dimension: -4 })],
    ["dimension '4'", client({ dimension: "4" })],
    ["modelId ''", client({ modelId: "" })],
    ["modelId of spaces", client({ modelId: "   " })],
    ["modelId 42", client({ modelId: 42 })],
    ["maxBatchSize 0", client({ maxBatchSize: 0 })],
    ["maxBatchSize NaN", client({ maxBatchSize: Number.NaN })],
    ["embed a string", client({ embed: "embed" })],
  ];
  it.each(invalid)("refuses %s as memory.embedder, the bundle's embedder and openMemoryService's, naming it", async (_what, value) => {
    expectOptionError(await buildRejection({ store: new InMemoryMemoryIndexStore(), embedder: value }), "memory.embedder");
    expectOptionError(
      (() => {
        try {
          createMemoryToolBundle({ embedder: value as never });
          return undefined;
        } catch (error) {
          return error;
        }
      })(),
      "embedder",
    );
    const dirs = folders.next();
    const opened = await openMemoryService({
      dataDir: dirs.dataDir,
      workdir: dirs.projectA,
      store: new InMemoryMemoryIndexStore(),
      embedder: value as never,
    }).then(
      async (memory) => {
        await memory.close();
        return undefined;
      },
      (error: unknown) => error,
    );
    expectOptionError(opened, "embedder");
  });

  it("fails the build on a client whose getter throws (the host's own error), opening nothing", async () => {
    const hostile = Object.defineProperty(client({}), "dimension", {
      get() {
        throw new Error("getter boom");
      },
    });
    const error = await buildRejection({ store: new InMemoryMemoryIndexStore(), embedder: hostile });
    expect((error as Error).message).toMatch(/getter boom|memory\.embedder/);
  });

  it("refuses misspelt and wrongly cased keys with the near name", async () => {
    for (const key of ["embeder", "embedders", "Embedder", "embedding"]) {
      const error = expectOptionError(await buildRejection({ store: new InMemoryMemoryIndexStore(), [key]: conceptEmbedder() }), `memory.${key}`);
      expect(JSON.stringify(error.details)).toContain("memory.embedder");
    }
  });

  // Finding C1 (fixed): the option check took any positive whole dimension; the vector index refuses vectors over 16,384
  // components, so such a client was accepted and then failed every batch (retried for ever) instead of the build.
  it("(was C1) refuses a dimension the vector index cannot hold at build, not on every batch", async () => {
    const huge = new FunctionEmbeddingClient({ dimension: 20_000, modelId: "attack:huge", vectorOf: () => Float32Array.from({ length: 20_000 }, () => 1) });
    expectOptionError(await buildRejection({ store: new InMemoryMemoryIndexStore(), embedder: huge }), "memory.embedder");
  });

  // Finding C3 (fixed): with `service` given, an `embedder` beside it was dropped without a word.
  it("(was C3) refuses memory.embedder beside a ready memory.service instead of ignoring it", async () => {
    const dirs = folders.next();
    const service = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.projectA, store: new InMemoryMemoryIndexStore() });
    try {
      expectOptionError(await buildRejection({ service, embedder: conceptEmbedder() }), "memory.embedder");
    } finally {
      await service.close();
    }
  });

  it("a client that lies about its dimension fails its batches and searches clearly, and loses no write", async () => {
    const liar = new FunctionEmbeddingClient({ dimension: 4, modelId: "attack:liar@4", vectorOf: conceptVector });
    const lying = Object.assign(Object.create(liar) as FunctionEmbeddingClient, {
      embed: async (texts: readonly string[]) => (await liar.embed(texts)).map((vector) => vector.slice(0, 3)),
    });
    const dirs = folders.next();
    const memory = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.projectA, store: new InMemoryMemoryIndexStore(), embedder: lying });
    try {
      expect((await memory.write({ slug: "pet", scope: "project", type: "reference", description: "Pet", body: "Rex the hound." })).ok).toBe(true);
      await memory.embeddingsSettled();
      expect(memory.embeddingStatus()?.lastError?.message).toMatch(/3 components, not its dimension 4/);
      const found = await memory.search({ query: "hound" });
      expect(found.hits.map((hit) => hit.record.slug)).toEqual(["pet"]);
      expect(found.vectorError).toMatch(/dimension 4/);
    } finally {
      await memory.close();
    }
  });
});

// Finding C2 (fixed): PostgreSQL text cannot hold NUL; a model id with one passed the option check, then every
// putVectors and search by meaning failed on PostgreSQL (retried for ever) while SQLite and memory took it.
describe.each(backends.list)("attack: a model id the database cannot store, on $label", (backend) => {
  it(`${backend.label === "postgres" ? "(was C2) " : ""}a NUL in the model id is refused at open or stored like any other character`, async () => {
    const dirs = folders.next();
    const opened = await backend.open();
    const embedder = conceptEmbedder({ modelId: "attack:\u0000nul@4" });
    const memory = await openMemoryService({ dataDir: dirs.dataDir, workdir: dirs.projectA, store: opened.store, embedder }).catch((error: unknown) => error);
    try {
      if (memory instanceof Error) {
        expectOptionError(memory, "embedder");
        return;
      }
      const service = memory as Awaited<ReturnType<typeof openMemoryService>>;
      expect((await service.write({ slug: "pet", scope: "project", type: "reference", description: "Pet", body: "Rex the hound." })).ok).toBe(true);
      await service.embeddingsSettled();
      expect(service.embeddingStatus()?.lastError).toBeUndefined();
      expect((await service.search({ query: "canine" })).hits.map((hit) => hit.record.slug)).toEqual(["pet"]);
      await service.close();
    } finally {
      await opened.dispose();
    }
  });
});
