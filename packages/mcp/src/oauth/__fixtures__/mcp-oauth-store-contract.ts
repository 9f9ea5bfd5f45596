// The contract every McpOAuthStore meets, run on memory, SQLite and PostgreSQL by mcp-oauth-store.test.ts.
import { describe, expect, it } from "vitest";
import type { McpOAuthStore } from "../mcp-oauth-store.js";

export interface McpOAuthStoreContractTarget {
  name: string;
  open(): Promise<{ store: McpOAuthStore; close(): Promise<void> }>;
}

export function runMcpOAuthStoreContract(target: McpOAuthStoreContractTarget): void {
  describe(`McpOAuthStore contract: ${target.name}`, () => {
    const withStore = (run: (store: McpOAuthStore) => Promise<void>) => async () => {
      const opened = await target.open();
      try {
        await run(opened.store);
      } finally {
        await opened.close();
      }
    };
    const a = { serverId: "remote", serverUrl: "https://a.example/mcp" };
    const b = { serverId: "remote", serverUrl: "https://b.example/mcp" };
    const other = { serverId: "other", serverUrl: "https://a.example/mcp" };

    it(
      "loads undefined for a key never saved, returns a saved value byte for byte, and replaces it on save",
      withStore(async (store) => {
        expect(await store.load(a)).toBeUndefined();
        const value = `mcp-oauth:v1:json:${JSON.stringify({ text: "ünïcødé 🚀", long: "x".repeat(20_000) })}`;
        await store.save(a, value);
        expect(await store.load(a)).toBe(value);
        await store.save(a, "second");
        expect(await store.load(a)).toBe("second");
      }),
    );

    it(
      "keeps a server's records per URL and servers apart; delete with a URL removes one record, without one every record of the id",
      withStore(async (store) => {
        await store.save(a, "A");
        await store.save(b, "B");
        await store.save(other, "O");
        expect([await store.load(a), await store.load(b), await store.load(other)]).toEqual(["A", "B", "O"]);
        await store.delete(a);
        expect([await store.load(a), await store.load(b)]).toEqual([undefined, "B"]);
        await store.save(a, "A2");
        await store.delete({ serverId: "remote" });
        expect([await store.load(a), await store.load(b), await store.load(other)]).toEqual([undefined, undefined, "O"]);
        await store.delete({ serverId: "missing" });
      }),
    );

    it(
      "takes concurrent saves of different keys and keeps one of the values of a key saved concurrently",
      withStore(async (store) => {
        const keys = Array.from({ length: 10 }, (_, index) => ({ serverId: `s${index}`, serverUrl: "https://x.example/mcp" }));
        await Promise.all(keys.map((key, index) => store.save(key, `v${index}`)));
        expect(await Promise.all(keys.map((key) => store.load(key)))).toEqual(keys.map((_, index) => `v${index}`));
        await Promise.all(["1", "2", "3"].map((value) => store.save(a, value)));
        expect(["1", "2", "3"]).toContain(await store.load(a));
      }),
    );
  });
}
