import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type TestWorkspace, createTestWorkspace } from "../__fixtures__/workspace.js";
import { contentHash } from "../shared/content-hash.js";

let ws: TestWorkspace;
const extra: string[] = [];
afterEach(() => {
  ws?.cleanup();
  for (const dir of extra.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const read = (name: string) => readFileSync(`${ws.dir}/${name}`, "utf8");
const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

/** Bytes and mtime of each file, to prove a refused patch wrote nothing. */
function snapshot(names: readonly string[]) {
  return names.map((name) => {
    const file = `${ws.dir}/${name}`;
    return { name, bytes: readFileSync(file).toString("hex"), mtimeMs: statSync(file).mtimeMs, ino: statSync(file).ino };
  });
}

describe("ApplyPatch on the local disk", () => {
  it("updates a file, listing each hunk with its strategy and a unified diff", async () => {
    ws = createTestWorkspace({ "a.ts": "const a = 1;\nconst b = 2;\nconst c = 3;\n" });
    const result = await ws.call("ApplyPatch", {
      patch: patch("*** Update File: a.ts", "@@", " const a = 1;", "-const b = 2;", "+const b = 20;", " const c = 3;"),
    });
    expect(result.isError).toBe(false);
    expect(result.text).toBe("ApplyPatch: 1 file changed\nM a.ts: hunk 1 exact at line 1\nautoRead=full");
    expect(read("a.ts")).toBe("const a = 1;\nconst b = 20;\nconst c = 3;\n");
    expect(result.details).toMatchObject({
      kind: "apply_patch",
      files: [
        {
          path: "a.ts",
          absolutePath: `${ws.dir}/a.ts`,
          operation: "update",
          hunks: [{ hunk: 1, matchStrategy: "exact", startLine: 1 }],
          contentHash: contentHash(Buffer.from("const a = 1;\nconst b = 20;\nconst c = 3;\n")),
          totalLines: 3,
        },
      ],
    });
    expect(result.details.diff).toContain("-const b = 2;\n+const b = 20;\n");
    expect(result.details.diff).toContain("--- a/a.ts");
  });

  it("adds, deletes, updates and moves in one patch, keeping line endings, BOM, final-newline state and modes", async () => {
    ws = createTestWorkspace({
      "win.txt": "one\r\ntwo\r\nthree\r\n",
      "bom.txt": "\uFEFFalpha\nbeta",
      "old.txt": "bye\n",
      "run.sh": "#!/bin/sh\necho one\n",
    });
    chmodSync(`${ws.dir}/run.sh`, 0o751);
    const result = await ws.call("ApplyPatch", {
      patch: patch(
        "*** Add File: docs/new.md",
        "+# New",
        "+text",
        "*** Delete File: old.txt",
        "*** Update File: win.txt",
        "@@",
        " one",
        "-two",
        "+TWO",
        "+two and a half",
        "*** Update File: bom.txt",
        "@@",
        " alpha",
        "-beta",
        "+BETA",
        "*** End of File",
        "*** Update File: run.sh",
        "*** Move to: bin/run.sh",
        "@@",
        "-echo one",
        "+echo two",
      ),
    });
    expect(result.isError, result.text).toBe(false);
    expect(result.text.split("\n").slice(0, 6)).toEqual([
      "ApplyPatch: 5 files changed",
      "A docs/new.md",
      "D old.txt",
      "M win.txt: hunk 1 line-endings at line 1",
      "M bom.txt: hunk 1 exact at line 1",
      "R run.sh -> bin/run.sh: hunk 1 exact at line 2",
    ]);
    expect(read("docs/new.md")).toBe("# New\ntext\n");
    expect(existsSync(`${ws.dir}/old.txt`)).toBe(false);
    expect(read("win.txt")).toBe("one\r\nTWO\r\ntwo and a half\r\nthree\r\n");
    expect(read("bom.txt")).toBe("\uFEFFalpha\nBETA");
    expect(existsSync(`${ws.dir}/run.sh`)).toBe(false);
    expect(read("bin/run.sh")).toBe("#!/bin/sh\necho two\n");
    expect(statSync(`${ws.dir}/bin/run.sh`).mode & 0o777).toBe(0o751);
    expect(result.details.files.map((file: { operation: string }) => file.operation)).toEqual(["add", "delete", "update", "update", "move"]);
    expect(result.details.files[4]).toMatchObject({ path: "run.sh", movedTo: "bin/run.sh" });
  });

  it("writes nothing when the last hunk of a 5-file patch fails (bytes and mtimes unchanged)", async () => {
    const names = ["f1.txt", "f2.txt", "f3.txt", "f4.txt", "f5.txt"];
    ws = createTestWorkspace(Object.fromEntries(names.map((name) => [name, `first of ${name}\nsecond\nthird\n`])));
    const old = new Date(Date.now() - 3_600_000);
    for (const name of names) utimesSync(`${ws.dir}/${name}`, old, old);
    const before = snapshot(names);
    const hunks = names.flatMap((name, index) => [
      `*** Update File: ${name}`,
      "@@",
      index === 4 ? "-this line is nowhere" : `-first of ${name}`,
      `+FIRST of ${name}`,
    ]);
    const result = await ws.call("ApplyPatch", { patch: patch(...hunks, "*** Add File: made/new.txt", "+x") });
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ code: "edit_no_match" });
    expect(result.text).toContain("f5.txt");
    expect(result.text).toContain("Nothing was written");
    expect(snapshot(names)).toEqual(before);
    // The directory held for the added file is gone again.
    expect(existsSync(`${ws.dir}/made`)).toBe(false);
  });

  it("refuses an Add over an existing file unless it was read, then replaces it", async () => {
    ws = createTestWorkspace({ "a.txt": "old\n" });
    const refused = await ws.call("ApplyPatch", { patch: patch("*** Add File: a.txt", "+new") });
    expect(refused.details).toMatchObject({ code: "conflict" });
    expect(read("a.txt")).toBe("old\n");
    await ws.call("Read", { path: "a.txt" });
    const replaced = await ws.call("ApplyPatch", { patch: patch("*** Add File: a.txt", "+new") });
    expect(replaced.text).toContain("A a.txt (replaced the file you read)");
    expect(read("a.txt")).toBe("new\n");
  });

  it("never moves over an existing file", async () => {
    ws = createTestWorkspace({ "a.txt": "a\n", "b.txt": "b\n" });
    const result = await ws.call("ApplyPatch", { patch: patch("*** Update File: a.txt", "*** Move to: b.txt", "@@", "-a", "+A") });
    expect(result.details).toMatchObject({ code: "conflict" });
    expect(result.text).toContain("never overwrites");
    expect([read("a.txt"), read("b.txt")]).toEqual(["a\n", "b\n"]);
  });

  it("refuses a file changed on disk since it was read (stale_file), writing nothing", async () => {
    ws = createTestWorkspace({ "a.txt": "one\n", "b.txt": "two\n" });
    await ws.call("Read", { path: "a.txt" });
    writeFileSync(`${ws.dir}/a.txt`, "one changed elsewhere\n");
    const result = await ws.call("ApplyPatch", {
      patch: patch("*** Update File: b.txt", "@@", "-two", "+TWO", "*** Update File: a.txt", "@@", "-one changed elsewhere", "+x"),
    });
    expect(result.details).toMatchObject({ code: "stale_file" });
    expect([read("a.txt"), read("b.txt")]).toEqual(["one changed elsewhere\n", "two\n"]);
  });

  it("refuses two names of one file, a missing file and a malformed patch", async () => {
    ws = createTestWorkspace({ "a.txt": "a\n" });
    const twice = await ws.call("ApplyPatch", { patch: patch("*** Update File: a.txt", "@@", "-a", "+b", "*** Delete File: ./a.txt") });
    expect(twice.details).toMatchObject({ code: "invalid_arguments" });
    const missing = await ws.call("ApplyPatch", { patch: patch("*** Update File: nope.txt", "@@", "-a", "+b") });
    expect(missing.details).toMatchObject({ code: "not_found" });
    const malformed = await ws.call("ApplyPatch", { patch: "*** Update File: a.txt\n-a\n+b" });
    expect(malformed.details).toMatchObject({ code: "invalid_arguments" });
    expect(read("a.txt")).toBe("a\n");
  });

  it("applies the path policy of Write, Edit and Delete to every path of the patch", async () => {
    const outside = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-apply-outside-")));
    extra.push(outside);
    writeFileSync(`${outside}/secret.txt`, "secret\n");
    const readOnly = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-apply-ro-")));
    extra.push(readOnly);
    writeFileSync(`${readOnly}/notes.md`, "notes\n");
    ws = createTestWorkspace({ "a.txt": "a\n" }, { additionalRoots: [{ alias: "docs", path: readOnly, access: "read" }] });
    symlinkSync(`${outside}/secret.txt`, `${ws.dir}/link.txt`);
    mkdirSync(`${ws.dir}/.git`);
    const cases: Array<[string, string]> = [
      [patch("*** Update File: a.txt", "@@", "-a", "+b", `*** Add File: ${outside}/new.txt`, "+x"), "out_of_bounds"],
      [patch("*** Update File: a.txt", "@@", "-a", "+b", "*** Add File: ../escape.txt", "+x"), "invalid_path"],
      [patch("*** Update File: a.txt", "@@", "-a", "+b", "*** Update File: root://docs/notes.md", "@@", "-notes", "+x"), "permission_denied"],
      [patch("*** Update File: a.txt", "@@", "-a", "+b", "*** Update File: link.txt", "@@", "-secret", "+x"), "out_of_bounds"],
      [patch("*** Update File: a.txt", "@@", "-a", "+b", "*** Add File: .git/config", "+x"), "permission_denied"],
      [patch("*** Update File: a.txt", "*** Move to: ../moved.txt", "@@", "-a", "+b"), "invalid_path"],
    ];
    for (const [text, code] of cases) {
      const result = await ws.call("ApplyPatch", { patch: text });
      expect(result.details, text).toMatchObject({ code });
    }
    expect(read("a.txt")).toBe("a\n");
    expect(readFileSync(`${outside}/secret.txt`, "utf8")).toBe("secret\n");
    expect(existsSync(`${outside}/new.txt`)).toBe(false);
    expect(readFileSync(`${readOnly}/notes.md`, "utf8")).toBe("notes\n");
    expect(existsSync(`${ws.dir}/.git/config`)).toBe(false);
  });

  it("locks files in one order: two patches over the same files in opposite orders both land", async () => {
    ws = createTestWorkspace({ "a.txt": "a1\na2\n", "b.txt": "b1\nb2\n" });
    const [first, second] = await Promise.all([
      ws.call("ApplyPatch", { patch: patch("*** Update File: a.txt", "@@", "-a1", "+A1", "*** Update File: b.txt", "@@", "-b1", "+B1") }),
      ws.call("ApplyPatch", { patch: patch("*** Update File: b.txt", "@@", "-b2", "+B2", "*** Update File: a.txt", "@@", "-a2", "+A2") }),
    ]);
    expect([first.isError, second.isError]).toEqual([false, false]);
    expect([read("a.txt"), read("b.txt")]).toEqual(["A1\nA2\n", "B1\nB2\n"]);
  });

  it("refuses a symlink as a deletion target and a binary file as an update target", async () => {
    ws = createTestWorkspace({ "a.txt": "a\n", "bin.dat": Buffer.from([0x61, 0x00, 0x0a]) });
    symlinkSync("a.txt", `${ws.dir}/alias.txt`);
    const link = await ws.call("ApplyPatch", { patch: patch("*** Delete File: alias.txt") });
    expect(link.details).toMatchObject({ code: "unsupported_target" });
    const binary = await ws.call("ApplyPatch", { patch: patch("*** Update File: bin.dat", "@@", "-a", "+b") });
    expect(binary.details).toMatchObject({ code: "binary_file" });
    expect(existsSync(`${ws.dir}/alias.txt`)).toBe(true);
  });

  it("is listed with the fs group's edit kind and JSON schema", () => {
    ws = createTestWorkspace();
    const tool = ws.registry.tools.find((listed) => listed.name === "ApplyPatch");
    expect(tool?.inputSchema).toMatchObject({ type: "object", required: ["patch"], properties: { patch: { type: "string" } } });
    expect(ws.registry.metadataByName.ApplyPatch).toMatchObject({ groupId: "fs", kind: "edit", isReadOnly: false });
  });
});

describe("ApplyPatch limits", () => {
  it("refuses two spellings of one new file, one through a symlinked folder, at once (no wait on its own lock)", async () => {
    ws = createTestWorkspace({ "real/keep.txt": "k\n" });
    symlinkSync("real", `${ws.dir}/alias`);
    const result = await ws.call("ApplyPatch", { patch: patch("*** Add File: real/new.txt", "+a", "*** Add File: alias/new.txt", "+b") });
    expect(result.details).toMatchObject({ code: "invalid_arguments" });
    expect(result.text).toContain("are the same file");
    expect(existsSync(`${ws.dir}/real/new.txt`)).toBe(false);
  });

  it("refuses a patch touching more than 256 paths before holding any", async () => {
    ws = createTestWorkspace();
    const adds = Array.from({ length: 257 }, (_, index) => [`*** Add File: many/f${index}.txt`, "+x"]).flat();
    const result = await ws.call("ApplyPatch", { patch: patch(...adds) });
    expect(result.details).toMatchObject({ code: "invalid_arguments", limit: 256 });
    expect(existsSync(`${ws.dir}/many`)).toBe(false);
    const fits = await ws.call("ApplyPatch", { patch: patch(...adds.slice(0, 512)) });
    expect(fits.isError, fits.text).toBe(false);
    expect(readFileSync(`${ws.dir}/many/f255.txt`, "utf8")).toBe("x\n");
  });
});

describe("ApplyPatch's diff", () => {
  it("leaves out the diff of a large file (a line diff of megabytes would hold the event loop for seconds)", async () => {
    const big = Array.from({ length: 40_000 }, (_, index) => `line ${index}`).join("\n");
    ws = createTestWorkspace({ "big.txt": `${big}\n`, "small.txt": "a\n" });
    const result = await ws.call("ApplyPatch", { patch: patch("*** Delete File: big.txt", "*** Update File: small.txt", "@@", "-a", "+b") });
    expect(result.isError, result.text).toBe(false);
    expect(result.details.diff).toBe(
      `diff of big.txt left out: ${big.length + 1} -> 0 bytes, more than the 262144 a diff covers\n--- a/small.txt\n+++ b/small.txt\n@@ -1,1 +1,1 @@\n-a\n+b\n`,
    );
  });
});

describe("ApplyPatch's tolerant hunks and abort", () => {
  it("notes a tolerant strategy, keeps the file's own bytes for context lines, and refuses an ambiguous hunk", async () => {
    ws = createTestWorkspace({ "q.py": "def f():\n    print(\u201chi\u201d)\n    return 1\n", "twice.txt": "x = 1\ny\nx = 1\n" });
    const result = await ws.call("ApplyPatch", { patch: patch("*** Update File: q.py", "@@ def f():", '     print("hi")', "-    return 1", "+    return 2") });
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain("M q.py: hunk 1 unicode-punctuation at line 2");
    expect(result.text).toContain("Note: unicode-punctuation:");
    expect(read("q.py")).toBe("def f():\n    print(\u201chi\u201d)\n    return 2\n");
    const ambiguous = await ws.call("ApplyPatch", { patch: patch("*** Update File: twice.txt", "@@", "-x = 1", "+x = 2") });
    expect(ambiguous.details).toMatchObject({ code: "edit_ambiguous" });
    expect(read("twice.txt")).toBe("x = 1\ny\nx = 1\n");
  });

  it("changes nothing when the host aborted the call", async () => {
    ws = createTestWorkspace({ "a.txt": "a\n" });
    const controller = new AbortController();
    controller.abort();
    const result = await ws.call(
      "ApplyPatch",
      { patch: patch("*** Update File: a.txt", "@@", "-a", "+b", "*** Add File: new.txt", "+n") },
      { signal: controller.signal },
    );
    expect(result.isError).toBe(true);
    expect(read("a.txt")).toBe("a\n");
    expect(existsSync(`${ws.dir}/new.txt`)).toBe(false);
  });
});

describe("ApplyPatch's hunk bound", () => {
  it("refuses a patch of more than 1000 hunks before reading any file", async () => {
    ws = createTestWorkspace({ "big.txt": `${Array.from({ length: 2000 }, (_, index) => `line ${index}`).join("\n")}\n` });
    const hunks = Array.from({ length: 1001 }, (_, index) => ["@@", `-line ${index}`, `+LINE ${index}`]).flat();
    const result = await ws.call("ApplyPatch", { patch: patch("*** Update File: big.txt", ...hunks) });
    // The parser stops at the 1001st hunk: a flood of hunks is never built whole.
    expect(result.details).toMatchObject({ code: "invalid_arguments", limit: 1000, patchLine: 2 + 1000 * 3 + 1 });
    expect(result.text).toContain("more than 1000 hunks");
    expect(read("big.txt")).toContain("line 1000\n");
  });
});

describe("ApplyPatch's search budget", () => {
  it("refuses more hunks than one patch searches through a large file, naming how many fit", async () => {
    ws = createTestWorkspace({ "big.txt": `${Array.from({ length: 300_000 }, (_, index) => `line ${index}`).join("\n")}\n` });
    const hunks = Array.from({ length: 1000 }, (_, index) => ["@@", `-line ${index * 100}`, `+LINE ${index * 100}`]).flat();
    const result = await ws.call("ApplyPatch", { patch: patch("*** Update File: big.txt", ...hunks) });
    expect(result.details).toMatchObject({ code: "invalid_arguments", hunks: 1000, lines: 300_001, limit: 833 });
    expect(result.text).toContain("Send at most 833 hunks for it per patch");
    expect(read("big.txt").startsWith("line 0\n")).toBe(true);
  });
});
