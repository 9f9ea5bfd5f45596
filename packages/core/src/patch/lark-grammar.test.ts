/**
 * V4A_LARK_GRAMMAR checked with Lark itself (Debian's python3-lark, which
 * scripts/setup.sh installs): the grammar loads, accepts the patches the
 * format allows (each also read by parseV4APatch) and refuses the ones it
 * does not. The accept/refuse expectations were taken from Codex's own
 * grammar of the format (its empty-matching terminals made optional, since
 * Lark's Earley parser refuses zero-width terminals), on these cases and on
 * 6 000 random ones.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { V4A_LARK_GRAMMAR } from "./lark-grammar.js";
import { parseV4APatch } from "./parse-v4a.js";

/** Debian's interpreter: a pyenv or venv python3 earlier on PATH has no python3-lark. */
const PYTHON = "/usr/bin/python3";

const LARK_SCRIPT = `
import json, sys
from lark import Lark
from lark.exceptions import LarkError
request = json.load(sys.stdin)
parser = Lark(request["grammar"], parser=request["parser"])
answers = []
for text in request["texts"]:
    try:
        parser.parse(text)
        answers.append(True)
    except LarkError as error:
        answers.append(False)
print(json.dumps(answers))
`;

/** Whether Lark (`earley` or `lalr`) accepts each text under the grammar; throws when Python or Lark fails. */
function larkAccepts(texts: readonly string[], parser: "earley" | "lalr" = "earley"): boolean[] {
  const run = spawnSync(PYTHON, ["-c", LARK_SCRIPT], { input: JSON.stringify({ grammar: V4A_LARK_GRAMMAR, parser, texts }), encoding: "utf8" });
  if (run.error || run.status !== 0) {
    throw new Error(`${PYTHON} with lark failed (install python3-lark: scripts/setup.sh does): ${run.error?.message ?? run.stderr}`);
  }
  return JSON.parse(run.stdout) as boolean[];
}

const patch = (...lines: string[]) => `${["*** Begin Patch", ...lines, "*** End Patch"].join("\n")}\n`;

