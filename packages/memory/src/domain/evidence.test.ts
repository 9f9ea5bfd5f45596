import { describe, expect, it } from "vitest";
import { applyEvidenceContract } from "./evidence.js";

describe("applyEvidenceContract", () => {
  it.each([
    [{ confidence: "high", sourceQuote: "I use vim" }, "high", false],
    [{ confidence: "high", sourceQuote: "vim!!" }, "high", false],
    [{ confidence: "high", sourceQuote: "vim" }, "medium", true],
    [{ confidence: "high", sourceQuote: "  vim   " }, "medium", true],
    [{ confidence: "high" }, "low", true],
    [{ confidence: "medium", sourceQuote: "x" }, "medium", false],
    [{ confidence: "medium", sourceQuote: "   " }, "low", true],
    [{ confidence: "medium" }, "low", true],
    [{ confidence: "low" }, "low", false],
    [{ sourceQuote: "a full quote" }, "low", false],
    [{}, "low", false],
  ] as const)("%j -> %s (downgraded %s)", (input, confidence, autoDowngraded) => {
    expect(applyEvidenceContract(input)).toEqual({ confidence, autoDowngraded });
  });

  it("counts characters, not UTF-16 units", () => {
    expect(applyEvidenceContract({ confidence: "high", sourceQuote: "😀😀😀😀" }).confidence).toBe("medium");
    expect(applyEvidenceContract({ confidence: "high", sourceQuote: "日本語です。" }).confidence).toBe("high");
  });
});
