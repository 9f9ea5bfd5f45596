import type { McpManifest, McpManifestStore } from "@agent-tools/core/mcp";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { McpServerConnection } from "../server-connection.js";
import type { McpServerConfig } from "../settings.js";
import { McpManifestBook } from "./manifest-book.js";
import { singleFlightWithFollowUp } from "./relist-once.js";

/** A store that records every put (server id and the listing's tag) and can hold puts until released. */
class CountingStore implements McpManifestStore {
  readonly puts: string[] = [];
  readonly rows = new Map<string, McpManifest>();
  private gate: Promise<void> | undefined;
  private open: (() => void) | undefined;
  hold(): void {
    this.gate = new Promise((resolve) => {
      this.open = resolve;
    });
  }
  release(): void {
    this.open?.();
    this.gate = undefined;
  }
  async get(serverId: string, configHash: string): Promise<McpManifest | undefined> {
    const row = this.rows.get(`${serverId}\n${configHash}`);
    return row === undefined ? undefined : structuredClone(row);
  }
  async put(manifest: McpManifest): Promise<void> {
    this.puts.push(`${manifest.serverId}:${manifest.tools[0]?.description}`);
    await this.gate;
    this.rows.set(`${manifest.serverId}\n${manifest.configHash}`, structuredClone(manifest));
  }
  async delete(serverId: string): Promise<void> {
    for (const key of this.rows.keys()) if (key.startsWith(`${serverId}\n`)) this.rows.delete(key);
  }
}

/** A connection of server `id` whose live listing is one tool described `tag`. */
function listing(id: string, tag: string): McpServerConnection {
  const config: McpServerConfig = { id, transport: "stdio", command: "server", args: [] } as McpServerConfig;
  return { config, tools: [{ name: "t", description: tag, inputSchema: { type: "object" } }], listedAt: 1 } as unknown as McpServerConnection;
}

const stored = async (store: CountingStore, book: McpManifestBook, id: string) => {
  const config = listing(id, "").config;
  const held = book.held(config);
  return held && (await store.get(id, held.configHash))?.tools[0]?.description;
};

afterEach(() => {
  vi.useRealTimers();
});

describe("McpManifestBook: coalesced puts", () => {
  it("writes a burst of 100 listings of one server as two puts (the first and the newest), the newest stored", async () => {
    const store = new CountingStore();
    const book = new McpManifestBook({ store, writeIntervalMs: 3_600_000 });
    for (let index = 0; index < 100; index += 1) {
      expect(book.record(listing("docs", `v${index}`))).toBe(true);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(store.puts).toEqual(["docs:v0"]);
    await book.flush();
    expect(store.puts).toEqual(["docs:v0", "docs:v99"]);
    expect(await stored(store, book, "docs")).toBe("v99");
    await book.flush();
    expect(store.puts).toHaveLength(2);
  });

  it("writes only the newest listing that arrived while a put was in flight, and keeps servers apart", async () => {
    const store = new CountingStore();
    const book = new McpManifestBook({ store, writeIntervalMs: 0 });
    store.hold();
    book.record(listing("docs", "a0"));
    await new Promise((resolve) => setImmediate(resolve));
    for (const tag of ["a1", "a2", "a3"]) book.record(listing("docs", tag));
    book.record(listing("files", "f0"));
    store.release();
    await book.flush();
    expect(store.puts).toEqual(["docs:a0", "docs:a3", "files:f0"]);
    expect([await stored(store, book, "docs"), await stored(store, book, "files")]).toEqual(["a3", "f0"]);
  });

  it("writes the waiting listing at the end of the server's interval without a flush", async () => {
    vi.useFakeTimers();
    const store = new CountingStore();
    const book = new McpManifestBook({ store, writeIntervalMs: 1_000 });
    book.record(listing("docs", "first"));
    await vi.advanceTimersByTimeAsync(0);
    book.record(listing("docs", "second"));
    book.record(listing("docs", "third"));
    await vi.advanceTimersByTimeAsync(0);
    expect(store.puts).toEqual(["docs:first"]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(store.puts).toEqual(["docs:first", "docs:third"]);
  });

  it("logs a failing put and goes on with the next one", async () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (message: string) => warnings.push(message), error() {} };
    const store = new CountingStore();
    const failing = Object.assign(Object.create(store) as CountingStore, {
      put: async (manifest: McpManifest) => {
        if (manifest.serverId === "bad") throw new Error("disk full");
        return store.put(manifest);
      },
    });
    const book = new McpManifestBook({ store: failing, writeIntervalMs: 0, logger });
    book.record(listing("bad", "x"));
    book.record(listing("docs", "y"));
    await book.flush();
    expect(warnings).toEqual([expect.stringContaining("storing bad failed (disk full)")]);
    expect(store.puts).toEqual(["docs:y"]);
  });
});

describe("singleFlightWithFollowUp (list_changed re-lists)", () => {
  it("runs once for a trigger, and once more after it however many triggers arrive during it", async () => {
    let runs = 0;
    let finish: (() => void) | undefined;
    const trigger = singleFlightWithFollowUp(async () => {
      runs += 1;
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
    });
    const first = trigger();
    const during = Array.from({ length: 100 }, () => trigger());
    expect(runs).toBe(1);
    finish?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toBe(2);
    finish?.();
    await Promise.all([first, ...during]);
    expect(runs).toBe(2);
    const later = trigger();
    expect(runs).toBe(3);
    finish?.();
    await later;
  });
});
