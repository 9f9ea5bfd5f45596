import { describe, expect, it } from "vitest";
import { WrittenRegions } from "./written-regions.js";

const match = (start: number, end: number, replacement: string) => ({ start, end, replacement });

describe("WrittenRegions", () => {
  it("refuses a match over written bytes, allows one that only touches them", () => {
    const regions = new WrittenRegions();
    // "0123456789": bytes 2-4 become "abcdef" -> "01abcdef56789" (written: 2-8).
    regions.apply([match(2, 5, "abcdef")], 1);
    expect(regions.clash([match(0, 2, "")])).toBeUndefined();
    expect(regions.clash([match(8, 10, "")])).toBeUndefined();
    expect(regions.clash([match(1, 3, "")])).toBe(1);
    expect(regions.clash([match(7, 9, "")])).toBe(1);
    expect(regions.clash([match(0, 1, ""), match(4, 5, "")])).toBe(1);
  });

  it("a deletion clashes only with a match that spans its place", () => {
    const regions = new WrittenRegions();
    regions.apply([match(3, 6, "")], 1);
    expect(regions.clash([match(1, 3, "")])).toBeUndefined();
    expect(regions.clash([match(3, 5, "")])).toBeUndefined();
    expect(regions.clash([match(2, 4, "")])).toBe(1);
  });

  it("moves earlier regions with the text a later edit adds or removes before them", () => {
    const regions = new WrittenRegions();
    regions.apply([match(10, 12, "xy")], 1); // written 10-12
    regions.apply([match(0, 4, "a"), match(20, 21, "long")], 2); // edit 1's text moves to 7-9; edit 2 wrote 0-1 and 17-21
    expect(regions.clash([match(6, 7, "")])).toBeUndefined();
    expect(regions.clash([match(8, 9, "")])).toBe(1);
    expect(regions.clash([match(9, 10, "")])).toBeUndefined();
    expect(regions.clash([match(0, 1, "")])).toBe(2);
    expect(regions.clash([match(16, 17, "")])).toBeUndefined();
    expect(regions.clash([match(20, 22, "")])).toBe(2);
    expect(regions.clash([match(21, 30, "")])).toBeUndefined();
  });
});
