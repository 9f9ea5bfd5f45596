import { describe, expect, it } from "vitest";
import { tokenise } from "./tokenise.js";

describe("tokenise", () => {
  it("lower-cases and folds diacritics and ligatures", () => {
    expect(tokenise("Zoë met Ångström at the Café in Łódź; straße, Æsir")).toEqual([
      "zoe",
      "met",
      "angstrom",
      "at",
      "the",
      "cafe",
      "in",
      "lodz",
      "strasse",
      "aesir",
    ]);
  });

  it("reduces possessives and contractions to their stems, with straight or curly apostrophes", () => {
    expect(tokenise("Kate's dog isn't here, I'm sure they've gone and we'll see")).toEqual([
      "kate",
      "dog",
      "is",
      "not",
      "here",
      "i",
      "sure",
      "they",
      "gone",
      "and",
      "we",
      "see",
    ]);
    expect(tokenise("Don’t, can't, won't, shan't")).toEqual(["do", "not", "can", "not", "will", "not", "shall", "not"]);
    expect(tokenise("O'Neill played rock'n'roll")).toEqual(["oneill", "played", "rocknroll"]);
  });

  it("splits on everything but letters and digits, keeping hyphenated words whole", () => {
    expect(tokenise("well-known G20 summit (2024)! e-mail: x@y.z — ok?")).toEqual(["well-known", "g20", "summit", "2024", "e-mail", "x", "y", "z", "ok"]);
    expect(tokenise("")).toEqual([]);
    expect(tokenise("?! ... --")).toEqual([]);
  });
});
