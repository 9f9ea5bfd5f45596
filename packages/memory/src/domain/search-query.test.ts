import { describe, expect, it } from "vitest";
import { buildMemorySearchTerms, hasCjkText, MEMORY_QUERY_EXPANSIONS, normalizeSearchText } from "./search-query.js";

describe("normalizeSearchText", () => {
  it("lower-cases, strips Latin diacritics, folds full-width forms and drops punctuation", () => {
    expect(normalizeSearchText("  Café, NAÏVE! Ｄａｒｋ-mode? ")).toBe("cafe naive dark mode");
  });
  it("keeps kana voice marks and Hangul syllables whole", () => {
    expect(normalizeSearchText("がぎ 한국어")).toBe("がぎ 한국어");
  });
});

describe("buildMemorySearchTerms", () => {
  it("puts the whole query first as a phrase, then the words minus stop words", () => {
    expect(buildMemorySearchTerms("The dark mode of VS Code")).toEqual({
      words: ['"the dark mode of vs code"', "dark", "mode", "vs", "code"],
      trigram: ["dark", "mode", "code"],
      hasCjk: false,
    });
  });

  it("has no phrase for a single word", () => {
    expect(buildMemorySearchTerms("Deploy!").words).toEqual(["deploy"]);
  });

  it("keeps stop words when nothing else is left", () => {
    expect(buildMemorySearchTerms("the").words).toEqual(["the"]);
  });

  it("returns nothing for an empty or punctuation-only query", () => {
    expect(buildMemorySearchTerms("  ?! ")).toEqual({ words: [], trigram: [], hasCjk: false });
  });

  it("expands identity questions", () => {
    const terms = buildMemorySearchTerms("Who am I?");
    expect(terms.words).toEqual(['"who am i"', "who", "am", "i", "name", "identity", "called", "user", "profile"]);
    expect(buildMemorySearchTerms("what's my name").words).toContain("identity");
  });

  it("expands preference questions", () => {
    const terms = buildMemorySearchTerms("What do I prefer for editors?");
    expect(terms.words.slice(0, 3)).toEqual(['"what do i prefer for editors"', "prefer", "editors"]);
    expect(terms.words).toEqual(expect.arrayContaining(["preference", "favorite", "likes"]));
    expect(new Set(terms.words).size).toBe(terms.words.length);
    expect(buildMemorySearchTerms("favourite colour").words).toContain("preference");
    expect(buildMemorySearchTerms("things I like").words).toContain("prefer");
  });

  it("does not expand unrelated queries", () => {
    for (const expansion of MEMORY_QUERY_EXPANSIONS) expect(expansion.pattern.test("deploy the likelihood model")).toBe(false);
    expect(buildMemorySearchTerms("deploy the likelihood model").words).toEqual(['"deploy the likelihood model"', "deploy", "likelihood", "model"]);
  });

  it("detects CJK and gives its runs as trigram terms", () => {
    const terms = buildMemorySearchTerms("東京の天気 weather");
    expect(terms.hasCjk).toBe(true);
    expect(terms.trigram).toEqual(["東京の天気", "weather"]);
    expect(buildMemorySearchTerms("サーバー設定").trigram).toEqual(["サーバー設定"]);
    expect(buildMemorySearchTerms("abc日本xy").trigram).toEqual(["日本", "abc"]);
  });

  it.each([
    ["漢字", true],
    ["ひらがな", true],
    ["カタカナ", true],
    ["한국어", true],
    ["plain latin", false],
    ["Ελληνικά кириллица", false],
  ])("hasCjk %j -> %s", (text, expected) => {
    expect(hasCjkText(text)).toBe(expected);
    expect(buildMemorySearchTerms(text).hasCjk).toBe(expected);
  });
});
