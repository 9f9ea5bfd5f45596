import type { PatchHunk, PatchLine } from "@agent-tools/core/patch";
import { describe, expect, it } from "vitest";
import { applyPatchHunks } from "./apply-patch-hunks.js";
import { PatchHunkError } from "./patch-hunk-error.js";

/** A hunk from diff-like lines: " context", "-removed", "+added". */
function hunk(body: string[], extra: Partial<PatchHunk> = {}): PatchHunk {
  const kinds = { " ": "context", "-": "remove", "+": "add" } as const;
  const lines: PatchLine[] = body.map((line) => ({ kind: kinds[line[0] as " " | "-" | "+"], text: line.slice(1) }));
  return { anchors: [], lines, endOfFile: false, patchLine: 1, ...extra };
}

const apply = (content: string | Buffer, hunks: PatchHunk[]) => {
  const result = applyPatchHunks(typeof content === "string" ? Buffer.from(content, "utf8") : content, hunks, { displayPath: "src/file.ts" });
  return { text: Buffer.concat(result.pieces).toString("utf8"), bytes: Buffer.concat(result.pieces), hunks: result.hunks };
};

const failure = (content: string, hunks: PatchHunk[]): PatchHunkError => {
  try {
    apply(content, hunks);
  } catch (error) {
    if (error instanceof PatchHunkError) return error;
    throw error;
  }
  throw new Error("the patch applied");
};

const FILE = ["function a() {", "  return 1;", "}", "", "function b() {", "  return 2;", "}", ""].join("\n");

