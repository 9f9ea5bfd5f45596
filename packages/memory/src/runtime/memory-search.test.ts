import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InMemoryMemoryIndexStore } from "../ports/in-memory-memory-index-store.js";
import type { MemoryIndexStore, MemoryTextQuery } from "../ports/memory-index-store.js";
import { openMemoryService } from "./memory-service.js";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

/** An in-memory store that records every search and list it is asked. */
class RecordingStore extends InMemoryMemoryIndexStore {
  readonly searches: MemoryTextQuery[] = [];
  lists = 0;
  override async search(query: MemoryTextQuery): ReturnType<MemoryIndexStore["search"]> {
    this.searches.push(query);
    return super.search(query);
  }
  override async list(...args: Parameters<MemoryIndexStore["list"]>): ReturnType<MemoryIndexStore["list"]> {
    this.lists += 1;
    return super.list(...args);
  }
}

async function open() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-memory-search-")));
  roots.push(root);
  fs.mkdirSync(path.join(root, "project"));
  const store = new RecordingStore();
  const memory = await openMemoryService({ dataDir: path.join(root, "data"), workdir: path.join(root, "project"), store });
  const write = async (slug: string, description: string, body: string, extra: Record<string, unknown> = {}) => {
    const result = await memory.write({ slug, scope: "global", type: "reference", description, body, ...extra });
    expect(result.ok).toBe(true);
  };
  const slugs = async (query: string) => (await memory.search({ query, limit: 10 })).hits.map((hit) => hit.record.slug);
  return { memory, store, write, slugs };
}

describe("searchMemory through the service", () => {
  it("finds a person by the role words of a relationship question, with no scan", async () => {
    const { memory, store, write, slugs } = await open();
    await write("manager", "Maria Santos is Dan's manager", "weekly one to one");
    await write("editor", "Editor choice", "Neovim with a dark theme");
    store.lists = 0;
    expect(await slugs("who is my boss?")).toEqual(["manager"]);
    const result = await memory.search({ query: "who is my boss?", limit: 10 });
    expect(result.usedFallback).toBe(false);
    expect(store.lists).toBe(0);
  });

  it("lets the stop words order two hits the words alone tie, and find something when nothing else did", async () => {
    const { memory, store, write, slugs } = await open();
    // Same length, same content words: only the stop word "and" tells them apart (the newer one would win a tie).
    await write("b-web-decision", "Web api decision", "web and api live together");
    await write("a-web-notes", "Web api notes", "web api live together here");
    store.searches.length = 0;
    expect(await slugs("why do web and api live together")).toEqual(["b-web-decision", "a-web-notes"]);
    // One word query holds the words and their inflections; the stop-word query the words and the stop words.
    const inflections = ["webs", "webing", "webed", "apis", "apiing", "apied", "lives", "living", "lived", "togethers", "togethering", "togethered"];
    const ownWords = ['"why do web and api live together"', "web", "api", "live", "together"];
    expect(store.searches.map((query) => query.terms)).toContainEqual([...ownWords, ...inflections]);
    expect(store.searches.map((query) => query.terms)).toContainEqual([...ownWords, "why", "do", "and"]);
    // A query of stop words only still finds the entries that hold them, without a scan.
    store.lists = 0;
    const only = await memory.search({ query: "and so", limit: 10 });
    expect(only.hits[0]?.record.slug).toBe("b-web-decision");
    expect(store.lists).toBe(0);
  });

  it("skips the scan when the trigram index already looked for every word, and scans only for the words it could not", async () => {
    const { memory, store, write } = await open();
    await write("odd-token", "Build ids", "The build id is xq7z-42.");
    store.lists = 0;
    const none = await memory.search({ query: "what about zebras", limit: 10 });
    expect(none.hits).toEqual([]);
    expect(store.lists).toBe(0);
    const short = await memory.search({ query: "q7", limit: 10 });
    expect(short.usedFallback).toBe(true);
    expect(short.hits.map((hit) => hit.record.slug)).toEqual(["odd-token"]);
    expect(store.lists).toBe(1);
  });

  it("does not let a three-letter word inside a longer one outrank a word hit", async () => {
    const { write, slugs } = await open();
    await write("lint-setup", "Lint setup", "clippy runs in CI with pedantic lints");
    await write("rust-rewrite", "Rewrote the cli in Rust", "Moved from Go to Rust for static binaries");
    expect(await slugs("why was the CLI ported away from Go?")).toEqual(["rust-rewrite"]);
  });

  it("weighs the preference expansion below the question's own words", async () => {
    const { write, slugs } = await open();
    await write("theme-preference", "Favorite theme preference", "Tokyo Night is the favorite; likes dark themes, prefers them");
    await write("indentation", "Indent width", "Two spaces of indent width everywhere");
    expect((await slugs("what indent width do I prefer"))[0]).toBe("indentation");
    expect((await slugs("which theme do I like"))[0]).toBe("theme-preference");
  });

  it("finds an entry by the inflections of the question's words, below an entry that holds the words themselves", async () => {
    const { write, slugs } = await open();
    await write("hobby-skiing", "Kate's hobby", "Kate started to ski in 2013 and likes it a lot");
    await write("weather", "Weather notes", "Snow in the mountains this week");
    // "hobbies" -> "hobby", "skiing" -> "ski": no word of the question is in the entry as written.
    expect(await slugs("What are Kate's hobbies, is skiing one?")).toEqual(["hobby-skiing"]);
    await write("hobbies-list", "Hobbies", "Her hobbies: skiing and cooking");
    expect(await slugs("hobbies skiing")).toEqual(["hobbies-list", "hobby-skiing"]);
  });

  it("ranks an entry below the hit that supersedes it", async () => {
    const { write, slugs } = await open();
    await write("standup-time", "Standup time", "Standup is at 9:30, standup every day, standup in room 4");
    await write("standup-time-changed", "Standup moved", "From March the standup is at 10:00", { supersedes: "standup-time" });
    expect(await slugs("what time is standup")).toEqual(["standup-time-changed", "standup-time"]);
  });

  it("finds an entry from a whole CJK sentence that shares its key words", async () => {
    const { write, slugs } = await open();
    await write("zh-tea", "喝茶", "我最喜欢喝乌龙茶");
    await write("zh-other", "会议", "周一开会讨论季度报告");
    expect(await slugs("我喜欢喝什么茶？")).toEqual(["zh-tea"]);
    expect((await slugs("季度报告什么时候截止？"))[0]).toBe("zh-other");
  });
});
