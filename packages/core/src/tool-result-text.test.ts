import { describe, expect, it } from "vitest";
import { toolResultText } from "./tool-result-text.js";

describe("toolResultText", () => {
  it("joins the text blocks and leaves images out", () => {
    const result = {
      content: [
        { type: "text" as const, text: "first" },
        { type: "image" as const, data: "AAAA", mimeType: "image/png" },
        { type: "text" as const, text: "second" },
      ],
    };
    expect(toolResultText(result)).toBe("first\nsecond");
    expect(toolResultText(result, "")).toBe("firstsecond");
    expect(toolResultText({ content: [] })).toBe("");
  });
});
