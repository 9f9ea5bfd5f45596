import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../__fixtures__/workspace.js";

let ws: TestWorkspace;
beforeAll(() => {
  const files: Record<string, string> = {};
  for (let index = 0; index < 250; index += 1) files[`many/f${String(index).padStart(3, "0")}.txt`] = `hit ${index}\n`;
  ws = createTestWorkspace(files);
});
afterAll(() => ws.cleanup());

describe("default limits of List, Glob and Grep", () => {
  it("Glob returns 200 results by default", async () => {
    const result = await ws.call("Glob", { pattern: "**/*.txt" });
    expect(result.details).toMatchObject({ totalMatches: 250, returned: 200, offset: 0, hasMore: true });
    expect(result.text).toContain("continue with offset=200");
    const rest = await ws.call("Glob", { pattern: "**/*.txt", offset: 200 });
    expect(rest.details).toMatchObject({ returned: 50, hasMore: false });
    const past = await ws.call("Glob", { pattern: "**/*.txt", offset: 400 });
    expect(past.text).toContain("offset=400 is past the end");
  });

  it("Grep returns 200 matching lines and files by default", async () => {
    const content = await ws.call("Grep", { pattern: "hit" });
    expect(content.details).toMatchObject({ matchCount: 250, fileCount: 250, returned: 200, hasMore: true });
    const files = await ws.call("Grep", { pattern: "hit", output_mode: "files" });
    expect(files.details).toMatchObject({ returned: 200, hasMore: true });
    expect((await ws.call("Grep", { pattern: "hit", head_limit: 0 })).isError).toBe(true);
    expect((await ws.call("Grep", { pattern: "hit", output_mode: "lines" })).isError).toBe(true);
    expect((await ws.call("Grep", { pattern: "" })).isError).toBe(true);
  });

  it("List returns 200 entries by default at depth 2", async () => {
    const result = await ws.call("List", {});
    expect(result.details).toMatchObject({ depth: 2, totalEntries: 251, returned: 200, hasMore: true });
    const shallow = await ws.call("List", { depth: 1 });
    expect(shallow.details).toMatchObject({ totalEntries: 1 });
    expect((await ws.call("List", { depth: 0 })).isError).toBe(true);
    expect((await ws.call("List", { path: "missing" })).details).toMatchObject({ code: "not_found" });
  });
});
