import { describe, expect, it } from "vitest";
import { MEMORY_EMBEDDING_TEXT_MAX_CHARS, capEmbeddingText, memoryEmbeddingText } from "./memory-embedding-text.js";

const MAX = MEMORY_EMBEDDING_TEXT_MAX_CHARS;

describe("memoryEmbeddingText", () => {
  it("is the description, a newline and the body when they fit, whatever the type", () => {
    expect(memoryEmbeddingText({ type: "user", description: "Editor", body: "Tabs, width 2." })).toBe("Editor\nTabs, width 2.");
    expect(memoryEmbeddingText({ type: "daily", description: "Journal", body: "- 09:00 standup" })).toBe("Journal\n- 09:00 standup");
  });

  it("cuts a long entry at its end, and a long daily journal at its body's start (its newest appends stay)", () => {
    const body = `${"a".repeat(MAX)}THE END`;
    const reference = memoryEmbeddingText({ type: "reference", description: "Notes", body });
    expect(reference).toHaveLength(MAX);
    expect(reference.startsWith("Notes\naaa")).toBe(true);
    const daily = memoryEmbeddingText({ type: "daily", description: "Journal 2026-12-06", body });
    expect(daily).toHaveLength(MAX);
    expect(daily.startsWith("Journal 2026-12-06\naaa")).toBe(true);
    expect(daily.endsWith("THE END")).toBe(true);
  });

  it("never starts a daily tail or ends a cut inside a surrogate pair", () => {
    const description = "Journal";
    // The tail would start on the low half of a pair: it starts after the pair.
    const tailLength = MAX - description.length - 1;
    const body = `x${"😀".repeat(tailLength)}`;
    const daily = memoryEmbeddingText({ type: "daily", description, body });
    expect(daily.length).toBeLessThanOrEqual(MAX);
    const tail = daily.slice(description.length + 1);
    expect(tail.codePointAt(0)).toBe(0x1f600);
    expect(body.endsWith(tail)).toBe(true);
    const cut = capEmbeddingText(`${"b".repeat(MAX - 1)}😀`);
    expect(cut).toBe("b".repeat(MAX - 1));
  });
});
