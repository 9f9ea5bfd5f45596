import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SdkError, toolResultText } from "@agent-tools/core";
import { InMemoryMemoryIndexStore, type MemoryManagerDetails, openMemoryService } from "@agent-tools/memory";
import { FunctionEmbeddingClient } from "@agent-tools/memory/testing";
import { afterAll, describe, expect, it } from "vitest";
import { type BuiltinToolRegistryOptions, buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-memory-embedder-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

function directories() {
  const base = fs.mkdtempSync(path.join(temporary, "case-"));
  fs.mkdirSync(path.join(base, "project"));
  return { workdir: path.join(base, "project"), dataDir: path.join(base, "data") };
}

/** One axis per concept: "puppy" is near "hound" without sharing a word. */
const CONCEPTS = [
  ["dog", "puppy", "hound"],
  ["pizza", "pasta", "lunch"],
];
const conceptEmbedder = () =>
  new FunctionEmbeddingClient({
    dimension: CONCEPTS.length,
    vectorOf: (text) => CONCEPTS.map((words) => (text.toLowerCase().match(/[a-z]+/g) ?? []).filter((word) => words.includes(word)).length),
  });

async function rejection(options: Partial<BuiltinToolRegistryOptions>): Promise<SdkError> {
  const { workdir, dataDir } = directories();
  const error = await buildBuiltinToolRegistry({ workdir, dataDir, ...options } as BuiltinToolRegistryOptions).then(
    async (registry) => {
      await registry.close();
      return undefined;
    },
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(SdkError);
  return error as SdkError;
}

describe("buildBuiltinToolRegistry: memory.embedder", () => {
  it("searches memory by meaning with the host's embedder and says the vector index answered", async () => {
    const { workdir, dataDir } = directories();
    const embedder = conceptEmbedder();
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: { store: new InMemoryMemoryIndexStore(), embedder } });
    try {
      const written = await registry.executeToolCall({
        id: "1",
        name: "MemoryManager",
        arguments: { action: "write", slug: "family-pet", scope: "global", type: "user", description: "Family pet", body: "Rex the hound." },
      });
      expect(written.isError).toBe(false);
      // The entry is embedded in the background; the search waits until its vector is in.
      let details: MemoryManagerDetails | undefined;
      for (let attempt = 0; attempt < 200 && details?.entries?.length !== 1; attempt += 1) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 10));
        const found = await registry.executeToolCall({ id: `search-${attempt}`, name: "MemoryManager", arguments: { action: "search", query: "puppy" } });
        details = found.details as MemoryManagerDetails;
        if (details.entries?.length === 1) expect(toolResultText(found, "")).toContain("found by meaning");
      }
      expect(details).toMatchObject({ entries: ["global/family-pet"] });
      expect(details?.indexes).toContain("vector");
      expect(embedder.calls.flat()).toContain("Family pet\nRex the hound.");
    } finally {
      await registry.close();
    }
  });

  it("refuses a value that is not an EmbeddingClient, one beside a ready service, and a misspelt key, naming them", async () => {
    const notClient = await rejection({ memory: { embedder: "text-embedding-3-small" as never } });
    expect(notClient.code).toBe("invalid_options");
    expect(notClient.details).toEqual({ option: "memory.embedder" });
    expect(notClient.message).toMatch(/^memory\.embedder must be an EmbeddingClient/);
    const noEmbed = await rejection({ memory: { embedder: { modelId: "m", dimension: 2, maxBatchSize: 8 } as never } });
    expect(noEmbed.message).toContain("embed is not a function");
    const { workdir, dataDir } = directories();
    const ready = await openMemoryService({ dataDir, workdir, store: new InMemoryMemoryIndexStore() });
    try {
      const beside = await rejection({ memory: { service: ready, embedder: conceptEmbedder() } });
      expect(beside.details).toEqual({ option: "memory.embedder" });
      expect(beside.message).toMatch(/^memory\.embedder cannot be given with memory\.service/);
    } finally {
      await ready.close();
    }
    const misspelt = await rejection({ memory: { embeder: conceptEmbedder() } as never });
    expect(misspelt.details).toEqual({ option: "memory.embeder", suggestion: "memory.embedder" });
  });
});
