import { describe, expect, it } from "vitest";
import { mergeLines } from "./merge-lines.js";

const lines = (...texts: string[]) => texts.map((text) => `${text}\n`);
const base = lines("1", "2", "3", "4", "5", "6", "7", "8");

describe("mergeLines", () => {
  it("takes the one side that changed", () => {
    const ours = lines("1", "two", "3", "4", "5", "6", "7", "8");
    expect(mergeLines(base, ours, base)).toEqual(ours);
    expect(mergeLines(base, base, ours)).toEqual(ours);
  });

  it("merges changes of both sides that leave a line between them", () => {
    const ours = lines("1", "two", "3", "4", "5", "6", "7", "8");
    const theirs = lines("1", "2", "3", "four", "5", "6", "seven", "eight", "nine");
    expect(mergeLines(base, ours, theirs)).toEqual(lines("1", "two", "3", "four", "5", "6", "seven", "eight", "nine"));
  });

  it("merges an insertion and a deletion apart from each other", () => {
    const ours = lines("0", "1", "2", "3", "4", "5", "6", "7", "8");
    const theirs = lines("1", "2", "3", "4", "5", "6", "8");
    expect(mergeLines(base, ours, theirs)).toEqual(lines("0", "1", "2", "3", "4", "5", "6", "8"));
  });

  it("conflicts on the same line changed two ways, on adjacent lines, and on two insertions at one place", () => {
    expect(mergeLines(base, lines("1", "two", "3", "4", "5", "6", "7", "8"), lines("1", "TWO", "3", "4", "5", "6", "7", "8"))).toBeUndefined();
    expect(mergeLines(base, lines("1", "two", "3", "4", "5", "6", "7", "8"), lines("1", "2", "three", "4", "5", "6", "7", "8"))).toBeUndefined();
    expect(mergeLines(base, [...base, "from a\n"], [...base, "from b\n"])).toBeUndefined();
    expect(mergeLines(base, lines("1", "2", "3", "4", "5", "6", "7"), lines("1", "2", "3", "4", "5", "6", "7", "eight"))).toBeUndefined();
  });

  it("accepts the same change made on both sides", () => {
    const both = [...base.slice(0, 4), "new\n", ...base.slice(4)];
    expect(mergeLines(base, both, both)).toEqual(both);
  });

  it("keeps a last line without a newline as a line of its own", () => {
    const start = ["a\n", "b\n", "c\n", "d\n", "e"];
    expect(mergeLines(start, ["A\n", "b\n", "c\n", "d\n", "e"], ["a\n", "b\n", "c\n", "d\n", "e\n"])).toEqual(["A\n", "b\n", "c\n", "d\n", "e\n"]);
  });

  it("merges into and from empty files", () => {
    expect(mergeLines([], [], lines("x"))).toEqual(lines("x"));
    expect(mergeLines([], lines("x"), lines("y"))).toBeUndefined();
  });
});
