import { describe, expect, it } from "vitest";
import type { ToolEndEvent } from "../agent/agent-events.js";
import { summarizeResult } from "./result-summary.js";

const readEnd = (details: Record<string, unknown>): ToolEndEvent => ({
  type: "tool-end",
  turn: 1,
  callId: "c1",
  toolName: "Read",
  arguments: { path: "big.log" },
  isError: false,
  text: "Read: big.log",
  details: { kind: "read_text", path: "big.log", ...details },
  durationMs: 2,
});

describe("summarizeResult of Read", () => {
  it("names the total when Read counted it, and says more lines follow when it did not (a large file's first page)", () => {
    expect(summarizeResult(readEnd({ startLine: 1, numLines: 20, totalLines: 20, totalLinesKnown: true }))).toBe("lines 1-20 of 20");
    expect(summarizeResult(readEnd({ startLine: 1, numLines: 200, totalLinesKnown: false }))).toBe("lines 1-200 (more follow)");
    expect(summarizeResult(readEnd({ startLine: 1, numLines: 0, totalLines: 0, totalLinesKnown: true }))).toBe("empty file");
  });
});
