import { describe, expect, it } from "vitest";
import { isTrigramMatch } from "./search-trigram-match.js";

describe("isTrigramMatch", () => {
  it("counts a three-letter Latin term only as a word of its own (a plural s allowed)", () => {
    expect(isTrigramMatch("lint-setup\nclippy for rust", ["cli"])).toBe(false);
    expect(isTrigramMatch("the CLI is written in Go", ["cli"])).toBe(true);
    expect(isTrigramMatch("two APIs share types", ["api"])).toBe(true);
    expect(isTrigramMatch("OpenAPI schema", ["api"])).toBe(false);
  });

  it("counts longer terms and CJK terms anywhere", () => {
    expect(isTrigramMatch("OpenAPI schema", ["openap", "api"])).toBe(true);
    expect(isTrigramMatch("ダークモードが好き", ["モード"])).toBe(true);
  });

  it("keeps a hit whose text holds none of the terms (a folding it cannot check)", () => {
    expect(isTrigramMatch("something else", ["xyz"])).toBe(true);
  });
});