describe("passes, strictest first", () => {
  it("exact", () => {
    const result = apply(FILE, [hunk([" function b() {", "-  return 2;", "+  return 3;", " }"])]);
    expect(result.text).toBe(FILE.replace("return 2", "return 3"));
    expect(result.hunks).toEqual([{ hunk: 1, matchStrategy: "exact", startLine: 5 }]);
  });

  it("line-endings: a CRLF file gets CRLF added lines", () => {
    const crlf = FILE.replace(/\n/g, "\r\n");
    const result = apply(crlf, [hunk([" function b() {", "-  return 2;", "+  return 3;", "+  // done", " }"])]);
    expect(result.text).toBe(crlf.replace("  return 2;\r\n", "  return 3;\r\n  // done\r\n"));
    expect(result.hunks[0]!.matchStrategy).toBe("line-endings");
  });

  it("trailing-whitespace: the file's trailing spaces of context lines are kept", () => {
    const file = "one  \ntwo\t\nthree\n";
    const result = apply(file, [hunk([" one", "-two", "+TWO", " three"])]);
    expect(result.text).toBe("one  \nTWO\nthree\n");
    expect(result.hunks[0]!.matchStrategy).toBe("trailing-whitespace");
  });

  it("indentation: a uniform shift re-indents the added lines", () => {
    const file = "class A {\n    run() {\n        go();\n    }\n}\n";
    const result = apply(file, [hunk([" run() {", "-    go();", "+    stop();", "+    go();", " }"])]);
    expect(result.text).toBe("class A {\n    run() {\n        stop();\n        go();\n    }\n}\n");
    expect(result.hunks[0]).toEqual({ hunk: 1, matchStrategy: "indentation", startLine: 2 });
  });

  it("indentation: a removed shift", () => {
    const file = "if (x) {\n  y();\n}\n";
    const result = apply(file, [hunk(["     if (x) {", "-      y();", "+      z();", "     }"])]);
    expect(result.text).toBe("if (x) {\n  z();\n}\n");
  });

  it("indentation: tabs in the file for the patch's spaces", () => {
    const file = "func main() {\n\tif ok {\n\t\trun()\n\t}\n}\n";
    const result = apply(file, [hunk([" func main() {", "     if ok {", "-        run()", "+        walk()", "+        run()", "     }"])]);
    expect(result.text).toBe("func main() {\n\tif ok {\n\t\twalk()\n\t\trun()\n\t}\n}\n");
    expect(result.hunks[0]!.matchStrategy).toBe("indentation");
  });

  it("indentation: spaces in the file for the patch's tabs", () => {
    const file = "def f():\n    if x:\n        g()\n";
    const result = apply(file, [hunk([" def f():", " \tif x:", "-\t\tg()", "+\t\th()"])]);
    expect(result.text).toBe("def f():\n    if x:\n        h()\n");
  });

  it("added lines the old lines say nothing about follow the file's style after a loose match: tabs in a spaces file, spaces in a tabs file", () => {
    // Trailing spaces on the context: matched by a looser pass than exact, so the hunk's whitespace is not taken as meant.
    const spaces = "function f() {\n  return [\n    1,\n  ];\n}\n\nexport {\n};\n";
    expect(apply(spaces, [hunk([" export { ", "+\tf,", " }; "])]).text).toBe(spaces.replace("export {\n", "export {\n  f,\n"));
    const tabs = "func f() {\n\treturn\n}\n\nvar (\n)\n";
    expect(apply(tabs, [hunk([" var ( ", "+    x = 1", " ) "])]).text).toBe(tabs.replace("var (\n", "var (\n\tx = 1\n"));
  });

  it("an exact match writes the added lines' indentation as sent, even against the file's style", () => {
    // A Makefile's recipe line in a file indented with spaces elsewhere: the tab is meant.
    const file = "VAR = 1\n\ntest:\n\nlint:\n";
    expect(apply(file, [hunk([" test:", "+\tnode test.js", " "])]).text).toBe("VAR = 1\n\ntest:\n\tnode test.js\n\nlint:\n");
    const spaces = "function f() {\n  return [\n    1,\n  ];\n}\n\nexport {\n};\n";
    expect(apply(spaces, [hunk([" export {", "+\tf,", " };"])]).text).toBe(spaces.replace("export {\n", "export {\n\tf,\n"));
  });

  it("a blank context line dropped at a hunk's edge must not leave an added line placed by a guess", () => {
    // The hunk says DOCS follows a blank line directly before the recipe; the file has `test:` between them: refused.
    const file = "\ntest:\n\tcmd\n\n.PHONY: test";
    expect(() => apply(file, [hunk([" ", "+DOCS = x", " \tcmd", " ", "-.PHONY: test", "+.PHONY: test docs"], { endOfFile: true })])).toThrow(PatchHunkError);
    // The blank line standing for the file's final newline is still dropped (as Codex does).
    const ending = "a\nb\n";
    expect(apply(ending, [hunk([" a", "-b", "+B", " "])]).text).toBe("a\nB\n");
  });

  it("unicode-punctuation: the search normalises, the file's context bytes and the patch's added lines are kept", () => {
    const file = "const a = “quoted” – dash…\nconst b = 1;\nconst c = ’x’;\n";
    const result = apply(file, [hunk([' const a = "quoted" - dash...', "-const b = 1;", "+const b = “2”;", " const c = 'x';"])]);
    expect(result.text).toBe("const a = “quoted” – dash…\nconst b = “2”;\nconst c = ’x’;\n");
    expect(result.hunks[0]!.matchStrategy).toBe("unicode-punctuation");
  });

  it("unicode-punctuation: the patch's curly quotes and non-breaking spaces against an ASCII file", () => {
    const file = "say('hi');\nx\u00a0= 1;\nend -- here\n";
    const result = apply(file.replace("\u00a0", " "), [hunk([" say(‘hi’);", "-x\u00a0= 1;", "+x = 2;", " end —— here"])]);
    expect(result.text).toBe("say('hi');\nx = 2;\nend -- here\n");
  });

  it("stale-context: one context line that matches nothing is skipped at a unique place; the file's line is kept", () => {
    const file = "alpha();\nbeta();\ngamma();\ndelta();\n";
    const result = apply(file, [hunk([" alpha();", " BETA_WAS_RENAMED();", "-gamma();", "+GAMMA();", " delta();"])]);
    expect(result.text).toBe("alpha();\nbeta();\nGAMMA();\ndelta();\n");
    expect(result.hunks[0]).toEqual({ hunk: 1, matchStrategy: "stale-context", startLine: 1 });
  });

  it("stale-context: one context line missing from the hunk, the file's line kept in place", () => {
    const file = "a1();\na2();\na3();\na4();\na5();\na6();\n";
    const result = apply(file, [hunk([" a1();", " a2();", " a4();", "-a5();", "+A5();", " a6();"])]);
    expect(result.text).toBe("a1();\na2();\na3();\na4();\nA5();\na6();\n");
    expect(result.hunks[0]).toEqual({ hunk: 1, matchStrategy: "stale-context", startLine: 1 });
  });

  it("a missing line where added lines sit is not guessed into place", () => {
    const file = "a1();\na2();\na3();\na4();\na5();\n";
    expect(failure(file, [hunk([" a1();", " a2();", "+x();", " a4();", " a5();"])]).code).toBe("edit_no_match");
  });

  it("a skipped first or last line next to added lines is not applied (the window may have slid by a missing line)", () => {
    const file = "a1();\na2();\na3();\na4();\n";
    expect(failure(file, [hunk([" STALE();", "+x();", " a2();", " a3();", " a4();"])]).code).toBe("edit_no_match");
  });

  it("a stale window's other lines must agree on one indentation mapping", () => {
    // The hunk left out "    } else {"; the loosest comparison would match "  } else {" to it and put the added line before it.
    const file = ['  const item = "b";', "    } else {", "  return value;", "  break;", "    } else {", "  } else {", "      return value;", ""].join("\n");
    const patch = hunk(['   const item = "b";', "     } else {", "   return value;", "   break;", "+  added();", "   } else {", "       return value;"]);
    // Refused (as ambiguous: read with the missing line kept, it applies two ways), never applied.
    expect(failure(file, [patch]).code).toBe("edit_ambiguous");
  });

  it("stale-context never skips a removed line", () => {
    const error = failure("alpha();\nbeta();\ngamma();\ndelta();\n", [hunk([" alpha();", " beta();", "-GAMMA_X();", "+g();", " delta();"])]);
    expect(error.code).toBe("edit_no_match");
  });

  it("stale-context at two places is ambiguous", () => {
    const file = "a1();\na2();\nx();\na3();\n\na1();\na2();\ny();\na3();\n";
    const error = failure(file, [hunk([" a1();", " a2();", " STALE();", "-a3();", "+b3();"])]);
    expect(error.code).toBe("edit_ambiguous");
    expect(error.details.matchStrategy).toBe("stale-context");
  });

  it("a stricter pass wins over a looser one elsewhere", () => {
    const file = "  x = 1;\ny = 0;\nx = 1;\ny = 0;\n";
    const result = apply(file, [hunk([" x = 1;", "-y = 0;", "+y = 9;"])]);
    expect(result.text).toBe("  x = 1;\ny = 0;\nx = 1;\ny = 9;\n");
    expect(result.hunks[0]!.matchStrategy).toBe("exact");
  });
});

