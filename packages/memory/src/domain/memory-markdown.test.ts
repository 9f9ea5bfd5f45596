import { describe, expect, it } from "vitest";
import { type MemoryDocument, parseMemoryMarkdown, renderMemoryMarkdown } from "./memory-markdown.js";
import type { MemoryConfidence, StoredMemoryType } from "./memory-types.js";

const fallback = { type: "reference" as const, slug: "hand-notes", mtimeMs: 1_700_000_000_000 };

const baseDoc: MemoryDocument = {
  type: "user",
  description: "Prefers dark mode",
  body: "Uses dark mode everywhere.\n",
  unreviewed: false,
  riskFlags: [],
  source: { confidence: "high", sourceQuote: "I always use dark mode" },
  links: {},
  appendCount: 0,
  createdAt: 1_767_225_600_000,
  updatedAt: 1_767_225_601_234,
};

describe("renderMemoryMarkdown", () => {
  it("writes JSON-encoded frontmatter between --- lines, then the body", () => {
    expect(renderMemoryMarkdown(baseDoc)).toBe(
      [
        "---",
        'type: "user"',
        'description: "Prefers dark mode"',
        "unreviewed: false",
        "risk_flags: []",
        'confidence: "high"',
        'source_quote: "I always use dark mode"',
        "append_count: 0",
        'created_at: "2026-01-01T00:00:00.000Z"',
        'updated_at: "2026-01-01T00:00:01.234Z"',
        "---",
        "Uses dark mode everywhere.",
        "",
      ].join("\n"),
    );
  });

  it("round-trips every field", () => {
    const doc: MemoryDocument = {
      type: "daily",
      description: "Journal: 2026-01-01",
      body: "- 09:00 started\n",
      dateLocal: "2026-01-01",
      unreviewed: true,
      riskFlags: ["sudo", "eval"],
      source: { confidence: "medium", sourceQuote: "q", reasoning: "because", autoDowngraded: true, conversationId: "c-1" },
      links: { aliases: ["a-b", "c-d"], supersedes: "old-one", conflictsWith: ["x-y"] },
      appendCount: 3,
      createdAt: 1,
      updatedAt: 2.5,
    };
    expect(parseMemoryMarkdown(renderMemoryMarkdown(doc), fallback)).toEqual(doc);
  });
});

describe("parseMemoryMarkdown round trip (random documents)", () => {
  it("gives back every rendered document", () => {
    let seed = 12345;
    const next = (limit: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % limit;
    };
    const pieces = ["---", "\n", "\r\n", "---\n", "\n---\n", "key: value", '"', "\\", "é", "日本語", "😀", " ", "\t", "# h", "\u2028", "\uFEFF", ":"];
    const text = (maxPieces: number) => {
      let out = "";
      for (let count = next(maxPieces); count > 0; count--) out += pieces[next(pieces.length)];
      return out;
    };
    const types: StoredMemoryType[] = ["user", "feedback", "project", "reference", "daily"];
    const confidences: MemoryConfidence[] = ["high", "medium", "low"];
    for (let round = 0; round < 400; round++) {
      const doc: MemoryDocument = {
        type: types[next(types.length)],
        description: text(6),
        body: text(30),
        ...(next(2) === 0 ? { dateLocal: "2026-02-03" } : {}),
        unreviewed: next(2) === 0,
        riskFlags: next(2) === 0 ? [] : ["prompt_injection"],
        source: { confidence: confidences[next(3)], ...(next(2) === 0 ? { sourceQuote: text(4) } : {}), ...(next(3) === 0 ? { reasoning: text(3) } : {}) },
        links: next(2) === 0 ? {} : { aliases: [text(2)], supersedes: text(2) },
        appendCount: next(50),
        createdAt: next(2 ** 30) * 1000 + next(1000),
        updatedAt: next(2 ** 30) * 1000,
      };
      expect(parseMemoryMarkdown(renderMemoryMarkdown(doc), { ...fallback, slug: "some-note" })).toEqual(doc);
    }
  });
});

describe("parseMemoryMarkdown is lenient", () => {
  it("reads a file without frontmatter: description from the first line, type and times from the fallback", () => {
    const doc = parseMemoryMarkdown("\n\n# Deploy steps\n\nRun make deploy.\n", fallback);
    expect(doc).toEqual({
      type: "reference",
      description: "Deploy steps",
      body: "\n\n# Deploy steps\n\nRun make deploy.\n",
      unreviewed: false,
      riskFlags: [],
      source: { confidence: "low" },
      links: {},
      appendCount: 0,
      createdAt: fallback.mtimeMs,
      updatedAt: fallback.mtimeMs,
    });
  });

  it("cuts the derived description to 120 characters", () => {
    expect(parseMemoryMarkdown(`${"é".repeat(200)}\nmore`, fallback).description).toBe("é".repeat(120));
  });

  it("reads partial, hand-written frontmatter with unquoted values and CRLF lines", () => {
    const doc = parseMemoryMarkdown(
      "---\r\ndescription: My editor setup\r\naliases: [vim, 'neovim']\r\nconfidence: sure\r\nunknown: 1\r\n---\r\nbody\r\n",
      fallback,
    );
    expect(doc).toMatchObject({
      type: "reference",
      description: "My editor setup",
      body: "body\r\n",
      source: { confidence: "low" },
      links: { aliases: ["vim", "neovim"] },
      createdAt: fallback.mtimeMs,
    });
  });

  it("ignores an unknown type and falls back", () => {
    expect(parseMemoryMarkdown('---\ntype: "secret"\n---\nx', fallback).type).toBe("reference");
  });

  it("treats an unclosed frontmatter block as body", () => {
    const doc = parseMemoryMarkdown("---\ntype: user\nno end", fallback);
    expect(doc.body).toBe("---\ntype: user\nno end");
    expect(doc.type).toBe("reference");
    expect(doc.description).toBe("---");
  });

  it("takes a daily journal's date from its slug when the file does not say", () => {
    const doc = parseMemoryMarkdown("- note\n", { type: "daily", slug: "daily-2026-05-06", mtimeMs: 5 });
    expect(doc.dateLocal).toBe("2026-05-06");
  });

  it("drops a byte-order mark", () => {
    expect(parseMemoryMarkdown('\uFEFF---\ntype: "user"\n---\nx', fallback).type).toBe("user");
  });
});
