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
      "keeps each configuration hash of a server: two hashes both readable, a third a miss, the same hash overwritten",
      withStore(async ({ store }) => {
        const first = sampleManifest("docs", "h1", "a");
        await store.put(first);
        expect(await store.get("docs", "h2")).toBeUndefined();
        const second = sampleManifest("docs", "h2", "b", 4);
        await store.put(second);
        expect([await store.get("docs", "h1"), await store.get("docs", "h2")]).toEqual([first, second]);
        expect(await store.get("docs", "h3")).toBeUndefined();
        const refreshed = { ...sampleManifest("docs", "h2", "c", 1), fetchedAt: 1_800_000_000_000 };
        await store.put(refreshed);
        expect([await store.get("docs", "h1"), await store.get("docs", "h2")]).toEqual([first, refreshed]);
      }),
    );

    it(
      "keeps 16 manifests per server: the 17th put drops the oldest by fetchedAt, other servers untouched",
      withStore(async ({ store }) => {
        const other = sampleManifest("files", "h0", "f");
        await store.put(other);
        // Put out of fetchedAt order: h6 is the oldest.
        const manifests = Array.from({ length: 17 }, (_, index) => ({
          ...sampleManifest("docs", `h${index}`, `v${index}`, 1),
          fetchedAt: 1_000 + ((index + 11) % 17),
        }));
        for (const manifest of manifests.slice(0, 16)) await store.put(manifest);
        expect(
          (await Promise.all(manifests.slice(0, 16).map((manifest) => store.get("docs", manifest.configHash)))).filter((found) => found === undefined),
        ).toEqual([]);
        await store.put(manifests[16]!);
        const kept = await Promise.all(manifests.map((manifest) => store.get("docs", manifest.configHash)));
        expect(kept.map((found, index) => (found === undefined ? `h${index}` : undefined)).filter((hash) => hash !== undefined)).toEqual(["h6"]);
        expect(kept.filter((found) => found !== undefined)).toEqual(manifests.filter((manifest) => manifest.configHash !== "h6"));
        expect(await store.get("files", "h0")).toEqual(other);
        // Overwriting a kept hash does not drop another.
        await store.put({ ...manifests[3]!, fetchedAt: 5_000 });
        expect((await Promise.all(manifests.map((manifest) => store.get("docs", manifest.configHash)))).filter((found) => found !== undefined)).toHaveLength(
          16,
        );
      }),
    );

    it(
      "keeps servers apart; delete forgets every manifest of one server and is a no-op for an unknown one",
      withStore(async ({ store }) => {
        const docs = sampleManifest("docs", "h1", "a");
        const docsOther = sampleManifest("docs", "h2", "b");
        const files = sampleManifest("files", "h1", "f");
        await store.put(docs);
        await store.put(docsOther);
        await store.put(files);
        expect([await store.get("docs", "h1"), await store.get("files", "h1")]).toEqual([docs, files]);
        await store.delete("docs");
        expect([await store.get("docs", "h1"), await store.get("docs", "h2"), await store.get("files", "h1")]).toEqual([undefined, undefined, files]);
        await store.delete("missing");
        await store.put(docs);
        expect([await store.get("docs", "h1"), await store.get("docs", "h2")]).toEqual([docs, undefined]);
      }),
    );

    it(
      "ends concurrent puts of one server hash with one of them whole, and takes concurrent puts of many hashes and servers",
      withStore(async ({ store }) => {
        const sameHash = Array.from({ length: 6 }, (_, index) => sampleManifest("docs", "h", `v${index}`, 1 + index * 7));
        await Promise.all(sameHash.map((manifest) => store.put(manifest)));
        expect(sameHash).toContainEqual(await store.get("docs", "h"));
        const hashes = Array.from({ length: 6 }, (_, index) => sampleManifest("docs", `h${index}`, `w${index}`, 1 + index * 7));
        await Promise.all(hashes.map((manifest) => store.put(manifest)));
        expect(await Promise.all(hashes.map((manifest) => store.get("docs", manifest.configHash)))).toEqual(hashes);
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
