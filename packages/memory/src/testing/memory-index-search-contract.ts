import { expect, it } from "vitest";
import { type ContractContext, GLOBAL, fixture, slugs } from "./memory-contract-fixtures.js";

/** Search on the word and the trigram index: terms, phrases, diacritics, CJK, BM25 order, filters. */
export function describeMemoryIndexSearchContract(context: ContractContext): void {
  const { withStore, put, searchSlugs } = context;
  it("searches words: any term, phrases, diacritics, slug and description, limit and filters", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const theme = f.record("theme", { type: "user", description: "Display preferences", body: `The user prefers dark mode in every editor. ${f.word}` });
      const coffee = f.record("coffee", { type: "user", description: "Drinks", body: "Orders a Café crème every morning." });
      const reversed = f.record("reversed", { type: "reference", body: "Mode dark is not what they said; a dark room and a mode switch." });
      const naming = f.record("kubernetes-notes", { description: "Cluster tips", body: "Nothing about the name here." });
      const archived = f.record("archived-coffee", { body: "cafe archived", archived: true });
      const russian = f.record("russian", { body: "Пользователь любит тёмную тему и ελληνικά." });
      await put(store, theme, coffee, reversed, naming, archived, russian);
      const scopes = [f.project];
      expect(await searchSlugs(store, { scopes, index: "words", terms: ["cafe"] })).toEqual([coffee.slug]);
      expect(await searchSlugs(store, { scopes, index: "words", terms: ["CAFÉ"] })).toEqual([coffee.slug]);
      expect(await searchSlugs(store, { scopes, index: "words", terms: ["cafe"], includeArchived: true })).toHaveLength(2);
      expect(await searchSlugs(store, { scopes, index: "words", terms: ['"dark mode"'] })).toEqual([theme.slug]);
      expect((await searchSlugs(store, { scopes, index: "words", terms: ["dark", "mode"] })).sort()).toEqual([reversed.slug, theme.slug].sort());
      expect((await searchSlugs(store, { scopes, index: "words", terms: ["creme", f.word] })).sort()).toEqual([coffee.slug, theme.slug].sort());
      expect(await searchSlugs(store, { scopes, index: "words", terms: ["kubernetes"] })).toEqual([naming.slug]);
      expect(await searchSlugs(store, { scopes, index: "words", terms: ["темную"] })).toEqual([russian.slug]);
      expect(await searchSlugs(store, { scopes, index: "words", terms: ['"тёмную тему"', "ελληνικα"] })).toEqual([russian.slug]);
      expect(await searchSlugs(store, { scopes, index: "words", terms: ["cluster"] })).toEqual([naming.slug]);
      expect(await searchSlugs(store, { scopes, index: "words", terms: ["dark", "mode"], limit: 1 })).toHaveLength(1);
      expect(await searchSlugs(store, { scopes, index: "words", terms: ["dark"], types: ["reference"] })).toEqual([reversed.slug]);
      expect(await searchSlugs(store, { scopes: [GLOBAL, fixture().project], index: "words", terms: [f.word] })).toEqual([]);
      expect(await searchSlugs(store, { scopes, index: "words", terms: ["absentword"] })).toEqual([]);
      expect(await searchSlugs(store, { scopes, index: "words", terms: [] })).toEqual([]);
      const [hit] = await store.search({ scopes, index: "words", terms: [f.word], limit: 8 });
      expect(hit?.record).toEqual(theme);
      expect(Number.isFinite(hit?.bm25)).toBe(true);
    });
  });

  it("searches substrings on the trigram index, with diacritics folded and filters applied", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const windows = f.record("windows", { body: "Builds on Windows with PowerShell." });
      const cafe = f.record("cafe", { body: "Le Café de Flore" });
      const global = f.global("global-windows", { body: `Windowsill plants ${f.word}` });
      await put(store, windows, cafe, global);
      const scopes = [f.project];
      expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["indow"] })).toEqual([windows.slug]);
      expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["power"] })).toEqual([windows.slug]);
      expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["cafe de"] })).toEqual([cafe.slug]);
      expect((await searchSlugs(store, { scopes, index: "trigram", terms: ["flore", "shell"] })).sort()).toEqual([cafe.slug, windows.slug].sort());
      expect(
        (await searchSlugs(store, { scopes: [GLOBAL, f.project], index: "trigram", terms: ["windows"] })).filter((slug) => slug.startsWith(f.prefix)).sort(),
      ).toEqual([global.slug, windows.slug].sort());
      expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["windows"], types: ["user"] })).toEqual([]);
      expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["zzzzq"] })).toEqual([]);
    });
  });

  it("takes LIKE and FTS syntax in terms literally", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const odd = f.record("odd", { body: 'Rate is 100% for C:\\tmp\\x_y, a "quoted" *star* (NEAR) OR AND' });
      const plain = f.record("plain", { body: "Rate is 1000 for tmp xay, a quoted star near or and" });
      await put(store, odd, plain);
      const scopes = [f.project];
      expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["100%"] })).toEqual([odd.slug]);
      expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["0%"] })).toEqual([odd.slug]);
      expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["x_y"] })).toEqual([odd.slug]);
      expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["\\tmp"] })).toEqual([odd.slug]);
      expect(await searchSlugs(store, { scopes, index: "trigram", terms: ['"quoted" *star*'] })).toEqual([odd.slug]);
      expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["(near)"] })).toEqual([odd.slug]);
      expect((await searchSlugs(store, { scopes, index: "words", terms: ["*star*", "NEAR", "or"] })).sort()).toEqual([odd.slug, plain.slug].sort());
      expect(await searchSlugs(store, { scopes, index: "words", terms: ['"tmp xay"'] })).toEqual([plain.slug]);
    });
  });

  it("finds Chinese and Japanese text by two- and three-character queries on the trigram index", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const chinese = f.record("chinese", { body: "用户喜欢使用深色模式来保护眼睛" });
      const japanese = f.record("japanese", { body: "ユーザーはダークモードを使っています" });
      const english = f.record("english", { body: "Plain English text." });
      await put(store, chinese, japanese, english);
      const scopes = [f.project];
      expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["深色"] })).toEqual([chinese.slug]);
      expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["深色模式"] })).toEqual([chinese.slug]);
      expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["使っ"] })).toEqual([japanese.slug]);
      expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["モード"] })).toEqual([japanese.slug]);
      expect((await searchSlugs(store, { scopes, index: "trigram", terms: ["眼睛", "モード"] })).sort()).toEqual([chinese.slug, japanese.slug].sort());
      expect(await searchSlugs(store, { scopes, index: "trigram", terms: ["日本"] })).toEqual([]);
    });
  });

  it("ranks by BM25: more occurrences of a rare term come first, with a lower bm25", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const padding = "alpha beta gamma delta epsilon zeta eta theta iota kappa";
      const once = f.record("once", { body: `${f.word} ${padding} lambda mu nu`, updatedAt: 900 });
      const thrice = f.record("thrice", { body: `${f.word} ${padding} ${f.word} ${f.word}`, updatedAt: 100 });
      const none = f.record("none", { body: padding });
      await put(store, once, thrice, none);
      for (const index of ["words", "trigram"] as const) {
        const hits = await store.search({ scopes: [f.project], index, terms: [f.word], limit: 8 });
        expect(slugs(hits.map((hit) => hit.record)), index).toEqual([thrice.slug, once.slug]);
        expect(hits[0]!.bm25, index).toBeLessThan(hits[1]!.bm25);
      }
    });
  });
}
