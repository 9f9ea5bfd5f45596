import { describe, expect, it } from "vitest";
import { applyEditMatches, dominantEol, findEditMatches, replaceInText } from "./edit-match.js";

const run = (text: string, oldString: string, newString: string, replaceAll = false) => replaceInText(text, oldString, newString, replaceAll);

describe("exact pass", () => {
  it("replaces a single match", () => {
    expect(run("hello world", "world", "there")).toEqual({ text: "hello there", strategy: "exact", matches: 1 });
  });
  it("counts non-overlapping matches, resuming after each hit", () => {
    expect(findEditMatches(Buffer.from("aaa"), "aa", "b")?.matches).toHaveLength(1);
  });
  it("replace_all replaces every match", () => {
    expect(run("foo bar foo", "foo", "baz", true)?.text).toBe("baz bar baz");
  });
  it("exact beats fuzzy", () => {
    const result = run("a\nb \nb\n", "b\n", "X\n");
    expect(result).toEqual({ text: "a\nb \nX\n", strategy: "exact", matches: 1 });
  });
  it("no match and an empty needle give nothing", () => {
    expect(run("abc", "zzz", "y")).toBeNull();
    expect(run("abc", "", "y")).toBeNull();
  });
});

describe("line-endings pass", () => {
  it("CRLF file with an LF needle stays CRLF", () => {
    expect(run("one\r\ntwo\r\nthree\r\n", "one\ntwo\n", "uno\ndos\n")).toEqual({ text: "uno\r\ndos\r\nthree\r\n", strategy: "line-endings", matches: 1 });
  });
  it("LF file with a CRLF needle stays LF", () => {
    expect(run("one\ntwo\nthree\n", "one\r\ntwo\r\n", "uno\r\ndos\r\n")).toEqual({ text: "uno\ndos\nthree\n", strategy: "line-endings", matches: 1 });
  });
  it("matches a mid-line CRLF fragment", () => {
    expect(run("let a = 1;\r\nlet b = 2;\r\n", "1;\nlet b", "10;\nlet c")).toEqual({
      text: "let a = 10;\r\nlet c = 2;\r\n",
      strategy: "line-endings",
      matches: 1,
    });
  });
  it("a BOM file keeps its BOM", () => {
    const result = run("\uFEFFalpha\r\nbeta\r\n", "alpha\nbeta", "ALPHA\nBETA");
    expect(result?.text).toBe("\uFEFFALPHA\r\nBETA\r\n");
    expect(result?.strategy).toBe("line-endings");
  });
  it("a BOM-prefixed needle matches a plain file", () => {
    expect(run("alpha\nbeta\n", "\uFEFFalpha", "gamma")).toEqual({ text: "gamma\nbeta\n", strategy: "line-endings", matches: 1 });
  });
  it("a match starting at the LF of a CRLF pair leaves no orphan CR", () => {
    expect(run("foo()\r\nbar()\r\nbaz()\r\n", "\nbar()\n", "\nBAR()\n")?.text).toBe("foo()\r\nBAR()\r\nbaz()\r\n");
  });
  it("replaces across CRLF pairs in the dominant style", () => {
    expect(run("a\r\nb\r\nc\r\n", "\nb\n", " b\n")?.text).toBe("a b\r\nc\r\n");
  });
  it("renders the replacement in the dominant EOL", () => {
    expect(dominantEol("a\r\nb\r\nc\nd")).toBe("\r\n");
    expect(run("a\r\nb\r\nc\nd", "a\nb", "x\ny")?.text).toBe("x\r\ny\r\nc\nd");
  });
  it("unicode survives", () => {
    expect(run("héllo\r\nwörld ✓\r\n", "héllo\nwörld", "привет\nмир")?.text).toBe("привет\r\nмир ✓\r\n");
  });
  it("lone CR is not normalised", () => {
    expect(run("a\rb\n", "a\nb", "x")).toBeNull();
  });
});

describe("trailing-whitespace pass", () => {
  it("ignores trailing whitespace in the file", () => {
    expect(run("if (x) {  \n  go();\t\n}\n", "if (x) {\n  go();\n}\n", "if (y) {\n  stop();\n}\n")).toEqual({
      text: "if (y) {\n  stop();\n}\n",
      strategy: "trailing-whitespace",
      matches: 1,
    });
  });
  it("ignores trailing whitespace in the needle", () => {
    expect(run("alpha\nbeta\ngamma\n", "alpha   \nbeta  \n", "A\nB\n")).toEqual({ text: "A\nB\ngamma\n", strategy: "trailing-whitespace", matches: 1 });
  });
  it("respects CRLF files", () => {
    expect(run("alpha  \r\nbeta\r\ngamma\r\n", "alpha\nbeta\n", "A\nB\n")).toEqual({
      text: "A\r\nB\r\ngamma\r\n",
      strategy: "trailing-whitespace",
      matches: 1,
    });
  });
  it("matches the last line without a newline", () => {
    expect(run("a  \nfoo  ", "a\nfoo", "a\nbar")).toEqual({ text: "a\nbar", strategy: "trailing-whitespace", matches: 1 });
  });
  it("never matches mid-line fragments", () => {
    expect(run("prefix core suffix\n", "core extra", "x")).toBeNull();
  });
});

