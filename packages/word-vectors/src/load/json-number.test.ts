import { describe, expect, it } from "vitest";
import { readJsonNumber } from "./json-number.js";

function read(text: string): { value: number; end: number } | undefined {
  const out = { value: Number.NaN, end: -1 };
  return readJsonNumber(Buffer.from(text), 0, text.length, out) ? out : undefined;
}

describe("readJsonNumber", () => {
  it("gives the same double as Number for the number forms of word-vector files", () => {
    const samples = ["0", "-0", "1", "-0.038194", "0.72812", "5.18878349", "22625", "4e-7", "-8E+2", "12.5e3", "0.000123", "1e22", "1e-22"];
    let seed = 7;
    for (let index = 0; index < 2000; index += 1) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const digits = (seed % 900_000_000) + 1;
      samples.push(`${seed % 2 === 0 ? "-" : ""}${Math.floor(digits / 10 ** (seed % 9))}.${String(digits).slice(0, (seed % 8) + 1)}`);
    }
    for (const sample of samples) expect(read(sample)?.value, sample).toBe(Number(sample));
  });

  it("falls back to Number beyond 15 digits or a large exponent", () => {
    for (const sample of ["12345678901234567890", "0.1234567890123456789", "1.5e-300", "2e308"]) expect(read(sample)?.value, sample).toBe(Number(sample));
  });

  it("stops at the first byte after the number and refuses text that is not one", () => {
    expect(read("-1.25,3")).toEqual({ value: -1.25, end: 5 });
    expect(read("3]")).toEqual({ value: 3, end: 1 });
    for (const sample of ["", "-", ".", "abc", "1e", "1e+"]) expect(read(sample), sample).toBeUndefined();
  });
});
