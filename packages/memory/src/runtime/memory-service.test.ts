import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MEMORY_LIMITS } from "../domain/memory-types.js";
import { InMemoryMemoryIndexStore } from "../ports/in-memory-memory-index-store.js";
import type { MemoryIndexStore } from "../ports/memory-index-store.js";
import { openMemoryService } from "./memory-service.js";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

function directories() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-memory-service-")));
  roots.push(root);
  fs.mkdirSync(path.join(root, "project"));
  return { dataDir: path.join(root, "data"), workdir: path.join(root, "project"), memory: path.join(root, "data", "memory") };
}

/** A store whose applyBatch fails (throws or reports a conflict) while `failing` says so. */
class FlakyStore extends InMemoryMemoryIndexStore {
  failing: "throw" | "conflict" | undefined;
  override async applyBatch(...args: Parameters<MemoryIndexStore["applyBatch"]>): ReturnType<MemoryIndexStore["applyBatch"]> {
    if (this.failing === "throw") throw new Error("disk I/O error");
    if (this.failing === "conflict")
      return { ok: false, conflicts: [{ key: args[0][0]!.kind === "upsert" ? args[0][0]!.record : args[0][0]!.key, actualUpdatedAt: 1 }] };
    return super.applyBatch(...args);
  }
}

const entry = (slug: string, body: string) => ({ slug, scope: "global", type: "reference", description: `About ${slug}`, body });

describe("MemoryService: the daily journal", () => {
  it("appends to today's global journal, rolling over at 04:00, outside the quota", async () => {
    const dirs = directories();
    let now = Date.UTC(2026, 2, 5, 3, 59);
    const memory = await openMemoryService({ ...dirs, store: new InMemoryMemoryIndexStore(), now: () => now, timeZone: "UTC", entriesPerScope: 1 });
    const first = await memory.appendDaily("Shipped the parser.");
    expect(first).toMatchObject({ ok: true, outcome: "appended", slug: "daily-2026-03-04", scope: "global" });
    now = Date.UTC(2026, 2, 5, 4, 0);
    await memory.appendDaily("Reviewed the docs.");
    await memory.appendDaily("Fixed the flaky test.");
    const file = fs.readFileSync(path.join(dirs.memory, "global", "daily", "2026-03-05.md"), "utf8");
    expect(file).toContain('type: "daily"');
    expect(file).toContain('date_local: "2026-03-05"');
    expect(file.endsWith("- 04:00 Reviewed the docs.\n- 04:00 Fixed the flaky test.\n")).toBe(true);
    const record = await memory.store.get({ scope: "global", workdirHash: "", slug: "daily-2026-03-05" });
    expect(record).toMatchObject({ type: "daily", dateLocal: "2026-03-05", appendCount: 2 });
    // Journals do not count: the one-entry quota still admits a write.
    expect((await memory.write(entry("only-entry", "x"))).ok).toBe(true);
    expect((await memory.list()).items.map((item) => item.record.slug)).toEqual(["only-entry"]);
    expect((await memory.list({ includeDaily: true })).total).toBe(3);
    expect((await memory.list({ filterType: "daily" })).items.map((item) => item.record.slug)).toEqual(["daily-2026-03-05", "daily-2026-03-04"]);
    const written = await memory.write({ ...entry("daily-2026-03-05", "x"), type: "daily" });
    expect(written).toMatchObject({ ok: false, error: { message: expect.stringContaining("daily journals are append-managed") } });
    const updated = await memory.update({ slug: "daily-2026-03-05", scope: "global", body: "x" });
    expect(updated).toMatchObject({ ok: false, error: { error: "daily_not_writable" } });
  });

  it("warns past 28 KB and refuses past 32 KB", async () => {
    const dirs = directories();
    const memory = await openMemoryService({ ...dirs, store: new InMemoryMemoryIndexStore(), now: () => Date.UTC(2026, 0, 1, 12), timeZone: "UTC" });
    const line = "x".repeat(1000);
    let warned: string | undefined;
    for (let index = 0; index < 29; index += 1) {
      const result = await memory.appendDaily(line);
      if (!result.ok) throw new Error(JSON.stringify(result.error));
      warned = result.warning;
    }
    expect(warned).toMatch(/holds \d+ of 32768 bytes/);
    for (let index = 0; index < 3; index += 1) await memory.appendDaily(line);
    const refused = await memory.appendDaily(line);
    expect(refused).toMatchObject({ ok: false, error: { error: "body_too_large" } });
    expect((await memory.appendDaily("   ")).ok).toBe(false);
    const size = Buffer.byteLength((await memory.store.get({ scope: "global", workdirHash: "", slug: "daily-2026-01-01" }))!.body);
    expect(size).toBeLessThanOrEqual(MEMORY_LIMITS.dailyBodyBytes);
  });

  it("archives journals older than 90 days on open", async () => {
    const dirs = directories();
    let now = Date.UTC(2026, 0, 1, 12);
    const store = new InMemoryMemoryIndexStore();
    const memory = await openMemoryService({ ...dirs, store, now: () => now, timeZone: "UTC" });
    await memory.appendDaily("Old day.");
    now = Date.UTC(2026, 3, 5, 12);
    await memory.appendDaily("Today.");
    const reopened = await openMemoryService({ ...dirs, store, now: () => now, timeZone: "UTC" });
    expect((await reopened.list({ includeDaily: true })).items.map((item) => item.record.slug)).toEqual(["daily-2026-04-05"]);
    const archived = await reopened.list({ includeDaily: true, includeArchived: true });
    expect(archived.items.find((item) => item.record.slug === "daily-2026-01-01")?.record.archived).toBe(true);
  });
});