const ACCEPTED: Record<string, string> = {
  "add file": patch("*** Add File: src/new.ts", "+export const a = 1;", "+", "+  indented"),
  "delete file": patch("*** Delete File: old.txt"),
  "update with anchors and end of file": patch(
    "*** Update File: src/app.ts",
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
  "update whose first hunk has no @@": patch("*** Update File: a.txt", " context", "-old", "+new"),
  "move only": patch("*** Update File: a.txt", "*** Move to: b/a.txt"),
  "move with a hunk": patch("*** Update File: a.txt", "*** Move to: b.txt", "@@", "-x", "+y"),
  "several files": patch("*** Add File: a", "+1", "*** Delete File: b", "*** Update File: c", "-2", "+3", "*** Add File: d", "+4"),
  "path with spaces and non-ASCII": patch("*** Add File: docs/été notes.md", "+x"),
  "empty added and context lines": patch("*** Update File: a", " ", "-", "+"),
  "no newline after End Patch": patch("*** Delete File: a").trimEnd(),
  "a line that looks like a header inside a hunk": patch("*** Update File: a", "-*** End Patch", "+ *** Add File: b"),
};

const REFUSED: Record<string, string> = {
  "no Begin Patch": "*** Delete File: a\n*** End Patch\n",
  "no End Patch": "*** Begin Patch\n*** Delete File: a\n",
  "no operation": patch(),
  "add file without lines": patch("*** Add File: a"),
  "add line without +": patch("*** Add File: a", "x"),
  "hunk line without prefix": patch("*** Update File: a", "@@", "x"),
  "blank line in a hunk": patch("*** Update File: a", "-x", "", "+y"),
  "empty path": patch("*** Delete File: "),
  "header without the space": patch("*** Delete File:a"),
  "@@ directly followed by text": patch("*** Update File: a", "@@x", "-y"),
  "End of File not last in the hunk": patch("*** Update File: a", "-x", "*** End of File", "+y"),
  "Move to after a hunk": patch("*** Update File: a", "-x", "*** Move to: b"),
  "CRLF line endings": patch("*** Delete File: a").replaceAll("\n", "\r\n"),
  "blank line before Begin Patch": `\n${patch("*** Delete File: a")}`,
  "text after End Patch": `${patch("*** Delete File: a")}extra\n`,
};

describe("V4A_LARK_GRAMMAR", () => {
  it("is accepted by Lark's Earley and LALR parsers and accepts every form of the format", () => {
    const texts = Object.values(ACCEPTED);
    expect(larkAccepts(texts)).toEqual(texts.map(() => true));
    // LALR with Lark's contextual lexer: the grammar also works for a parser that lexes before it parses.
    expect(larkAccepts(texts, "lalr")).toEqual(texts.map(() => true));
  });

  it("accepts only what parseV4APatch reads", () => {
    for (const [name, text] of Object.entries(ACCEPTED)) {
      expect(() => parseV4APatch(text), name).not.toThrow();
    }
  });

  it("accepts no generated patch that parseV4APatch cannot read (seeded, 500), but for what only the parser checks", () => {
    // mulberry32: a small seeded generator whose arithmetic stays within 32-bit integers.
    let seed = 37;
    const next = (limit: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let value = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
      return ((value ^ (value >>> 14)) >>> 0) % limit;
    };
    const pick = <T>(items: readonly T[]) => items[next(items.length)]!;
    const operation = (): string[] => {
      const kind = next(3);
      if (kind === 0) return [`*** Add File: ${pick(["a", "b c", " "])}`, ...Array.from({ length: next(3) }, () => pick(["+", "+x", "+ y", "+***"]))];
      if (kind === 1) return [`*** Delete File: ${pick(["a", "d"])}`];
      const lines = [`*** Update File: ${pick(["a", "u"])}`];
      if (next(4) === 0) lines.push("*** Move to: v");
      for (let count = next(5); count > 0; count -= 1) lines.push(pick(["@@", "@@ ", "@@ class A", " ", " ctx", "-", "-old", "+", "+new"]));
      if (next(5) === 0) lines.push("*** End of File");
      return lines;
    };
    const noise = ["", "x", "***", "@@x", "*** End Patch", "*** Add File: ", "*** End of File", "*** Move to: w", " ", "+z"];
    const texts = Array.from({ length: 500 }, () => {
      const lines = ["*** Begin Patch", ...Array.from({ length: next(4) }, operation).flat(), "*** End Patch"];
      if (next(3) === 0) lines.splice(next(lines.length + 1), next(2), pick(noise));
      return `${lines.join("\n")}${pick(["", "\n"])}`;
    });
    const answers = larkAccepts(texts);
    // Refusals that are about meaning, not form: the grammar cannot count paths or see that a hunk changes nothing.
    const onlyTheParserChecks = /already changed by|names no path|changes nothing|has no hunk|must follow the lines of a hunk/;
    const unread = texts.filter((text, index) => {
      if (!answers[index]) return false;
      try {
        parseV4APatch(text);
        return false;
      } catch (error) {
        return !onlyTheParserChecks.test((error as Error).message);
      }
    });
    console.log(`generated: ${answers.filter(Boolean).length} accepted by the grammar, ${answers.filter((a) => !a).length} refused`);
    expect(unread).toEqual([]);
    // The generator reaches both sides of the grammar.
    expect(answers.filter(Boolean).length).toBeGreaterThan(60);
    expect(answers.filter((accepted) => !accepted).length).toBeGreaterThan(60);
  });

  it("refuses what the format does not allow", () => {
    const texts = Object.values(REFUSED);
    const answers = larkAccepts(texts);
    expect(Object.fromEntries(Object.keys(REFUSED).map((name, index) => [name, answers[index]]))).toEqual(
      Object.fromEntries(Object.keys(REFUSED).map((name) => [name, false])),
    );
  });
});
