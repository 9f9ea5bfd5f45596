import { readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../__fixtures__/workspace.js";
import { contentHash } from "../shared/content-hash.js";
import { FileToolState } from "../shared/file-state.js";
import { COUNT_BUDGET_BYTES } from "../shared/text-window.js";

let ws: TestWorkspace;
afterEach(() => ws?.cleanup());

/** `count` numbered lines of about 40 bytes each. */
const rows = (count: number) => Array.from({ length: count }, (_, index) => `row ${String(index + 1).padStart(7, "0")} of the big log file\n`).join("");
const BIG_LINES = 80_000; // 2.4 MB: over the count budget
/** A round mtime (whole seconds), so that utimes can set exactly the same value again. */
const ROUND_MTIME = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);

/** A workspace with big.log (over the count budget) whose mtime is {@link ROUND_MTIME}; returns its path. */
function bigWorkspace(state = new FileToolState()): string {
  ws = createTestWorkspace({ "big.log": rows(BIG_LINES) }, { state });
  const file = `${ws.dir}/big.log`;
  utimesSync(file, ROUND_MTIME, ROUND_MTIME);
  expect(statSync(file).size).toBeGreaterThan(COUNT_BUDGET_BYTES);
  return file;
}

/** Waits until the hash a partial Read started for `file` has arrived (or was given up). */
async function settled(state: FileToolState, file: string): Promise<void> {
  const latest = state.getLatest(file)!;
  await state.getPendingHash(file, latest)?.promise.catch(() => undefined);
}

/** Rewrites `file` with one byte changed (same size) and sets its mtime back to {@link ROUND_MTIME}. */
function sameSizeChange(file: string): void {
  const bytes = readFileSync(file);
  bytes[4] = bytes[4] === 0x31 ? 0x32 : 0x31; // "row 0000001" becomes "row 1000001" (or 2000001)
  writeFileSync(file, bytes);
  utimesSync(file, ROUND_MTIME, ROUND_MTIME);
  expect(statSync(file).mtimeMs).toBe(ROUND_MTIME.getTime());
}

describe("Read of the first page of a large file", () => {
  it("reads only the window: the total is not counted and the header says more lines follow", async () => {
    bigWorkspace();
    const result = await ws.call("Read", { path: "big.log" });
    expect(result.isError, result.text).toBe(false);
    expect(result.text.split("\n").slice(0, 3)).toEqual(["Read: big.log", "lines=1-200 / ? (2.4 MB; more lines follow)", "view=partial"]);
    expect(result.text).toContain("   200\trow 0000200 of the big log file");
    expect(result.text).not.toContain("row 0000201");
    expect(result.text).toContain("[...truncated: more lines follow; continue with start_line=201...]");
    expect(result.details).toMatchObject({ kind: "read_text", startLine: 1, numLines: 200, totalLinesKnown: false, truncated: true, isPartialView: true });
    expect(result.details).not.toHaveProperty("totalLines");
    expect(result.details).not.toHaveProperty("contentHash");
  });

  it("counts the total when the window reaches the end, and says so past the end", async () => {
    bigWorkspace();
    const last = await ws.call("Read", { path: "big.log", start_line: BIG_LINES - 1, limit: 10 });
    expect(last.text).toContain(`lines=${BIG_LINES - 1}-${BIG_LINES} / ${BIG_LINES}`);
    expect(last.details).toMatchObject({
      totalLines: BIG_LINES,
      totalLinesKnown: true,
      truncated: false,
    });
    expect(last.details).not.toHaveProperty("contentHash"); // hashed in the background, as every window of a large file
    const past = await ws.call("Read", { path: "big.log", start_line: BIG_LINES + 5 });
    expect(past.isError).toBe(true);
    expect(past.text).toContain(`which has ${BIG_LINES} lines`);
  });

  it("finds a window far into the file (chunks before it counted, not split) as a plain split does, CRLF too", async () => {
    const text = Array.from({ length: 90_000 }, (_, index) => `crlf row ${index + 1}${index % 7 === 0 ? " with a longer tail of text" : ""}`).join("\r\n");
    ws = createTestWorkspace({ "crlf.log": `${text}\r\n` });
    const lines = text.split("\r\n");
    for (const start of [1, 1_638, 33_333, 65_536, 89_999]) {
      const result = await ws.call("Read", { path: "crlf.log", start_line: start, limit: 3 });
      const shown = lines.slice(start - 1, start + 2).map((line, index) => `${String(start + index).padStart(6, " ")}\t${line}`);
      expect(result.text).toContain(shown.join("\n"));
    }
    expect((await ws.call("Read", { path: "crlf.log", start_line: 89_999 })).details).toMatchObject({ totalLines: 90_000, numLines: 2 });
  });

  it("keeps the exact header and total of a file within the count budget", async () => {
    ws = createTestWorkspace({ "small.log": rows(1000) });
    const result = await ws.call("Read", { path: "small.log" });
    expect(result.text).toContain("lines=1-200 / 1000");
    expect(result.details).toMatchObject({ totalLines: 1000, totalLinesKnown: true });
  });
});

