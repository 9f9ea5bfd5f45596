// The contract every McpManifestStore meets, run on memory, SQLite and PostgreSQL by mcp-manifest-store.test.ts.
import type { McpManifest, McpManifestStore } from "@agent-tools/core/mcp";
import { describe, expect, it } from "vitest";

export interface McpManifestStoreContractTarget {
  name: string;
  /** True when `open` returns `corrupt` (a persistent backend with rows to damage). */
  corruptible: boolean;
  open(): Promise<{
    store: McpManifestStore;
    /** Overwrites the stored body of `serverId` with `body` (a persistent backend's row); absent for stores without rows. */
    corrupt?(serverId: string, body: string): Promise<void>;
    close(): Promise<void>;
  }>;
}

/** A manifest with `count` tools whose text is tagged `tag`. */
export function sampleManifest(serverId: string, configHash: string, tag: string, count = 2): McpManifest {
  return {
    serverId,
    configHash,
    fetchedAt: 1_700_000_000_000 + count,
    tools: Array.from({ length: count }, (_, index) => ({
      name: `${tag}_tool_${index}`,
      title: `Tool ${index} ünïcødé 🚀`,
      description: `${tag} ${"d".repeat(index * 50)}`,
      inputSchema: { type: "object", properties: { path: { type: "string", description: tag } }, required: ["path"] },
      annotations: { readOnlyHint: index % 2 === 0 },
      taskSupport: index === 0 ? "optional" : "forbidden",
    })),
    serverInfo: { name: `${serverId}-server`, version: "1.2.3" },
    capabilities: { resources: true, resourceSubscribe: false, prompts: true, tasks: false },
    instructions: `use ${tag} wisely`,
  };
}

export function runMcpManifestStoreContract(target: McpManifestStoreContractTarget): void {
  describe(`McpManifestStore contract: ${target.name}`, () => {
    type Opened = Awaited<ReturnType<McpManifestStoreContractTarget["open"]>>;
    const withStore = (run: (opened: Opened) => Promise<void>) => async () => {
      const opened = await target.open();
      try {
        await run(opened);
      } finally {
        await opened.close();
      }
    };

    it(
      "misses a server never put, and returns a put manifest field for field",
      withStore(async ({ store }) => {
        expect(await store.get("docs", "h1")).toBeUndefined();
        const manifest = sampleManifest("docs", "h1", "a", 3);
        await store.put(manifest);
        expect(await store.get("docs", "h1")).toEqual(manifest);
        const bare: McpManifest = { serverId: "bare", configHash: "h0", fetchedAt: 5, tools: [] };
        await store.put(bare);
        expect(await store.get("bare", "h0")).toEqual(bare);
      }),
    );

    it(
      "misses on another configuration hash; a newer hash replaces the older one; the same hash is overwritten",
      withStore(async ({ store }) => {
        await store.put(sampleManifest("docs", "h1", "a"));
        expect(await store.get("docs", "h2")).toBeUndefined();
        const newer = sampleManifest("docs", "h2", "b", 4);
        await store.put(newer);
        expect(await store.get("docs", "h1")).toBeUndefined();
        expect(await store.get("docs", "h2")).toEqual(newer);
        const refreshed = { ...sampleManifest("docs", "h2", "c", 1), fetchedAt: 1_800_000_000_000 };
        await store.put(refreshed);
        expect(await store.get("docs", "h2")).toEqual(refreshed);
      }),
    );

    it(
      "keeps servers apart; delete forgets one server and is a no-op for an unknown one",
      withStore(async ({ store }) => {
        const docs = sampleManifest("docs", "h1", "a");
        const files = sampleManifest("files", "h1", "f");
        await store.put(docs);
        await store.put(files);
        expect([await store.get("docs", "h1"), await store.get("files", "h1")]).toEqual([docs, files]);
        await store.delete("docs");
        expect([await store.get("docs", "h1"), await store.get("files", "h1")]).toEqual([undefined, files]);
        await store.delete("missing");
        await store.put(docs);
        expect(await store.get("docs", "h1")).toEqual(docs);
      }),
    );

    it(
      "ends concurrent puts of one server with one of them whole, and takes concurrent puts of many servers",
      withStore(async ({ store }) => {
        const candidates = Array.from({ length: 6 }, (_, index) => sampleManifest("docs", `h${index}`, `v${index}`, 1 + index * 7));
        await Promise.all(candidates.map((manifest) => store.put(manifest)));
        const found = (await Promise.all(candidates.map((manifest) => store.get("docs", manifest.configHash)))).filter((item) => item !== undefined);
        expect(found).toHaveLength(1);
        expect(candidates).toContainEqual(found[0]);
        const servers = Array.from({ length: 8 }, (_, index) => sampleManifest(`s${index}`, "h", `s${index}`));
        await Promise.all(servers.map((manifest) => store.put(manifest)));
        expect(await Promise.all(servers.map((manifest) => store.get(manifest.serverId, "h")))).toEqual(servers);
      }),
    );

    it(
      "hands out copies: changing a put or a returned manifest does not change the cache",
      withStore(async ({ store }) => {
        const manifest = sampleManifest("docs", "h1", "a");
        const expected = structuredClone(manifest);
        await store.put(manifest);
        manifest.tools[0]!.name = "changed_after_put";
        const first = await store.get("docs", "h1");
        expect(first).toEqual(expected);
        first!.tools.push({ name: "injected" });
        (first!.tools[0]!.inputSchema as { type: string }).type = "string";
        first!.capabilities!.tasks = true;
        expect(await store.get("docs", "h1")).toEqual(expected);
      }),
    );

    it.skipIf(!target.corruptible)("reads a corrupt row as a miss, never an error", async () => {
      const opened = await target.open();
      try {
        const corrupt = opened.corrupt;
        if (corrupt === undefined) throw new Error("a corruptible target must return corrupt()");
        const manifest = sampleManifest("docs", "h1", "a");
        const bodies = [
          "{not json",
          "null",
          JSON.stringify({ ...manifest, tools: "nope" }),
          JSON.stringify({ ...manifest, tools: [{ description: "no name" }] }),
          JSON.stringify({ ...manifest, configHash: "h-other" }),
          JSON.stringify({ ...manifest, serverId: "other" }),
          JSON.stringify({ ...manifest, fetchedAt: "yesterday" }),
        ];
        for (const body of bodies) {
          await opened.store.put(manifest);
          await corrupt("docs", body);
          expect(await opened.store.get("docs", "h1")).toBeUndefined();
        }
        await opened.store.put(manifest);
        expect(await opened.store.get("docs", "h1")).toEqual(manifest);
      } finally {
        await opened.close();
      }
    });
  });
}
