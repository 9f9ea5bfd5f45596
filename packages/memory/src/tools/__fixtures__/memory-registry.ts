// Shared setup of the memory tool tests: real temp directories, a registry over the memory bundle on a chosen
// index backend, a call helper. Importing it registers cleanup hooks in the importing test file.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ToolRegistry, createToolRegistry, toolResultText } from "@agent-tools/core";
import { afterAll, afterEach } from "vitest";
import { InMemoryMemoryIndexStore } from "../../ports/in-memory-memory-index-store.js";
import type { MemoryIndexStore } from "../../ports/memory-index-store.js";
import type { MemoryManagerDetails } from "../memory-manager-output.js";
import { type MemoryToolBundle, type MemoryToolBundleOptions, createMemoryToolBundle } from "../memory-tool-bundle.js";

/** An index backend the tests run on: opens a store over a directory (reopening the same database when called again). */
export interface MemoryTestBackend {
  readonly name: string;
  open(directory: string): Promise<MemoryIndexStore>;
  /** Removes the database (the "deleted index file" case). */
  wipe(directory: string): Promise<void>;
}

/** The in-memory index; "reopening" a directory gives a fresh, empty index (as a deleted database would). */
export const inMemoryBackend: MemoryTestBackend = {
  name: "in-memory",
  async open() {
    return new InMemoryMemoryIndexStore();
  },
  async wipe() {},
};

const roots: string[] = [];
afterAll(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

const registries: ToolRegistry[] = [];
afterEach(async () => {
  await Promise.all(registries.splice(0).map((registry) => registry.close()));
});

/** A fresh data directory and workdir. */
export function makeDirectories(): { dataDir: string; workdir: string; indexDir: string } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-memory-")));
  roots.push(root);
  const dataDir = path.join(root, "data");
  const workdir = path.join(root, "project");
  const indexDir = path.join(root, "index");
  for (const directory of [dataDir, workdir, indexDir]) fs.mkdirSync(directory, { recursive: true });
  return { dataDir, workdir, indexDir };
}

/** A registry over the memory bundle on `backend`, on `directories` (fresh ones by default). */
export async function setup(
  backend: MemoryTestBackend,
  options: Omit<MemoryToolBundleOptions, "store"> & { directories?: ReturnType<typeof makeDirectories>; scope?: "chat" | "cron" } = {},
) {
  const directories = options.directories ?? makeDirectories();
  const closed: string[] = [];
  const bundle: MemoryToolBundle = createMemoryToolBundle({
    ...options,
    store: async () => {
      const store = await backend.open(directories.indexDir);
      const close = store.close?.bind(store);
      store.close = async () => {
        closed.push("store");
        await close?.();
      };
      return store;
    },
  });
  const registry = createToolRegistry({ workdir: directories.workdir, dataDir: directories.dataDir, runtimeScope: options.scope ?? "chat", bundles: [bundle] });
  registries.push(registry);
  let id = 0;
  const call = async (args: Record<string, unknown>) => {
    const result = await registry.executeToolCall({ id: `call_${(id += 1)}`, name: "MemoryManager", arguments: args });
    const text = toolResultText(result, "");
    return { ...result, text, details: result.details as MemoryManagerDetails & { code?: string } };
  };
  const service = () => bundle.service(fs.realpathSync(directories.workdir), directories.dataDir);
  const memoryRoot = path.join(directories.dataDir, "memory");
  return { directories, bundle, registry, call, service, memoryRoot, closed };
}

/** A valid write of a user entry. */
export function userEntry(slug: string, body: string, extra: Record<string, unknown> = {}) {
  return { action: "write", slug, scope: "global", type: "user", description: `About ${slug}`, body, ...extra };
}