describe("anchors", () => {
  const file = ["class A {", "  init() {", "    x = 1;", "  }", "}", "class B {", "  init() {", "    x = 1;", "  }", "}", ""].join("\n");

  it("an anchor picks the place of a hunk that is ambiguous without it", () => {
    expect(failure(file, [hunk([" init() {", "-  x = 1;", "+  x = 2;"])]).code).toBe("edit_ambiguous");
    const result = apply(file, [hunk(["   init() {", "-    x = 1;", "+    x = 2;"], { anchors: ["class B {"] })]);
    expect(result.text).toBe(file.replace(/x = 1;(?![\s\S]*x = 1;)/, "x = 2;"));
    expect(result.hunks[0]).toEqual({ hunk: 1, matchStrategy: "exact", startLine: 7 });
  });

  it("nested anchors: the body is taken in the first anchor's scope", () => {
    const result = apply(file, [hunk(["-    x = 1;", "+    x = 3;"], { anchors: ["class A {", "init() {"] })]);
    expect(result.text).toBe(file.replace("x = 1;", "x = 3;"));
  });

  it("an anchor that matches nothing is dropped when the place is unique", () => {
    const result = apply(FILE, [hunk([" function b() {", "-  return 2;", "+  return 3;"], { anchors: ["function renamed() {"] })]);
    expect(result.text).toBe(FILE.replace("return 2", "return 3"));
    expect(result.hunks[0]!.matchStrategy).toBe("anchor-ignored");
  });

  it("an anchor that matches nothing and two places: ambiguous", () => {
    const error = failure(file, [hunk(["   init() {", "-    x = 1;", "+    x = 2;"], { anchors: ["class C {"] })]);
    expect(error.code).toBe("edit_ambiguous");
    expect(error.details.candidates?.map((candidate) => candidate.line)).toEqual([2, 7]);
  });

  it("a wrong anchor does not pull a hunk onto a near copy when a stricter pass matches before it", () => {
    const text = ["setup();", "alpha();", "beta();", "gamma();", "delta();", "section two", "alpha();", "BETA2();", "gamma();", "delta();", ""].join("\n");
    // Exact at line 2; after the anchor "section two" only with a stale context line (line 8).
    const error = failure(text, [hunk([" alpha();", " beta();", "-gamma();", "+GAMMA();", " delta();"], { anchors: ["section two"] })]);
    expect(error.code).toBe("edit_ambiguous");
    expect(error.details.candidates?.map((candidate) => candidate.line)).toEqual([2, 7]);
  });

  it("only additions after an anchor are inserted after the anchor's line", () => {
    const result = apply(file, [hunk(["+  // B starts"], { anchors: ["class B {"] })]);
    expect(result.text).toBe(file.replace("class B {\n", "class B {\n  // B starts\n"));
    expect(result.hunks[0]!.startLine).toBe(7);
  });

  it("only additions after an anchor that is not in the file: refused", () => {
    const error = failure(file, [hunk(["+x"], { anchors: ["class Z {"] })]);
    expect(error.code).toBe("edit_no_match");
    expect(error.message).toContain("class Z {");
  });
});