describe("staleness after a partial Read of a large file (hash computed in the background)", () => {
  it("refuses an Edit after a same-size change with the mtime set back to the Read-time value, before the hash arrives", async () => {
    const file = bigWorkspace();
    await ws.call("Read", { path: "big.log" });
    sameSizeChange(file);
    const edit = await ws.call("Edit", { path: "big.log", old_string: "row 0000100 of", new_string: "ROW 100 of" });
    expect(edit.isError).toBe(true);
    expect(edit.details).toMatchObject({ code: "stale_file" });
  });

  it("refuses the same change after the hash arrived", async () => {
    const state = new FileToolState();
    const file = bigWorkspace(state);
    await ws.call("Read", { path: "big.log" });
    await settled(state, file);
    expect(state.getLatest(file)!.contentHash).toBe(contentHash(readFileSync(file)));
    sameSizeChange(file);
    const edit = await ws.call("Edit", { path: "big.log", old_string: "row 0000100 of", new_string: "ROW 100 of" });
    expect(edit.details).toMatchObject({ code: "stale_file" });
  });

  it("edits an unchanged file, and a touched but identical one (the background hash decides)", async () => {
    const state = new FileToolState();
    const file = bigWorkspace(state);
    await ws.call("Read", { path: "big.log" });
    const unchanged = await ws.call("Edit", { path: "big.log", old_string: "row 0000100 of", new_string: "ROW 100 of" });
    expect(unchanged.isError, unchanged.text).toBe(false);

    await ws.call("Read", { path: "big.log", start_line: 300, limit: 5 });
    const later = new Date(Date.now() + 5000);
    utimesSync(file, later, later); // at once: the check waits for the pending hash
    const touched = await ws.call("Edit", { path: "big.log", old_string: "row 0000301 of", new_string: "ROW 301 of" });
    expect(touched.isError, touched.text).toBe(false);
    expect(readFileSync(file, "utf8")).toContain("ROW 100 of the big log file\n");
    expect(readFileSync(file, "utf8")).toContain("ROW 301 of the big log file\n");
  });

  it("answers an unchanged re-Read with the stub once the hash is known, and a changed file with its lines", async () => {
    const state = new FileToolState();
    const file = bigWorkspace(state);
    await ws.call("Read", { path: "big.log" });
    await settled(state, file);
    const again = await ws.call("Read", { path: "big.log" });
    expect(again.details).toMatchObject({ reusedExisting: true, contentHash: contentHash(readFileSync(file)) });
    expect(again.text).toContain("This range is unchanged since the previous Read.");
    sameSizeChange(file);
    const changed = await ws.call("Read", { path: "big.log" });
    expect(changed.details).toMatchObject({ reusedExisting: false });
    expect(changed.text).toMatch(/ {5}1\trow [12]000001 of the big log file/);
  });
});
