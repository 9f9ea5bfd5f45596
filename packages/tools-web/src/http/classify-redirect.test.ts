import { describe, expect, it } from "vitest";
import { classifyRedirect } from "./fetch-page.js";

describe("classifyRedirect", () => {
  it.each([
    ["http://example.com/a", "http://example.com/b", "follow"],
    ["http://example.com/a", "https://example.com/a", "follow"],
    // A www. twin is another host: permission rules name hosts exactly, so
    // following it would skip a WebFetch(domain:...) rule (attack F4).
    ["https://example.com/a", "https://www.example.com/a", "other_host"],
    ["https://www.example.com/a", "https://example.com/a", "other_host"],
    ["https://example.com/a", "http://example.com/a", "downgrade"],
    ["https://example.com/a", "http://other.example/a", "downgrade"],
    ["https://example.com/a", "https://other.example/a", "other_host"],
    ["https://example.com/a", "https://example.com.evil.example/a", "other_host"],
    ["https://example.com/a", "https://example.com:8443/a", "other_host"],
    ["https://docs.example.com/a", "https://example.com/a", "other_host"],
  ] as const)("%s -> %s: %s", (from, to, expected) => {
    expect(classifyRedirect(new URL(from), new URL(to))).toBe(expected);
  });
});
