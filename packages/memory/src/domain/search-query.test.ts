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
  it("puts the whole query first as a phrase, then the words minus stop words; stop words apart", () => {
    expect(buildMemorySearchTerms("The dark mode of VS Code")).toEqual({
      words: ['"the dark mode of vs code"', "dark", "mode", "vs", "code"],
      // "VS" and "Code" are written with capitals after the first word: names, not inflected.
      inflections: ["darks", "darking", "darked", "modes", "moding", "moded"],
      expansions: [],
      stopWords: ["the", "of"],
      trigram: ["dark", "mode", "code"],
      scan: ["dark", "mode", "code"],
      hasCjk: false,
    });
  });

  it("adds the regular inflections of the words, not of names, stop words or single letters", () => {
    const terms = buildMemorySearchTerms("What are Kate's hobbies?");
    expect(terms.words).toEqual(['"what are kate s hobbies"', "kate", "hobbies"]);
    expect(terms.inflections).toEqual(["hobby"]);
    expect(terms.stopWords).toEqual(["what", "are", "s"]);
    expect(buildMemorySearchTerms("when did Elise start skiing").inflections).toEqual(["starts", "starting", "started", "skiings", "ski"]);
    // The first word's capital is the question's, not a name's.
    expect(buildMemorySearchTerms("Hobbies of Kate").inflections).toEqual(["hobby"]);
    expect(buildMemorySearchTerms("I don't like it").words).toEqual(['"i don t like it"', "don", "like"]);
  });

  it("has no phrase for a single word", () => {
    expect(buildMemorySearchTerms("Deploy!").words).toEqual(["deploy"]);
  });

  it("keeps a query of stop words only for the stop-word query", () => {
    expect(buildMemorySearchTerms("the").words).toEqual([]);
    expect(buildMemorySearchTerms("the").stopWords).toEqual(["the"]);
    expect(buildMemorySearchTerms("who is my boss").stopWords).toEqual(["who", "is", "my"]);
  });

  it("returns nothing for an empty or punctuation-only query", () => {
    expect(buildMemorySearchTerms("  ?! ")).toEqual({ words: [], inflections: [], expansions: [], stopWords: [], trigram: [], scan: [], hasCjk: false });
  });

  it("keeps the expansions of identity questions apart from the words", () => {
    const terms = buildMemorySearchTerms("Who am I?");
    expect(terms.words).toEqual(['"who am i"']);
    expect(terms.expansions).toEqual(["name", "identity", "called", "user", "profile"]);
    expect(buildMemorySearchTerms("what's my name").expansions).toContain("identity");
  });

  it("keeps the expansions of preference questions apart, without the query's own words", () => {
    const terms = buildMemorySearchTerms("What do I prefer for editors?");
    expect(terms.words).toEqual(['"what do i prefer for editors"', "prefer", "editors"]);
    expect(terms.expansions).toEqual(expect.arrayContaining(["preference", "favorite", "likes"]));
    expect(terms.expansions).not.toContain("prefer");
    expect(buildMemorySearchTerms("favourite colour").expansions).toContain("preference");
    expect(buildMemorySearchTerms("things I like").expansions).toContain("prefer");
  });

  it("expands questions about the people around the user to their relationship and role words", () => {
    expect(buildMemorySearchTerms("who is my boss?").expansions).toEqual(["manager", "supervisor", "lead"]);
    expect(buildMemorySearchTerms("who do I report to").expansions).toContain("manager");
    expect(buildMemorySearchTerms("who is my manager").expansions).toEqual(["boss", "supervisor", "lead"]);
    expect(buildMemorySearchTerms("which colleague owns billing").expansions).toEqual(expect.arrayContaining(["coworker", "teammate", "teammates"]));
    expect(buildMemorySearchTerms("my co-workers").expansions).toContain("colleague");
    expect(buildMemorySearchTerms("what is my wife's name").expansions).toEqual(expect.arrayContaining(["partner", "husband", "spouse"]));
    // A package manager or a lead pipe is no person.
    expect(buildMemorySearchTerms("which package manager do we use").expansions).toEqual([]);
    expect(buildMemorySearchTerms("lead the migration").expansions).toEqual([]);
  });

  it("drops stop words and words of one or two letters from the scan, keeps short words with a digit and punctuation inside", () => {
    expect(buildMemorySearchTerms("is my Node.js in q7 ok?").scan).toEqual(["node.js", "q7"]);
    expect(buildMemorySearchTerms("i in my").scan).toEqual([]);
  });

  it("does not expand unrelated queries", () => {
    for (const expansion of MEMORY_QUERY_EXPANSIONS) expect(expansion.pattern.test("deploy the likelihood model")).toBe(false);
    expect(MEMORY_QUERY_EXPANSIONS.map((expansion) => expansion.id)).toEqual(["identity", "preference", "work", "manager", "colleague", "partner"]);
    expect(buildMemorySearchTerms("deploy the likelihood model").words).toEqual(['"deploy the likelihood model"', "deploy", "likelihood", "model"]);
    expect(buildMemorySearchTerms("deploy the likelihood model").expansions).toEqual([]);
  });

  it("detects CJK and gives its runs as trigram terms", () => {
    const terms = buildMemorySearchTerms("東京の天気 weather");
    expect(terms.hasCjk).toBe(true);
    expect(terms.trigram).toEqual(["東京の天気", "東京の", "京の天", "の天気", "東京", "天気", "weather"]);
    expect(buildMemorySearchTerms("サーバ").trigram).toEqual(["サーバ"]);
    expect(buildMemorySearchTerms("abc日本xy").trigram).toEqual(["日本", "abc"]);
  });

  it("splits a CJK sentence into overlapping trigrams and Han bigrams, so its key words are looked for", () => {
    const terms = buildMemorySearchTerms("我喜欢喝什么茶？").trigram;
    expect(terms[0]).toBe("我喜欢喝什么茶");
    expect(terms).toEqual(expect.arrayContaining(["喜欢喝", "什么茶", "喜欢", "么茶"]));
    // Kana-only pairs are not key words.
    expect(buildMemorySearchTerms("京都旅行はいつですか").trigram).toEqual(expect.arrayContaining(["京都旅", "京都", "旅行"]));
    expect(buildMemorySearchTerms("京都旅行はいつですか").trigram).not.toContain("です");
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