describe("additions at the end and *** End of File", () => {
  it("only additions, no context and no anchor: appended at the end (as Codex)", () => {
    expect(apply("a\nb\n", [hunk(["+c"])]).text).toBe("a\nb\nc\n");
  });

  it("*** End of File: the old lines must end the file", () => {
    const file = "x\nend\nx\nend\n";
    const result = apply(file, [hunk([" x", "-end", "+END"], { endOfFile: true })]);
    expect(result.text).toBe("x\nend\nx\nEND\n");
    expect(failure("x\nend\nmore\n", [hunk([" x", "-end", "+END"], { endOfFile: true })]).code).toBe("edit_no_match");
  });

  it("*** End of File with only additions appends", () => {
    expect(apply("a\n", [hunk(["+b"], { endOfFile: true })]).text).toBe("a\nb\n");
  });

  it("an insertion after an anchor on the last line of a file without a final newline", () => {
    expect(apply("a\nb", [hunk(["+c"], { anchors: ["b"] })]).text).toBe("a\nb\nc");
  });

  it("a BOM-only file gets its lines after the BOM", () => {
    expect(apply("\uFEFF", [hunk(["+x"])]).text).toBe("\uFEFFx\n");
  });

  it("a hunk with context against an empty file: no match, and no line of it in the file", () => {
    const error = failure("", [hunk([" a", "+b"])]);
    expect(error.code).toBe("edit_no_match");
    expect(error.details.candidates).toEqual([]);
    expect(error.message).toContain("No line of the hunk is in the file");
  });

  it("an empty file gets terminated lines", () => {
    expect(apply("", [hunk(["+first", "+second"])]).text).toBe("first\nsecond\n");
  });
});

