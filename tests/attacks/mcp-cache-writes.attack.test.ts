/**
 * Issue 39, manifest cache writes (finding F12 of the attack round, kept as
 * a guard since its fix): a burst of tools/list_changed does not write a
 * whole manifest per notification.
 */
import type { McpManifest, McpManifestStore } from "@agent-tools/core/mcp";
import { afterAll, describe, expect, it } from "vitest";
import { attackRoot, call, eventually, recordedRequests, withHostileRegistry } from "./mcp-hostile-harness.js";

const root = attackRoot("attack-mcp-cache-writes-");
afterAll(() => root.cleanup());

/** An in-memory store (one manifest per server) that counts what is written to it. */
class CountingStore implements McpManifestStore {
  puts = 0;
  bytes = 0;
  private readonly rows = new Map<string, string>();
  async get(serverId: string, configHash: string): Promise<McpManifest | undefined> {
    const row = this.rows.get(serverId);
    const manifest = row === undefined ? undefined : (JSON.parse(row) as McpManifest);
    return manifest?.configHash === configHash ? manifest : undefined;
  }
  async put(manifest: McpManifest): Promise<void> {
    const body = JSON.stringify(manifest);
    this.puts += 1;
    this.bytes += body.length;
    this.rows.set(manifest.serverId, body);
  }
  async delete(serverId: string): Promise<void> {
    this.rows.delete(serverId);
  }
}

describe("attack: tools/list_changed floods and the manifest store", () => {
  it("(was F12) 100 list_changed notifications of a 60 KB listing do not write 100 manifests", async () => {
    const store = new CountingStore();
    await withHostileRegistry(
      {
        root: root.dir,
        label: "flood",
        behaviour: { listChangedOnCall: 100, padTools: 300 },
        mcp: { manifestCache: store },
      },
      async ({ registry, records }) => {
        expect((await call(registry, "mcp_hostile_peek", {})).text).toContain("peeked");
        // The server was re-listed after its notifications (coalesced or not).
        expect(await eventually(() => recordedRequests(records).filter((method) => method === "tools/list").length >= 2, 200)).toBe(true);
        await eventually(() => store.puts > 10, 60);
        // Coalesced writes: a handful per burst, not one per notification (each is a whole manifest: 100 x 60 KB here,
        // n x 4 MiB on a larger server, for as long as it keeps notifying).
        expect(store.puts).toBeLessThanOrEqual(10);
      },
    );
  });
});
