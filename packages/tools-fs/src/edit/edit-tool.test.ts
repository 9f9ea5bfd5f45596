import { chmodSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { contentHash } from "../shared/content-hash.js";
import { createTestWorkspace, type TestWorkspace } from "../__fixtures__/workspace.js";

let ws: TestWorkspace;
afterEach(() => ws?.cleanup());
const read = (name: string) => readFileSync(`${ws.dir}/${name}`, "utf8");

describe("Edit", () => {
  it("replaces one exact match and reports details", async () => {
    ws = createTestWorkspace({ "a.ts": "const a = 1;\nconst b = 2;\n" });
    const result = await ws.call("Edit", { path: "a.ts", old_string: "const b = 2;", new_string: "const b = 3;" });
    expect(result.isError).toBe(false);
    expect(result.text).toBe("Edit: a.ts\nreplacements=1\nreplaceAll=false\nautoRead=full");
    expect(read("a.ts")).toBe("const a = 1;\nconst b = 3;\n");
    expect(result.details).toMatchObject({
      kind: "edit",
      replacements: 1,
      replaceAll: false,
      matchStrategy: "exact",
      expectedReplacements: null,
      totalLines: 2,
      contentHash: contentHash(Buffer.from("const a = 1;\nconst b = 3;\n")),
      oldPreview: "const b = 2;",
      newPreview: "const b = 3;",
    });
  });

  it("chains edits without a re-read and keeps the file mode", async () => {
    ws = createTestWorkspace({ "run.sh": "echo 1\necho 2\n" });
    chmodSync(`${ws.dir}/run.sh`, 0o755);
    await ws.call("Read", { path: "run.sh" });
    const first = await ws.call("Edit", { path: "run.sh", old_string: "echo 1", new_string: "echo one" });
    expect(first.text).not.toContain("autoRead");
    const second = await ws.call("Edit", { path: "run.sh", old_string: "echo 2", new_string: "echo two" });
    expect(second.isError).toBe(false);
    expect(read("run.sh")).toBe("echo one\necho two\n");
    expect(statSync(`${ws.dir}/run.sh`).mode & 0o777).toBe(0o755);
  });

  it("notes non-exact strategies and keeps CRLF", async () => {
    ws = createTestWorkspace({ "win.txt": "one\r\ntwo\r\nthree\r\n" });
    const result = await ws.call("Edit", { path: "win.txt", old_string: "one\ntwo\n", new_string: "1\n2\n" });
    expect(result.details).toMatchObject({ matchStrategy: "line-endings" });
    expect(result.text).toContain("original line-ending style was preserved");
    expect(read("win.txt")).toBe("1\r\n2\r\nthree\r\n");
  });

  it("re-indents with the indentation pass", async () => {
    ws = createTestWorkspace({ "a.py": "def f():\n    if x:\n        return 1\n" });
    const result = await ws.call("Edit", { path: "a.py", old_string: "if x:\n    return 1", new_string: "if y:\n    return 2" });
    expect(result.details).toMatchObject({ matchStrategy: "indentation" });
    expect(result.text).toContain("re-indented");
    expect(read("a.py")).toBe("def f():\n    if y:\n        return 2\n");
  });

  it("handles trailing whitespace, tabs and a BOM", async () => {
    ws = createTestWorkspace({ "t.txt": "\uFEFF\tkey = 1   \n\tother\n" });
    const result = await ws.call("Edit", { path: "t.txt", old_string: "\tkey = 1\n", new_string: "\tkey = 2\n" });
    expect(result.details).toMatchObject({ matchStrategy: "trailing-whitespace" });
    expect(read("t.txt")).toBe("\uFEFF\tkey = 2\n\tother\n");
  });

  it("fails with no match, with a recovery hint", async () => {
    ws = createTestWorkspace({ "a.txt": "hello\n" });
    const result = await ws.call("Edit", { path: "a.txt", old_string: "goodbye", new_string: "x" });
    expect(result.details).toMatchObject({ code: "edit_no_match" });
    expect(result.text).toContain("copy old_string verbatim");
    expect(read("a.txt")).toBe("hello\n");
  });

  it("fails on ambiguity unless replace_all, including fuzzy matches", async () => {
    ws = createTestWorkspace({ "a.txt": "x = 1\ny\nx = 1\n", "b.txt": "  k  \n  k\n" });
    const ambiguous = await ws.call("Edit", { path: "a.txt", old_string: "x = 1", new_string: "x = 2" });
    expect(ambiguous.details).toMatchObject({ code: "edit_ambiguous", matches: 2 });
    expect(ambiguous.text).toContain("old_string matched 2 locations in a.txt");
    expect(ambiguous.text).toContain("replace_all=true");
    const all = await ws.call("Edit", { path: "a.txt", old_string: "x = 1", new_string: "x = 2", replace_all: true });
    expect(all.details).toMatchObject({ replacements: 2, replaceAll: true });
    expect(read("a.txt")).toBe("x = 2\ny\nx = 2\n");
    const fuzzy = await ws.call("Edit", { path: "b.txt", old_string: "    k\n", new_string: "    m\n" });
    expect(fuzzy.details).toMatchObject({ code: "edit_ambiguous" });
    const fuzzyAll = await ws.call("Edit", { path: "b.txt", old_string: "    k\n", new_string: "    m\n", replace_all: true });
    expect(fuzzyAll.details).toMatchObject({ replacements: 2, matchStrategy: "indentation" });
    expect(read("b.txt")).toBe("  m\n  m\n");
  });

  it("checks expected_replacements", async () => {
    ws = createTestWorkspace({ "a.txt": "a a a\n" });
    const mismatch = await ws.call("Edit", { path: "a.txt", old_string: "a", new_string: "b", replace_all: true, expected_replacements: 2 });
    expect(mismatch.details).toMatchObject({ code: "edit_count_mismatch", expected: 2, found: 3 });
    expect(mismatch.text).toContain("expected 2 replacements but found 3 in a.txt");
    const ok = await ws.call("Edit", { path: "a.txt", old_string: "a", new_string: "b", replace_all: true, expected_replacements: 3 });
    expect(ok.details).toMatchObject({ replacements: 3, expectedReplacements: 3 });
    expect((await ws.call("Edit", { path: "a.txt", old_string: "b", new_string: "c", expected_replacements: 0 })).isError).toBe(true);
  });

  it("allows an empty new_string and refuses an empty old_string", async () => {
    ws = createTestWorkspace({ "a.txt": "keep remove keep\n" });
    expect((await ws.call("Edit", { path: "a.txt", old_string: " remove", new_string: "" })).isError).toBe(false);
    expect(read("a.txt")).toBe("keep keep\n");
    const empty = await ws.call("Edit", { path: "a.txt", old_string: "", new_string: "x" });
    expect(empty.isError).toBe(true);
    expect(empty.text).toContain("non-empty old_string");
  });

  it("never creates files, and refuses binary files and directories", async () => {
    ws = createTestWorkspace({ "bin.dat": Buffer.from([1, 0, 2]), "dir/x": "x" });
    expect((await ws.call("Edit", { path: "missing.txt", old_string: "a", new_string: "b" })).details).toMatchObject({ code: "not_found" });
    expect((await ws.call("Edit", { path: "bin.dat", old_string: "a", new_string: "b" })).details).toMatchObject({ code: "binary_file" });
    expect((await ws.call("Edit", { path: "dir", old_string: "a", new_string: "b" })).details).toMatchObject({ code: "not_a_file" });
  });

  it("refuses a file changed since the last Read", async () => {
    ws = createTestWorkspace({ "a.txt": "one two\n" });
    await ws.call("Read", { path: "a.txt" });
    writeFileSync(`${ws.dir}/a.txt`, "one two three\n");
    const result = await ws.call("Edit", { path: "a.txt", old_string: "two", new_string: "2" });
    expect(result.details).toMatchObject({ code: "stale_file" });
    await ws.call("Read", { path: "a.txt" });
    expect((await ws.call("Edit", { path: "a.txt", old_string: "two", new_string: "2" })).isError).toBe(false);
  });

  it("edits a file larger than Read's cap (no full read needed)", async () => {
    const body = `${"filler line of text\n".repeat(60_000)}needle here\n`;
    ws = createTestWorkspace({ "large.txt": body });
    await ws.call("Read", { path: "large.txt", limit: 5 });
    const result = await ws.call("Edit", { path: "large.txt", old_string: "needle here", new_string: "found" });
    expect(result.isError).toBe(false);
    expect(read("large.txt").endsWith("found\n")).toBe(true);
  });

  it("keeps a mode the umask would narrow (the temporary file gets an fchmod then)", async () => {
    ws = createTestWorkspace({ "shared.txt": "one\n", "big.txt": `${"filler line\n".repeat(120_000)}end\n` });
    chmodSync(`${ws.dir}/shared.txt`, 0o666);
    chmodSync(`${ws.dir}/big.txt`, 0o777);
    expect((await ws.call("Edit", { path: "shared.txt", old_string: "one", new_string: "two" })).isError).toBe(false);
    expect((await ws.call("Edit", { path: "big.txt", old_string: "end", new_string: "fin" })).isError).toBe(false);
    expect(statSync(`${ws.dir}/shared.txt`).mode & 0o777).toBe(0o666);
    expect(statSync(`${ws.dir}/big.txt`).mode & 0o777).toBe(0o777);
  });

  it("leaves no temporary file behind when the edit fails (it is created ahead of the write)", async () => {
    ws = createTestWorkspace({ "a.txt": "x x\n", "bin.dat": Buffer.from([1, 0, 2]), "big.txt": `${"filler line\n".repeat(120_000)}end\n` });
    await ws.call("Read", { path: "a.txt" });
    const failures = [
      { path: "a.txt", old_string: "missing", new_string: "y" },
      { path: "a.txt", old_string: "x", new_string: "y" },
      { path: "a.txt", old_string: "x", new_string: "y", replace_all: true, expected_replacements: 3 },
      { path: "bin.dat", old_string: "a", new_string: "b" },
      { path: "big.txt", old_string: "missing", new_string: "y" },
    ];
    for (const input of failures) expect((await ws.call("Edit", input)).isError, JSON.stringify(input)).toBe(true);
    writeFileSync(`${ws.dir}/a.txt`, "x y\n");
    expect((await ws.call("Edit", { path: "a.txt", old_string: "y", new_string: "z" })).details).toMatchObject({ code: "stale_file" });
    expect(readdirSync(ws.dir).sort()).toEqual(["a.txt", "big.txt", "bin.dat"]);
    expect(read("a.txt")).toBe("x y\n");
  });

  it("keeps invalid UTF-8 bytes elsewhere in the file", async () => {
    ws = createTestWorkspace({ "latin.txt": Buffer.concat([Buffer.from("caf"), Buffer.from([0xe9]), Buffer.from(" old\n")]) });
    await ws.call("Edit", { path: "latin.txt", old_string: "old", new_string: "new" });
    expect(readFileSync(`${ws.dir}/latin.txt`)).toEqual(Buffer.concat([Buffer.from("caf"), Buffer.from([0xe9]), Buffer.from(" new\n")]));
  });
});
