import { ToolError } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { normalizeRegistrySearch } from "./registry-search-input.js";

describe("normalizeRegistrySearch", () => {
  it("fills the defaults", () => {
    expect(normalizeRegistrySearch({})).toEqual({ query: "", sort: "downloads", limit: 10 });
    expect(normalizeRegistrySearch({ query: null, sort: null, limit: null, cursor: null })).toEqual({ query: "", sort: "downloads", limit: 10 });
    expect(normalizeRegistrySearch({ sort: "", limit: "", cursor: "" })).toEqual({ query: "", sort: "downloads", limit: 10 });
  });

  it("keeps given values", () => {
    expect(normalizeRegistrySearch({ query: "  pdf forms ", sort: "Stars", limit: 20, cursor: "abc" })).toEqual({
      query: "pdf forms",
      sort: "stars",
      limit: 20,
      cursor: "abc",
    });
    expect(normalizeRegistrySearch({ limit: 1 }).limit).toBe(1);
    expect(normalizeRegistrySearch({ limit: " 7 " }).limit).toBe(7);
  });

  it.each(["downloads", "stars", "installs", "updated", "newest"])("accepts sort %j", (sort) => {
    expect(normalizeRegistrySearch({ sort }).sort).toBe(sort);
  });

  it.each<[Record<string, unknown>, RegExp]>([
    [{ query: 3 }, /"query" must be a string of search words, not a number/],
    [{ query: ["a"] }, /"query" must be a string.*not a list/],
    [{ sort: "popular" }, /"sort" must be one of downloads, stars, installs, updated, newest; got "popular"/],
    [{ sort: 1 }, /"sort" must be one of .*; got a number/],
    [{ limit: 0 }, /"limit" must be from 1 to 20; got 0\. For more results, follow the next page's cursor/],
    [{ limit: 21 }, /"limit" must be from 1 to 20; got 21/],
    [{ limit: -1 }, /got -1/],
    [{ limit: "50" }, /got 50/],
    [{ limit: 2.5 }, /"limit" must be a whole number from 1 to 20; got 2\.5/],
    [{ limit: "ten" }, /whole number.*got "ten"/],
    [{ limit: Number.NaN }, /whole number/],
    [{ limit: true }, /whole number.*got true/],
    [{ cursor: 5 }, /"cursor" must be the cursor string of a previous page, not a number/],
  ])("rejects %j", (input, pattern) => {
    let caught: unknown;
    try {
      normalizeRegistrySearch(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ToolError);
    expect((caught as ToolError).code).toBe("invalid_arguments");
    expect((caught as ToolError).message).toMatch(pattern);
  });
});
