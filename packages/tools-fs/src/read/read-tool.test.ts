import { statSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { contentHash } from "../shared/content-hash.js";
import { createTestWorkspace, type TestWorkspace } from "../__fixtures__/workspace.js";

let ws: TestWorkspace;
afterEach(() => ws?.cleanup());

const lines = (count: number, prefix = "line") => `${Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}`).join("\n")}\n`;

describe("Read text", () => {
  it("shows numbered lines with a header and details", async () => {
    ws = createTestWorkspace({ "a.txt": "alpha\nbeta\n" });
    const result = await ws.call("Read", { path: "a.txt" });
    expect(result.isError).toBe(false);
    expect(result.text).toBe("Read: a.txt\nlines=1-2 / 2\nview=full\n\n     1\talpha\n     2\tbeta");
    const size = statSync(`${ws.dir}/a.txt`);
    expect(result.details).toMatchObject({
      kind: "read_text",
      path: "a.txt",
      startLine: 1,
      numLines: 2,
      totalLines: 2,
      truncated: false,
      isPartialView: false,
      reusedExisting: false,
      mtimeMs: size.mtimeMs,
      contentHash: contentHash(Buffer.from("alpha\nbeta\n")),
    });
  });

  it("defaults to 200 lines and says how to continue", async () => {
    ws = createTestWorkspace({ "big.txt": lines(450) });
    const result = await ws.call("Read", { path: "big.txt" });
    expect(result.details).toMatchObject({ startLine: 1, numLines: 200, totalLines: 450, truncated: true, isPartialView: true });
    expect(result.text).toContain("lines=1-200 / 450");
    expect(result.text).toContain("view=partial");
    expect(result.text).toContain("continue with start_line=201");
    expect(result.text).toContain("   200\tline 200");
    expect(result.text).not.toContain("line 201");
  });

  it("honours start_line and limit", async () => {
    ws = createTestWorkspace({ "big.txt": lines(50) });
    const result = await ws.call("Read", { path: "big.txt", start_line: 10, limit: 3 });
    expect(result.text).toContain("lines=10-12 / 50");
    expect(result.text).toContain("    10\tline 10\n    11\tline 11\n    12\tline 12");
    expect(result.details).toMatchObject({ startLine: 10, numLines: 3, truncated: true, isPartialView: true });
    const tail = await ws.call("Read", { path: "big.txt", start_line: 49 });
    expect(tail.details).toMatchObject({ numLines: 2, truncated: false, isPartialView: true });
  });

  it("rejects start_line past the end and invalid numbers", async () => {
    ws = createTestWorkspace({ "a.txt": "x\n" });
    const past = await ws.call("Read", { path: "a.txt", start_line: 5 });
    expect(past.isError).toBe(true);
    expect(past.text).toContain("past the end");
    expect((await ws.call("Read", { path: "a.txt", start_line: 0 })).isError).toBe(true);
    expect((await ws.call("Read", { path: "a.txt", limit: 0 })).isError).toBe(true);
    expect((await ws.call("Read", { path: "a.txt", limit: 1.5 })).isError).toBe(true);
  });

  it("reports empty files", async () => {
    ws = createTestWorkspace({ "empty.txt": "" });
    const result = await ws.call("Read", { path: "empty.txt" });
    expect(result.text).toBe("Read: empty.txt\nlines=empty\nview=full\n\n(empty file)");
    expect(result.details).toMatchObject({ totalLines: 0, numLines: 0 });
  });

  it("counts a last line without a newline and strips CRLF and BOM", async () => {
    ws = createTestWorkspace({ "crlf.txt": "\uFEFFone\r\ntwo\r\nthree" });
    const result = await ws.call("Read", { path: "crlf.txt" });
    expect(result.text).toContain("     1\tone\n     2\ttwo\n     3\tthree");
    expect(result.details).toMatchObject({ totalLines: 3 });
  });

  it("keeps tabs as they are", async () => {
    ws = createTestWorkspace({ "tabs.txt": "\tindented\n\t\ttwice\n" });
    const result = await ws.call("Read", { path: "tabs.txt" });
    expect(result.text).toContain("     1\t\tindented\n     2\t\t\ttwice");
  });

  it("caps output at 200 KB", async () => {
    const line = "x".repeat(1000);
    ws = createTestWorkspace({ "wide.txt": Array.from({ length: 400 }, () => line).join("\n") });
    const result = await ws.call("Read", { path: "wide.txt", limit: 400 });
    const details = result.details as { numLines: number; truncated: boolean };
    expect(details.numLines).toBeLessThan(210);
    expect(details.numLines).toBeGreaterThan(190);
    expect(details.truncated).toBe(true);
    expect(result.text).toContain("200 KB output cap");
  });

  it("cuts a single line longer than the cap", async () => {
    ws = createTestWorkspace({ "minified.js": "y".repeat(300 * 1024) });
    const result = await ws.call("Read", { path: "minified.js" });
    expect(result.details).toMatchObject({ numLines: 1, totalLines: 1, truncated: true, isPartialView: true });
    expect(result.text.length).toBeLessThan(205 * 1024);
  });

  it("returns the unchanged stub for a repeated identical read, and content again after a change", async () => {
    ws = createTestWorkspace({ "a.txt": "one\ntwo\n" });
    await ws.call("Read", { path: "a.txt" });
    const again = await ws.call("Read", { path: "a.txt" });
    expect(again.text).toBe("Read: a.txt\nlines=1-2 / 2\nview=full\n\nThis range is unchanged since the previous Read. Reuse the earlier content.");
    expect(again.details).toMatchObject({ reusedExisting: true });
    const other = await ws.call("Read", { path: "a.txt", limit: 1 });
    expect(other.details).toMatchObject({ reusedExisting: false });
    writeFileSync(`${ws.dir}/a.txt`, "one\nTWO\n");
    const changed = await ws.call("Read", { path: "a.txt" });
    expect(changed.details).toMatchObject({ reusedExisting: false });
    expect(changed.text).toContain("TWO");
  });

  it("refuses binary files with a clear message", async () => {
    ws = createTestWorkspace({ "blob.bin": Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]) });
    const result = await ws.call("Read", { path: "blob.bin" });
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ code: "binary_file" });
    expect(result.text).toContain("binary file");
  });

  it("reads a window of a large file without loading it whole", async () => {
    ws = createTestWorkspace();
    const chunk = lines(100_000, "row");
    const target = ws.write("huge.log", chunk + chunk + chunk);
    const before = process.memoryUsage().rss;
    const result = await ws.call("Read", { path: "huge.log", start_line: 250_000, limit: 2 });
    expect(result.text).toContain("250000\trow 50000\n250001\trow 50001");
    // Over the count budget: the lines after the window are not counted.
    expect(result.details).toMatchObject({ totalLinesKnown: false, numLines: 2, truncated: true });
    expect(result.text).toContain("lines=250000-250001 / ? (");
    expect(process.memoryUsage().rss - before).toBeLessThan(statSync(target).size * 2 + 64 * 1024 * 1024);
  });

  it("errors for a missing file with did-you-mean suggestions", async () => {
    ws = createTestWorkspace({ "src/index.ts": "x\n" });
    const result = await ws.call("Read", { path: "src/indx.ts" });
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ code: "not_found", didYouMean: ["src/index.ts"] });
    expect(result.text).toContain("Did you mean: src/index.ts?");
    const none = await ws.call("Read", { path: "nothing/here.md" });
    expect(none.text).toContain('Glob pattern="**/here.md"');
  });

  it("guides to List for a directory", async () => {
    ws = createTestWorkspace({ "dir/a.txt": "x" });
    const result = await ws.call("Read", { path: "dir" });
    expect(result.details).toMatchObject({ code: "not_a_file" });
    expect(result.text).toContain('List path="dir"');
  });
});
