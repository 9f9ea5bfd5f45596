import { describe, expect, it } from "vitest";
import { summarizeArguments } from "./argument-summary.js";

describe("summarizeArguments", () => {
  it("summarises the known tools the way a reader scans them", () => {
    expect(summarizeArguments("Read", { path: "src/a.ts", start_line: 10, limit: 31 })).toBe("src/a.ts:10-40");
    expect(summarizeArguments("Bash", { command: "npm   test\n--watch=false" })).toBe("$ npm test --watch=false");
    expect(summarizeArguments("ProcessWait", { session_id: "s1", cursor: 120 })).toBe("session s1 from byte 120");
    expect(summarizeArguments("Edit", { path: "a.ts", old_string: "x", new_string: "y", replace_all: true })).toBe("a.ts (replace all)");
    expect(summarizeArguments("TaskUpdate", { taskId: "2", status: "completed" })).toBe("#2 → completed");
  });

  it("shows unknown tools as key=value pairs, malformed arguments as such, and cuts long summaries", () => {
    expect(summarizeArguments("mcp_docs_search", { query: "abort", limit: 3 })).toBe('query="abort" limit=3');
    expect(summarizeArguments("Read", "{not json")).toBe("(malformed arguments) {not json");
    expect(summarizeArguments("Read", undefined)).toBe("");
    const long = summarizeArguments("Bash", { command: "x".repeat(500) }, 40);
    expect(long).toHaveLength(40);
    expect(long.endsWith("…")).toBe(true);
  });
});
