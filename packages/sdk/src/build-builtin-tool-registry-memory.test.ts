import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Logger, toolResultText } from "@agent-tools/core";
import { InMemoryMemoryIndexStore, KyselyMemoryIndexStore } from "@agent-tools/memory";
import { openSqliteStorage } from "@agent-tools/storage";
import { afterAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-memory-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

function directories() {
  const base = fs.mkdtempSync(path.join(temporary, "case-"));
  fs.mkdirSync(path.join(base, "project"));
  return { workdir: path.join(base, "project"), dataDir: path.join(base, "data") };
}

const write = {
  name: "MemoryManager",
  arguments: { action: "write", slug: "editor-theme", scope: "global", type: "user", description: "Editor theme", body: "Prefers dark mode." },
};

function recordingLogger(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const ignore = () => undefined;
  return { warnings, logger: { debug: ignore, info: ignore, error: ignore, warn: (message) => void warnings.push(message) } };
}

describe("buildBuiltinToolRegistry: MemoryManager", () => {
  it("writes Markdown under <dataDir>/memory and indexes it in the shared SQLite file, in chat, read-write by default", async () => {
    const { workdir, dataDir } = directories();
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir });
    expect(registry.metadataByName.MemoryManager).toEqual({
      groupId: "memory",
      kind: "memory",
      isReadOnly: false,
      displayCategory: "system",
      annotations: { readOnly: false, listedInPlanMode: false },
    });
    const result = await registry.executeToolCall({ id: "1", ...write });
    expect(result.isError).toBe(false);
    expect(toolResultText(result, "")).toBe("Created global/editor-theme (user).");
    expect(fs.readFileSync(path.join(dataDir, "memory", "global", "user", "editor-theme.md"), "utf8")).toContain("Prefers dark mode.");
    await registry.close();

    // The index is in <dataDir>/agent-tools.sqlite, beside the tasks.
    const storage = await openSqliteStorage({ dataDir });
    try {
      const store = await KyselyMemoryIndexStore.open(storage);
      expect((await store.get({ scope: "global", workdirHash: "", slug: "editor-theme" }))?.description).toBe("Editor theme");
    } finally {
      await storage.close();
    }
  });

  it("is read-only in cron by default, read-write when the host says so, and absent with memory: false", async () => {
    const { workdir, dataDir } = directories();
    const chat = await buildBuiltinToolRegistry({ workdir, dataDir });
    await chat.executeToolCall({ id: "1", ...write });
    await chat.close();

    const cron = await buildBuiltinToolRegistry({ workdir, dataDir, runtimeScope: "cron" });
    const refused = await cron.executeToolCall({ id: "2", ...write });
    expect(refused.isError).toBe(true);
    expect(toolResultText(refused, "")).toBe("MemoryManager is read-only in this context.");
    const found = await cron.executeToolCall({ id: "3", name: "MemoryManager", arguments: { action: "search", query: "dark mode" } });
    expect(toolResultText(found, "")).toContain("global/editor-theme");
    await cron.close();

    const cronWriter = await buildBuiltinToolRegistry({ workdir, dataDir, runtimeScope: "cron", memory: { mode: "rw" } });
    expect(cronWriter.metadataByName.MemoryManager?.isReadOnly).toBe(false);
    const appended = await cronWriter.executeToolCall({
      id: "4",
      name: "MemoryManager",
      arguments: { action: "update", slug: "editor-theme", scope: "global", body: "Also in the terminal.", mode: "append" },
    });
    expect(appended.isError).toBe(false);
    await cronWriter.close();

    const without = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false });
    expect(without.hasTool("MemoryManager")).toBe(false);
    await without.close();
  });

  it("uses the host's store and leaves it open", async () => {
    const { workdir, dataDir } = directories();
    const store = new InMemoryMemoryIndexStore();
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: { store } });
    await registry.executeToolCall({ id: "1", ...write });
    await registry.close();
    expect((await store.get({ scope: "global", workdirHash: "", slug: "editor-theme" }))?.type).toBe("user");
  });

  it("with a dataDir under a regular file, says the memory tools are unavailable and what to do, and warns the host once", async () => {
    const file = path.join(temporary, "a-file");
    fs.writeFileSync(file, "not a directory");
    const { workdir } = directories();
    const { logger, warnings } = recordingLogger();
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir: path.join(file, "data"), logger });
    try {
      for (const id of ["1", "2"]) {
        const result = await registry.executeToolCall({ id, name: "MemoryManager", arguments: { action: "list" } });
        expect(result).toMatchObject({ isError: true, details: { code: "unavailable", reason: "data_dir_unwritable", recoverable: false } });
        const text = toolResultText(result, "");
        expect(text).toContain("The memory tools are unavailable: the data directory cannot be written");
        expect(text).toContain("continue without long-term memory and tell the user");
        expect(text).toContain("`memory.store`");
        expect(text).toContain("`memory: false`");
      }
    } finally {
      await registry.close();
    }
    expect(warnings.filter((message) => message.startsWith("Memory tools: The memory tools are unavailable"))).toHaveLength(1);
  });
});
