import { readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../__fixtures__/workspace.js";
import { contentHash } from "../shared/content-hash.js";
import { FileToolState } from "../shared/file-state.js";
import { countLines } from "../shared/text-preview.js";
import { MAX_EDITS } from "./edit-form.js";

let ws: TestWorkspace;
afterEach(() => ws?.cleanup());
const bytes = (name: string) => readFileSync(`${ws.dir}/${name}`);
const text = (name: string) => bytes(name).toString("utf8");
const pair = (old_string: string, new_string: string, replace_all?: boolean) => ({
  old_string,
  new_string,
  ...(replace_all === undefined ? {} : { replace_all }),
});

describe("Edit with several edits: arguments", () => {
  it("refuses an empty list, too many edits, expected_replacements, a top-level replace_all, an empty old_string and half a pair", async () => {
    ws = createTestWorkspace({ "a.txt": "one\ntwo\n" });
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ edits: [] }, /edits/],
      [{ edits: Array.from({ length: MAX_EDITS + 1 }, () => pair("one", "1")) }, /edits/],
      [{ edits: [pair("one", "1")], expected_replacements: 1 }, /expected_replacements applies to old_string\/new_string only/],
      [{ edits: [pair("one", "1")], replace_all: true }, /set replace_all=true on the edit it is for/],
      [{ edits: [pair("one", "1"), pair("", "x")] }, /^Edit failed: edit 2 of 2 has an empty old_string\. To create a file use Write/],
      [{ old_string: "one" }, /^Edit needs new_string: send old_string and new_string/],
      [{ new_string: "one" }, /^Edit needs old_string: send old_string and new_string/],
      [{ old_string: "", new_string: "x" }, /^Edit needs a non-empty old_string/],
    ];
    for (const [args, message] of cases) {
      const result = await ws.call("Edit", { path: "a.txt", ...args });
      expect(result.details, JSON.stringify(args).slice(0, 80)).toMatchObject({ code: "invalid_arguments" });
      expect(result.text).toMatch(message);
    }
    expect(text("a.txt")).toBe("one\ntwo\n");
  });

  it("states the form and its cap in the schema and the description", () => {
    ws = createTestWorkspace();
    const tool = ws.registry.tools.find((candidate) => candidate.name === "Edit")!;
    const edits = (tool.inputSchema.properties as Record<string, Record<string, unknown>>).edits!;
    expect(edits).toMatchObject({ type: "array", minItems: 1, maxItems: MAX_EDITS });
    expect(String(edits.description)).toContain(`at most ${MAX_EDITS}`);
    expect(tool.inputSchema.required).toEqual(["path"]);
    expect(String(edits.description)).toMatch(/Instead of old_string\/new_string: at most \d+, in order, each on the result of the previous ones, all or none/);
  });
});

