import { describe, expect, it } from "vitest";
import { ToolError } from "../errors.js";
import { parseV4APatch, patchTargetsOf } from "./parse-v4a.js";

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

function parseError(text: string): ToolError {
  try {
    parseV4APatch(text);
  } catch (error) {
    if (error instanceof ToolError) return error;
    throw error;
  }
  throw new Error("parsed");
}

describe("parseV4APatch", () => {
  it("reads every operation of the format, several files in one patch", () => {
    const { operations } = parseV4APatch(
      patch(
        "*** Add File: src/new.ts",
        "+export const a = 1;",
        "+",
        "*** Delete File: old.txt",
        "*** Update File: src/app.ts",
        "*** Move to: src/main.ts",
        "@@ class App",
        "@@   run() {",
        "     start();",
        "-    stop();",
        "+    finish();",
        "@@",
        " tail",
        "+more",
        "*** End of File",
      ),
    );
    expect(operations).toEqual([
      { kind: "add", path: "src/new.ts", lines: ["export const a = 1;", ""], patchLine: 2 },
      { kind: "delete", path: "old.txt", patchLine: 5 },
      {
        kind: "update",
        path: "src/app.ts",
        moveTo: "src/main.ts",
        patchLine: 6,
        hunks: [
          {
            anchors: ["class App", "  run() {"],
            lines: [
              { kind: "context", text: "    start();" },
              { kind: "remove", text: "    stop();" },
              { kind: "add", text: "    finish();" },
            ],
            endOfFile: false,
            patchLine: 8,
          },
          {
            anchors: [],
            lines: [
              { kind: "context", text: "tail" },
              { kind: "add", text: "more" },
            ],
            endOfFile: true,
            patchLine: 13,
          },
        ],
      },
    ]);
  });

  it("accepts CRLF, a heredoc wrapper, blank lines around the envelope and a first hunk without @@", () => {
    const text = `\r\napply_patch <<'EOF'\r\n${patch("*** Update File: a.txt", " keep", "-old", "+new")}\r\nEOF\r\n\r\n`.replace(/\n(?!\r)/g, "\r\n");
    const { operations } = parseV4APatch(text);
    expect(operations).toEqual([
      {
        kind: "update",
        path: "a.txt",
        patchLine: 4,
        hunks: [
          {
            anchors: [],
            lines: [
              { kind: "context", text: "keep" },
              { kind: "remove", text: "old" },
              { kind: "add", text: "new" },
            ],
            endOfFile: false,
            patchLine: 5,
          },
        ],
      },
    ]);
  });

  it("reads a blank line inside a hunk as an empty context line, but not one that ends the hunk", () => {
    const { operations } = parseV4APatch(patch("*** Update File: a", "@@", " one", "", "-two", "+2", "", "*** Update File: b", "@@", "-x", "+y"));
    const [first] = operations;
    expect(first?.kind === "update" && first.hunks[0]?.lines).toEqual([
      { kind: "context", text: "one" },
      { kind: "context", text: "" },
      { kind: "remove", text: "two" },
      { kind: "add", text: "2" },
    ]);
    expect(operations).toHaveLength(2);
  });

  it("splits hunks at each @@ after change lines", () => {
    const { operations } = parseV4APatch(patch("*** Update File: a", "@@ f", "-1", "+one", "@@ g", "-2", "+two"));
    const [first] = operations;
    expect(first?.kind === "update" && first.hunks.map((hunk) => hunk.anchors)).toEqual([["f"], ["g"]]);
  });

  it.each([
    ["an empty patch", "", 1, /empty/],
    ["no Begin Patch", "*** Update File: a\n-x\n+y\n*** End Patch", 1, /first line must be "\*\*\* Begin Patch"/],
    ["no End Patch", "*** Begin Patch\n*** Update File: a\n-x\n+y", 4, /last line must be "\*\*\* End Patch"/],
    ["a line without a prefix", patch("*** Update File: a", "@@", "-x", "y"), 5, /must start with " " \(context\)/],
    ["an unknown header", patch("*** Rename File: a"), 2, /expected "\*\*\* Add File:"/],
    ["an unknown header in a hunk", patch("*** Update File: a", "@@", "-x", "*** Replace: y"), 5, /unknown header/],
    ["an empty path", patch("*** Delete File:   "), 2, /names no path/],
    ["a path named twice", patch("*** Delete File: a", "*** Update File: a", "-x", "+y"), 3, /already changed by the operation at line 2/],
    ["a move onto a path named elsewhere", patch("*** Add File: b", "+x", "*** Update File: a", "*** Move to: b"), 5, /already changed/],
    ["a hunk that changes nothing", patch("*** Update File: a", "@@", " same"), 3, /changes nothing/],
    ["an update without hunks", patch("*** Update File: a"), 2, /has no hunk/],
    ["a lone End of File", patch("*** Update File: a", "*** End of File"), 3, /must follow the lines of a hunk/],
    ["lines after End of File without @@", patch("*** Update File: a", "-x", "*** End of File", "+y"), 5, /must start with "@@"/],
    ["an add line without +", patch("*** Add File: a", "+ok", "oops"), 4, /must start with "\+"/],
    ["no operation", patch(), 2, /no file operation/],
    ["a bad @@ header", patch("*** Update File: a", "@@x", "-1", "+2"), 3, /not a hunk header/],
  ])("refuses %s, naming the patch line", (_name, text, line, message) => {
    const error = parseError(text);
    expect(error.code).toBe("invalid_arguments");
    expect(error.details).toEqual({ patchLine: line });
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(/Send the whole patch again/);
  });

  it("keeps an added file's trailing blank + lines but drops blank separators", () => {
    const { operations } = parseV4APatch(patch("*** Add File: a", "+x", "+", "", "", "*** Delete File: b"));
    expect(operations[0]).toEqual({ kind: "add", path: "a", lines: ["x", ""], patchLine: 2 });
    expect(operations[1]).toEqual({ kind: "delete", path: "b", patchLine: 7 });
  });
});