describe("indentation pass", () => {
  it("adds a uniform shift and re-indents the replacement", () => {
    const file = "class A {\n    run() {\n        go();\n    }\n}\n";
    expect(run(file, "run() {\n    go();\n}", "run() {\n    stop();\n}")).toEqual({
      text: "class A {\n    run() {\n        stop();\n    }\n}\n",
      strategy: "indentation",
      matches: 1,
    });
  });
  it("removes a uniform shift", () => {
    const file = "run() {\n  go();\n}\n";
    expect(run(file, "    run() {\n      go();\n    }", "    run() {\n      stop();\n    }")?.text).toBe("run() {\n  stop();\n}\n");
  });
  it("works with tabs", () => {
    expect(run("\t\tif (a) {\n\t\t\tb();\n\t\t}\n", "if (a) {\n\tb();\n}", "if (c) {\n\td();\n}")?.text).toBe("\t\tif (c) {\n\t\t\td();\n\t\t}\n");
  });
  it("keeps relative indentation and skips blank lines", () => {
    const file = "  def f():\n\n      return 1\n";
    const result = run(file, "def f():\n\n    return 1\n", "def g():\n\n    return 2\n");
    expect(result).toEqual({ text: "  def g():\n\n      return 2\n", strategy: "indentation", matches: 1 });
  });
  it("rejects non-uniform shifts (4 vs 2)", () => {
    expect(run("    a();\n  b();\n", "a();\nb();", "x")).toBeNull();
  });
  it("rejects a partially shifted window", () => {
    expect(run("a();\n  b();\n", "  a();\n  b();", "x")).toBeNull();
  });
  it("rejects opposite directions", () => {
    expect(run("    a();\nb();\n", "  a();\n  b();", "x")).toBeNull();
  });
  it("rejects tab against spaces", () => {
    expect(run("\ta();\n\tb();\n", "    a();\n    b();", "x")).toBeNull();
  });
  it("rejects a Remove the replacement cannot absorb", () => {
    expect(run("a();\nb();\n", "    a();\n    b();", "c();\nd();")).toBeNull();
  });
  it("renders the replacement in the dominant EOL", () => {
    expect(run("  a\r\n  b\r\n", "a\nb\n", "c\nd\n")?.text).toBe("  c\r\n  d\r\n");
  });
});

describe("multiple matches", () => {
  it("a fuzzy pass reports every match", () => {
    const result = findEditMatches(Buffer.from("x = 1  \ny\nx = 1 \n"), "x = 1\ny\n", "z");
    expect(result?.strategy).toBe("trailing-whitespace");
    const two = findEditMatches(Buffer.from("  k\n  k\n"), "    k\n", "    z\n");
    expect(two?.strategy).toBe("indentation");
    expect(two?.matches).toHaveLength(2);
  });
  it("windows do not overlap", () => {
    const result = findEditMatches(Buffer.from("x \nx \nx \n"), "x\nx\n", "y\n");
    expect(result?.strategy).toBe("trailing-whitespace");
    expect(result?.matches).toHaveLength(1);
  });
  it("replace_all applies fuzzy matches everywhere", () => {
    expect(run("  k\n  k\n", "    k\n", "    m\n", true)?.text).toBe("  m\n  m\n");
  });
});

describe("bytes", () => {
  it("keeps invalid UTF-8 bytes outside the match untouched", () => {
    const content = Buffer.concat([Buffer.from([0xff, 0xfe, 0x0a]), Buffer.from("hello\r\n")]);
    const result = findEditMatches(content, "hello\n", "bye\n");
    expect(result?.strategy).toBe("line-endings");
  });
});

describe("an exact match in a CRLF file", () => {
  it("writes new_string's line breaks in the file's line ending when old_string has none", () => {
    const content = Buffer.from("import sys, glob\r\nsys.path.insert(0, '..')\r\n");
    const result = findEditMatches(content, "import sys, glob", "from x import y\nimport sys, glob");
    expect(result?.strategy).toBe("exact");
    expect(applyEditMatches(content, result!.matches, false).toString()).toBe("from x import y\r\nimport sys, glob\r\nsys.path.insert(0, '..')\r\n");
  });

  it("keeps new_string as sent when old_string's own LF breaks matched exactly, and in an LF file", () => {
    const mixed = Buffer.from("a\r\nb\nc\r\n");
    const kept = findEditMatches(mixed, "b\nc", "B\nC");
    expect(applyEditMatches(mixed, kept!.matches, false).toString()).toBe("a\r\nB\nC\r\n");
    const lf = Buffer.from("a\nb\n");
    const single = findEditMatches(lf, "a", "x\ny");
    expect(applyEditMatches(lf, single!.matches, false).toString()).toBe("x\ny\nb\n");
  });
});