describe("Edit with several edits: matching", () => {
  it("matches each edit on the text the earlier ones left (a later edit may use text next to an earlier one's)", async () => {
    ws = createTestWorkspace({ "a.txt": "abc\n" });
    const result = await ws.call("Edit", { path: "a.txt", edits: [pair("b", "B"), pair("c", "C"), pair("a", "")] });
    expect(result.isError, result.text).toBe(false);
    expect(text("a.txt")).toBe("BC\n");
    expect(result.details).toMatchObject({ replacements: 3, edits: [{ replacements: 1 }, { replacements: 1 }, { replacements: 1 }] });
  });

  it("keeps every edit when the text grows past the buffers between edits", async () => {
    ws = createTestWorkspace({ "a.txt": "A B C D E\n" });
    const edits = [pair("A", "a".repeat(200)), pair("B", "b".repeat(300)), pair("C", "c".repeat(400)), pair("D", ""), pair("E", "e\n".repeat(50))];
    const result = await ws.call("Edit", { path: "a.txt", edits });
    expect(result.isError, result.text).toBe(false);
    expect(text("a.txt")).toBe(`${"a".repeat(200)} ${"b".repeat(300)} ${"c".repeat(400)}  ${"e\n".repeat(50)}\n`);
    expect(result.details).toMatchObject({ totalLines: 51, contentHash: contentHash(bytes("a.txt")) });
  });

  it("counts an earlier edit's new text when it decides a later edit is ambiguous", async () => {
    ws = createTestWorkspace({ "a.txt": "foo\nbar\n" });
    const result = await ws.call("Edit", { path: "a.txt", edits: [pair("bar", "foo2"), pair("foo", "baz")] });
    expect(result.details).toMatchObject({ code: "edit_ambiguous", edit: 2, matches: 2 });
    expect(text("a.txt")).toBe("foo\nbar\n");
  });

  it("refuses an edit that spans where an earlier edit deleted text, or whose replace_all reaches an earlier edit's text", async () => {
    ws = createTestWorkspace({ "a.txt": "aXb\n", "b.txt": "k = 1\nk = 2\n" });
    const joined = await ws.call("Edit", { path: "a.txt", edits: [pair("X", ""), pair("ab", "c")] });
    expect(joined.details).toMatchObject({ code: "conflict", edit: 2, overlapsEdit: 1 });
    expect(joined.text).toContain("or joins text around what edit 1 deleted");
    // Next to the deletion, not across it: fine.
    const beside = await ws.call("Edit", { path: "a.txt", edits: [pair("X", ""), pair("b", "B")] });
    expect(beside.isError, beside.text).toBe(false);
    expect(text("a.txt")).toBe("aB\n");
    const all = await ws.call("Edit", { path: "b.txt", edits: [pair("k = 2", "k = 3"), pair("k = ", "key = ", true)] });
    expect(all.details).toMatchObject({ code: "conflict", edit: 2, overlapsEdit: 1 });
    expect(text("b.txt")).toBe("k = 1\nk = 2\n");
  });

  it("tracks earlier edits' text as later edits shift it (a third edit over the first edit's text is refused)", async () => {
    ws = createTestWorkspace({ "a.txt": "one two three four\n" });
    const result = await ws.call("Edit", { path: "a.txt", edits: [pair("three", "3"), pair("one", "ONE ONE"), pair("two 3", "x")] });
    expect(result.details).toMatchObject({ code: "conflict", edit: 3, overlapsEdit: 1 });
    const fine = await ws.call("Edit", { path: "a.txt", edits: [pair("three", "3"), pair("one", "ONE ONE"), pair("four", "4"), pair("two", "2")] });
    expect(fine.isError, fine.text).toBe(false);
    expect(text("a.txt")).toBe("ONE ONE 2 3 4\n");
  });

  it("keeps bytes that are not UTF-8, the BOM and CRLF; tolerant passes per edit", async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const original = Buffer.concat([bom, Buffer.from("name = \xff\r\nvalue = 1   \r\nend\r\n", "latin1")]);
    ws = createTestWorkspace({ "c.cfg": original });
    const result = await ws.call("Edit", { path: "c.cfg", edits: [pair("value = 1\nend", "value = 2\nend"), pair("name = ", "key = ")] });
    expect(result.isError, result.text).toBe(false);
    expect(result.details).toMatchObject({ edits: [{ matchStrategy: "trailing-whitespace" }, { matchStrategy: "exact" }] });
    expect(bytes("c.cfg")).toEqual(Buffer.concat([bom, Buffer.from("key = \xff\r\nvalue = 2\r\nend\r\n", "latin1")]));
    expect(result.text).toContain("Edit 1: Note: old_string matched ignoring per-line trailing whitespace");
  });

  it("refuses a stale file before matching, and chains with a later single-form Edit without a re-read", async () => {
    ws = createTestWorkspace({ "a.txt": "one\ntwo\n" });
    await ws.call("Read", { path: "a.txt" });
    writeFileSync(`${ws.dir}/a.txt`, "one\ntwo\nthree\n");
    const stale = await ws.call("Edit", { path: "a.txt", edits: [pair("one", "1")] });
    expect(stale.details).toMatchObject({ code: "stale_file" });
    await ws.call("Read", { path: "a.txt" });
    const multi = await ws.call("Edit", { path: "a.txt", edits: [pair("one", "1"), pair("two", "2")] });
    expect(multi.text).toBe("Edit: a.txt\nedits=2\nreplacements=2");
    expect(multi.details).toMatchObject({ totalLines: 3, contentHash: contentHash(bytes("a.txt")) });
    const single = await ws.call("Edit", { path: "a.txt", old_string: "three", new_string: "3" });
    expect(single.text).toBe("Edit: a.txt\nreplacements=1\nreplaceAll=false");
    expect(single.details).not.toHaveProperty("edits");
    expect(text("a.txt")).toBe("1\n2\n3\n");
  });
});

/** About `size` bytes of numbered lines. */
function bigText(size: number): string {
  const lines: string[] = [];
  let total = 0;
  for (let index = 0; total < size; index += 1) {
    const line = `  const value${index} = compute(${index});`;
    lines.push(line);
    total += line.length + 1;
  }
  return `${lines.join("\n")}\n`;
}

describe("Edit with several edits: a large file", () => {
  it("writes the edits, counts the new lines without the inline hash, and records the hash when it arrives", async () => {
    const state = new FileToolState();
    const original = bigText(3_000_000);
    ws = createTestWorkspace({ "big.ts": original }, { state, inlineHashLimitBytes: 1000 });
    const result = await ws.call("Edit", {
      path: "big.ts",
      edits: [
        pair("const value10 = compute(10);", "const ten = compute(10);\n// ten\n"),
        pair("const value20000 = compute(20000);\n", ""),
        pair("compute(7", "measure(7", true),
      ],
    });
    expect(result.isError, result.text).toBe(false);
    expect(result.details).not.toHaveProperty("contentHash");
    const expected = original
      .replace("const value10 = compute(10);", "const ten = compute(10);\n// ten\n")
      .replace("const value20000 = compute(20000);\n", "")
      .split("compute(7")
      .join("measure(7");
    const written = bytes("big.ts");
    expect(written.toString()).toBe(expected);
    expect(result.details.totalLines).toBe(countLines(written));
    expect(result.details.edits[2].replacements).toBe(original.split("compute(7").length - 1);
    const file = `${ws.dir}/big.ts`;
    const recorded = state.getLatestFullText(file)!;
    await state.getPendingHash(file, recorded)?.promise.catch(() => undefined);
    expect(state.getLatestFullText(file)!.contentHash).toBe(contentHash(written));
    expect(ws.fastIo.usage().busyBuffers).toBe(0);
  });
});

describe("Edit with several edits: an unknown key inside an edit", () => {
  it("is refused, not dropped (a misspelt replace_all must not turn into a single replacement)", async () => {
    ws = createTestWorkspace({ "a.txt": "k\nk\n" });
    const result = await ws.call("Edit", { path: "a.txt", edits: [{ old_string: "k", new_string: "v", replaceAll: true }] });
    expect(result.details).toMatchObject({ code: "invalid_arguments" });
    expect(result.text).toContain("replaceAll");
    expect(text("a.txt")).toBe("k\nk\n");
  });
});