describe("patchTargetsOf", () => {
  it("names every path of every header, a move destination as an add", () => {
    const text = patch("*** Add File: n", "+x", "*** Delete File: d", "*** Update File: u", "*** Move to: m", "@@", "-a", "+b");
    expect(patchTargetsOf(text)).toEqual([
      { path: "n", kind: "add" },
      { path: "d", kind: "delete" },
      { path: "u", kind: "update" },
      { path: "m", kind: "add" },
    ]);
  });

  it("finds the paths of a patch the parser refuses, so rules still judge them", () => {
    const text = "*** Update File: ../secret\r\n-x\n*** Move to: /etc/passwd\n";
    expect(() => parseV4APatch(text)).toThrow(ToolError);
    expect(patchTargetsOf(text)).toEqual([
      { path: "../secret", kind: "update" },
      { path: "/etc/passwd", kind: "add" },
    ]);
  });

  it("agrees with the parser on what is a header: an indented or prefixed header is not one to either", () => {
    const text = patch("*** Update File: a", "@@", " *** Delete File: b", "+*** Add File: c", "-x");
    const parsed = parseV4APatch(text);
    expect(parsed.operations.map((operation) => operation.path)).toEqual(["a"]);
    expect(patchTargetsOf(text).map((target) => target.path)).toEqual(["a"]);
  });
});

describe("parseV4APatch's hunk limit", () => {
  it("stops at the first hunk over maxHunks, naming the limit and the line", () => {
    const body = Array.from({ length: 50 }, (_, index) => `@@\n-line ${index}\n+LINE ${index}`).join("\n");
    const text = patch("*** Update File: a.txt", body);
    expect(parseV4APatch(text, { maxHunks: 50 }).operations).toHaveLength(1);
    const error = parseError2(text, 49);
    expect(error.code).toBe("invalid_arguments");
    expect(error.details).toEqual({ limit: 49, patchLine: 2 + 49 * 3 + 1 });
    expect(error.message).toMatch(/more than 49 hunks/);
  });

  it("counts the hunks of every file together", () => {
    const text = patch("*** Update File: a", "@@", "-1", "+2", "*** Update File: b", "@@", "-1", "+2");
    expect(() => parseV4APatch(text, { maxHunks: 1 })).toThrow(/more than 1 hunks/);
  });
});

function parseError2(text: string, maxHunks: number): ToolError {
  try {
    parseV4APatch(text, { maxHunks });
  } catch (error) {
    if (error instanceof ToolError) return error;
    throw error;
  }
  throw new Error("parsed");
}