describe("MemoryService: the index and the files never disagree after an answer", () => {
  it("puts the file back when the index fails or refuses a change", async () => {
    const dirs = directories();
    const store = new FlakyStore();
    const memory = await openMemoryService({ ...dirs, store });
    const file = path.join(dirs.memory, "global", "kept-entry.md");
    store.failing = "throw";
    await expect(memory.write(entry("kept-entry", "first"))).rejects.toThrow("The memory change was not saved: disk I/O error");
    expect(fs.existsSync(file)).toBe(false);
    store.failing = undefined;
    await memory.write(entry("kept-entry", "first"));
    const before = fs.readFileSync(file, "utf8");
    store.failing = "conflict";
    const refused = await memory.update({ slug: "kept-entry", scope: "global", body: "second" });
    expect(refused).toMatchObject({ ok: false, error: { error: "conflict", message: expect.stringContaining("global/kept-entry") } });
    expect(fs.readFileSync(file, "utf8")).toBe(before);
    store.failing = "throw";
    await expect(memory.delete({ slug: "kept-entry", scope: "global" })).rejects.toThrow("not saved");
    expect(fs.readFileSync(file, "utf8")).toBe(before);
    // A type change moves the file between global/ and global/user/; a failure moves it back.
    await expect(memory.update({ slug: "kept-entry", scope: "global", type: "user" })).rejects.toThrow("not saved");
    expect(fs.readFileSync(file, "utf8")).toBe(before);
    expect(fs.existsSync(path.join(dirs.memory, "global", "user", "kept-entry.md"))).toBe(false);
  });

  it("keeps the newer of two files of one global slug (a move cut short by a crash) and removes the other", async () => {
    const dirs = directories();
    const store = new InMemoryMemoryIndexStore();
    const memory = await openMemoryService({ ...dirs, store });
    await memory.write({ ...entry("moved-entry", "old body"), type: "user" });
    const older = path.join(dirs.memory, "global", "user", "moved-entry.md");
    const newer = path.join(dirs.memory, "global", "moved-entry.md");
    fs.writeFileSync(newer, fs.readFileSync(older, "utf8").replace('type: "user"', 'type: "reference"').replace("old body", "new body"));
    fs.utimesSync(older, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const reopened = await openMemoryService({ ...dirs, store });
    expect(fs.existsSync(older)).toBe(false);
    const read = await reopened.read({ slug: "moved-entry", scope: "global" });
    expect(read.ok && [read.record.type, read.lines]).toEqual(["reference", ["new body"]]);
    const record = await store.get({ scope: "global", workdirHash: "", slug: "moved-entry" });
    expect(record?.body).toBe("new body");
    // A change made while both files exist removes the older one too.
    fs.writeFileSync(older, fs.readFileSync(newer, "utf8"));
    fs.utimesSync(older, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    await reopened.update({ slug: "moved-entry", scope: "global", body: "newest body" });
    expect(fs.existsSync(older)).toBe(false);
  });

  it("leaves no lock or temporary file behind", async () => {
    const dirs = directories();
    const memory = await openMemoryService({ ...dirs, store: new InMemoryMemoryIndexStore() });
    await memory.write(entry("tidy-entry", "x"));
    await memory.write({ ...entry("tidy-user", "x"), type: "user" });
    await memory.delete({ slug: "tidy-entry", scope: "global" });
    const names = [...fs.readdirSync(path.join(dirs.memory, "global")), ...fs.readdirSync(path.join(dirs.memory, "global", "user"))];
    expect(names.sort()).toEqual(["daily", "tidy-user.md", "user"]);
  });
});

describe("MemoryService.applyBatch (the extractor's plans)", () => {
  it("checks every item, applies the valid ones in one batch as unreviewed, and reports by plan index", async () => {
    const dirs = directories();
    const memory = await openMemoryService({ ...dirs, store: new InMemoryMemoryIndexStore(), timeZone: "UTC" });
    await memory.write(entry("known-entry", "Line one."));
    await memory.write(entry("to-delete", "bye"));
    const result = await memory.applyBatch(
      [
        {
          index: 0,
          action: "write",
          slug: "new-fact",
          scope: "global",
          type: "user",
          description: "A fact",
          body: "Likes tea.",
          mode: "merge",
          confidence: "high",
          sourceQuote: "I like tea",
        },
        { index: 1, action: "update", slug: "known-entry", scope: "global", body: "Line one.\nLine two.", mode: "merge" },
        {
          index: 2,
          action: "write",
          slug: "secret-entry",
          scope: "global",
          type: "user",
          description: "Key",
          body: "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
          mode: "merge",
        },
        { index: 3, action: "delete", slug: "to-delete", scope: "global", mode: "merge" },
        { index: 4, action: "append_daily", scope: "global", body: "Talked about tea.", mode: "merge" },
        { index: 5, action: "accept", slug: "missing-entry", scope: "global", mode: "merge" },
        { index: 6, action: "write", slug: "project-fact", scope: "project", type: "project", description: "Build", body: "Uses pnpm.", mode: "merge" },
      ],
      { actor: "extractor", conversationId: "conv-1" },
    );
    expect(result.applied).toBe(5);
    expect(result.results.map((item) => [item.index, item.ok, item.error?.error])).toEqual([
      [0, true, undefined],
      [1, true, undefined],
      [2, false, "risk_hard_blocked"],
      [3, true, undefined],
      [4, true, undefined],
      [5, false, "not_found"],
      [6, true, undefined],
    ]);
    const fact = await memory.store.get({ scope: "global", workdirHash: "", slug: "new-fact" });
    expect(fact).toMatchObject({ unreviewed: true, source: { confidence: "high", conversationId: "conv-1" } });
    const known = await memory.read({ slug: "known-entry", scope: "global" });
    expect(known.ok && known.lines).toEqual(["Line one.", "Line two."]);
    expect(known.ok && known.record.unreviewed).toBe(true);
    expect(await memory.store.get({ scope: "global", workdirHash: "", slug: "to-delete" })).toBeUndefined();
    const audit = await memory.store.audit({ slug: "to-delete", limit: 1 });
    expect(audit[0]).toMatchObject({ op: "delete", actor: "extractor", detail: { batch: true } });
    expect((await memory.read({ slug: "project-fact", scope: "project" })).ok).toBe(true);
  });

  it("is all or nothing when the index batch fails: every written file is put back", async () => {
    const dirs = directories();
    const store = new FlakyStore();
    const memory = await openMemoryService({ ...dirs, store });
    await memory.write(entry("stays-same", "original"));
    const before = fs.readFileSync(path.join(dirs.memory, "global", "stays-same.md"), "utf8");
    store.failing = "throw";
    const result = await memory.applyBatch(
      [
        { action: "write", slug: "never-kept", scope: "global", type: "reference", description: "d", body: "b", mode: "merge" },
        { action: "update", slug: "stays-same", scope: "global", body: "changed", mode: "replace" },
      ],
      { actor: "extractor" },
    );
    expect(result.applied).toBe(0);
    expect(result.results.every((item) => !item.ok && item.error?.error === "io")).toBe(true);
    expect(fs.existsSync(path.join(dirs.memory, "global", "never-kept.md"))).toBe(false);
    expect(fs.readFileSync(path.join(dirs.memory, "global", "stays-same.md"), "utf8")).toBe(before);
  });

  it("counts the quota across the batch", async () => {
    const dirs = directories();
    const memory = await openMemoryService({ ...dirs, store: new InMemoryMemoryIndexStore(), entriesPerScope: 2 });
    await memory.write(entry("existing-one", "x"));
    const write = (slug: string) => ({
      action: "write" as const,
      slug,
      scope: "global" as const,
      type: "reference" as const,
      description: "d",
      body: "b",
      mode: "merge" as const,
    });
    const result = await memory.applyBatch([write("batch-one"), write("batch-two"), write("existing-one")], { actor: "extractor" });
    expect(result.results.map((item) => item.error?.error)).toEqual([undefined, "quota_exceeded", undefined]);
  });
});