describe("what the file keeps", () => {
  it("a file without a final newline keeps none: a changed last line, an append, a removed last line", () => {
    expect(apply("a\nb", [hunk([" a", "-b", "+B"])]).text).toBe("a\nB");
    expect(apply("a\nb", [hunk(["+c"])]).text).toBe("a\nb\nc");
    expect(apply("a\nb", [hunk([" a", "-b"])]).text).toBe("a");
    expect(apply("a\r\nb", [hunk([" a", "-b", "+B", "+C"])]).text).toBe("a\r\nB\r\nC");
  });

  it("a file with a final newline keeps it", () => {
    expect(apply("a\nb\n", [hunk([" a", "-b"])]).text).toBe("a\n");
  });

  it("the BOM is kept, also when the first line changes", () => {
    const result = apply("\uFEFFfirst\nsecond\n", [hunk(["-first", "+FIRST", " second"])]);
    expect(result.text).toBe("\uFEFFFIRST\nsecond\n");
    expect(result.hunks[0]!.matchStrategy).toBe("exact");
  });

  it("invalid UTF-8 bytes outside the hunk survive", () => {
    const content = Buffer.concat([Buffer.from("head \xff\xfe bytes\n", "latin1"), Buffer.from("a\nb\n"), Buffer.from("tail \xc3\x28\n", "latin1")]);
    const result = apply(content, [hunk([" a", "-b", "+c"])]);
    expect(
      result.bytes.equals(Buffer.concat([Buffer.from("head \xff\xfe bytes\n", "latin1"), Buffer.from("a\nc\n"), Buffer.from("tail \xc3\x28\n", "latin1")])),
    ).toBe(true);
  });

  it("a mixed file takes its dominant line ending for added lines; context lines keep their own", () => {
    const result = apply("a\r\nb\nc\r\nd\r\n", [hunk([" a", " b", "+x", " c"])]);
    expect(result.text).toBe("a\r\nb\nx\r\nc\r\nd\r\n");
  });
});

describe("several hunks", () => {
  it("apply in order, each searched from after the previous one (a place before it does not count)", () => {
    const file = "a\nb\nmark\nkeep\na\nb\n";
    const result = apply(file, [hunk([" mark", "-keep", "+KEPT"]), hunk([" a", "-b", "+B"])]);
    expect(result.text).toBe("a\nb\nmark\nKEPT\na\nB\n");
    expect(result.hunks.map((applied) => applied.startLine)).toEqual([3, 5]);
  });

  it("two hunks with the same old lines: the first is ambiguous (no place is guessed)", () => {
    expect(failure("x = 1;\ny = 1;\nx = 1;\ny = 1;\n", [hunk([" x = 1;", "-y = 1;", "+y = 2;"]), hunk([" x = 1;", "-y = 1;", "+y = 3;"])]).code).toBe(
      "edit_ambiguous",
    );
  });

  it("out of order: refused with what to send", () => {
    const error = failure(FILE, [hunk([" function b() {", "-  return 2;", "+  return 3;"]), hunk([" function a() {", "-  return 1;", "+  return 0;"])]);
    expect(error.code).toBe("edit_no_match");
    expect(error.details.hunk).toBe(2);
    expect(error.message).toMatch(/before the end of hunk 1[\s\S]*order/);
  });

  it("overlapping hunks: refused", () => {
    const error = failure(FILE, [hunk([" function b() {", "-  return 2;", "+  return 3;"]), hunk(["   return 2;", "-}", "+};"])]);
    expect(error.code).toBe("edit_no_match");
    expect(error.message).toContain("must not overlap");
  });

  it("a failing later hunk fails the whole file", () => {
    const error = failure(FILE, [hunk([" function a() {", "-  return 1;", "+  return 0;"]), hunk([" function c() {", "-  return 9;"], { patchLine: 12 })]);
    expect(error.details).toMatchObject({ path: "src/file.ts", hunk: 2, patchLine: 12 });
  });
});

describe("refusals", () => {
  it("no match: names the hunk, the file, the patch line, the closest places and what to send", () => {
    const error = failure(FILE, [hunk([" function b() {", "-  return 22;", "+  return 3;", " }"], { patchLine: 7 })]);
    expect(error).toBeInstanceOf(PatchHunkError);
    expect(error.code).toBe("edit_no_match");
    expect(error.details.candidates?.[0]).toEqual({ line: 5, text: ["function b() {", "  return 2;", "}"] });
    expect(error.message).toContain("hunk 1 of src/file.ts (patch line 7)");
    expect(error.message).toContain("Read src/file.ts around line 5");
  });

  it("ambiguous: edit_ambiguous with the candidate lines, never guessed", () => {
    const error = failure("a\nb\na\nb\n", [hunk([" a", "-b", "+c"])]);
    expect(error.code).toBe("edit_ambiguous");
    expect(error.details).toMatchObject({
      hunk: 1,
      matchStrategy: "exact",
      candidates: [
        { line: 1, text: ["a", "b"] },
        { line: 3, text: ["a", "b"] },
      ],
    });
    expect(error.message).toContain("lines 1, 3");
  });
});
