/**
 * Zero wrong applications: random files from a seeded generator (with many
 * repeated lines, so wrong places exist), random hunks cut from them, the
 * patch perturbed the ways models perturb it. Every application either
 * reproduces the intended new file exactly or is refused; a change at
 * another place, or added lines left in the wrong indentation, fails the
 * test. Each hunk's old side has at least two non-blank lines, as real
 * hunks (three lines of context) do: a perturbed one-line hunk can be an
 * exact copy of another line of the file, which no applier can tell apart.
 */
import type { PatchHunk, PatchLine } from "@agent-tools/core/patch";
import { describe, expect, it } from "vitest";
import { seededRandom } from "../__fixtures__/seeded-random.js";
import { applyPatchHunks } from "./apply-patch-hunks.js";
import { PatchHunkError } from "./patch-hunk-error.js";

type Perturbation =
  | "none"
  | "extra-indent"
  | "lost-indent"
  | "tabs-for-spaces"
  | "crlf"
  | "trailing-spaces"
  | "curly-quotes"
  | "stale-context"
  | "missing-context"
  | "anchor"
  | "wrong-anchor"
  | "unknown-anchor"
  | "two-at-once";
const PERTURBATIONS: readonly Perturbation[] = [
  "none",
  "extra-indent",
  "lost-indent",
  "tabs-for-spaces",
  "crlf",
  "trailing-spaces",
  "curly-quotes",
  "stale-context",
  "missing-context",
  "anchor",
  "wrong-anchor",
  "unknown-anchor",
  "two-at-once",
];

// Frequent lines make ambiguous and near-miss places; numbered ones make unique places.
const COMMON = ["}", "return value;", "", "count += 1;", "if (ready) {", "} else {", "break;", "say('hello');", 'log("done");', "// TODO"];

function generator(seed: number) {
  const random = seededRandom(seed);
  const below = (limit: number) => Math.floor(random() * limit);
  const pick = <T>(items: readonly T[]): T => items[below(items.length)]!;
  return { random, below, pick };
}

interface Case {
  file: string;
  hunks: PatchHunk[];
  expected: string;
  starts: number[];
}

function makeCase(seed: number, perturbation: Perturbation): Case | null {
  const { random, below, pick } = generator(seed);
  const unit = perturbation === "tabs-for-spaces" ? "\t" : "  ";
  const eol = perturbation === "crlf" ? "\r\n" : "\n";
  const lineCount = 20 + below(120);
  const fileLines: string[] = [];
  while (fileLines.length < lineCount) {
    // Copies of earlier blocks, some with one line changed: duplicated and near-duplicated places.
    if (fileLines.length > 8 && random() < 0.15) {
      const from = below(fileLines.length - 5);
      const block = fileLines.slice(from, from + 2 + below(4));
      if (random() < 0.5) block[below(block.length)] = `${unit}changed${below(5)}();`;
      fileLines.push(...block);
      continue;
    }
    const text = random() < 0.6 ? pick(COMMON) : `${pick(["const", "let", "call"])} item${below(60)} = ${pick(["'a'", '"b"', "x - y", "f(z)"])};`;
    fileLines.push(text === "" ? "" : unit.repeat(1 + below(3)) + text);
  }
  // 1 to 3 hunks over ordered, non-overlapping windows.
  const hunkCount = 1 + below(3);
  const cuts = Array.from({ length: hunkCount * 2 }, () => below(lineCount + 1)).sort((left, right) => left - right);
  const expected: string[] = [];
  const hunks: PatchHunk[] = [];
  const starts: number[] = [];
  let copied = 0;
  for (let index = 0; index < hunkCount; index += 1) {
    const start = cuts[index * 2]!;
    const end = Math.min(cuts[index * 2 + 1]!, start + 7);
    if (end - start < 1) return null;
    const removeFrom = start + below(end - start + 1);
    const removeTo = removeFrom + below(end - removeFrom + 1);
    const indent = fileLines[removeFrom]?.match(/^\s*/)?.[0] ?? unit;
    const added = Array.from({ length: below(3) }, () => `${indent || unit}added${below(1000)}(‘x’);`);
    if (removeTo === removeFrom && added.length === 0) return null;
    // As in real patches, the old side locates the hunk and shows its indentation: at least two non-blank lines.
    // (A perturbed one-line hunk can be an exact copy of another line, and blank lines carry no indentation.)
    if (fileLines.slice(start, end).filter((line) => line.trim() !== "").length < 2) return null;
    const lines: PatchLine[] = [];
    for (let line = start; line < removeFrom; line += 1) lines.push({ kind: "context", text: fileLines[line]! });
    for (let line = removeFrom; line < removeTo; line += 1) lines.push({ kind: "remove", text: fileLines[line]! });
    for (const text of added) lines.push({ kind: "add", text });
    for (let line = removeTo; line < end; line += 1) lines.push({ kind: "context", text: fileLines[line]! });
    expected.push(...fileLines.slice(copied, removeFrom), ...added, ...fileLines.slice(removeTo, end));
    // A wrong anchor on a hunk whose old lines occur twice picks a copy as a right anchor would: the patch
    // says so, no applier can tell (hunk-locate.ts, "Limit"); such cases are left out of the wrong-anchor run.
    if (perturbation === "wrong-anchor" && occurrences(fileLines, fileLines.slice(start, end), copied) > 1) return null;
    starts.push(start + 1);
    // A perturbed hunk whose old lines, as sent, are (nearly) the lines of another place is that place's hunk: left out.
    const hunkLines = perturb(lines, perturbation, random);
    const sentOld = hunkLines.filter((line) => line.kind !== "add").map((line) => line.text);
    const unperturbed = lines.filter((line) => line.kind !== "add").map((line) => line.text);
    // (With a line left out, a place even at the same start is another edit: the lines around the gap may be equal.)
    const places = sentOld.join("\n") === unperturbed.join("\n") ? [] : loosePlaces(fileLines, sentOld);
    if (places.some((place) => place !== start || sentOld.length !== unperturbed.length)) return null;
    hunks.push({ anchors: anchorsOf(fileLines, copied, start, end, perturbation, below), lines: hunkLines, endOfFile: false, patchLine: 1 });
    copied = end;
  }
  expected.push(...fileLines.slice(copied));
  const join = (lines: string[]) => lines.map((line) => line + eol).join("");
  return { file: join(fileLines), hunks, expected: join(expected), starts };
}

/** The places holding `needle` once both are trimmed and their quotes and dashes made ASCII. */
function loosePlaces(lines: readonly string[], needle: readonly string[]): number[] {
  const loose = (line: string) => line.trim().replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/–/g, "-");
  const wanted = needle.map(loose);
  const places: number[] = [];
  for (let at = 0; at + needle.length <= lines.length; at += 1) if (wanted.every((line, offset) => loose(lines[at + offset]!) === line)) places.push(at);
  return places;
}

/** How many places at or after `from` hold `needle` exactly. */
function occurrences(lines: readonly string[], needle: readonly string[], from: number): number {
  let count = 0;
  for (let at = from; at + needle.length <= lines.length; at += 1) if (needle.every((line, offset) => lines[at + offset] === line)) count += 1;
  return count;
}

/**
 * The `@@` anchor of a hunk over lines `start`..`end` (the previous hunk ended at `cursor`): for "anchor", the
 * nearest non-blank line above the hunk that is the first of its text after the cursor (an anchor is searched
 * forward from the previous hunk, as the format's instructions say); for "wrong-anchor", a line after the hunk;
 * for "unknown-anchor", a line the file does not have.
 */
function anchorsOf(
  fileLines: readonly string[],
  cursor: number,
  start: number,
  end: number,
  perturbation: Perturbation,
  below: (limit: number) => number,
): string[] {
  if (perturbation === "unknown-anchor") return ["function notInThisFile() {"];
  if (perturbation === "wrong-anchor") {
    const later = fileLines.slice(end).filter((line) => line.trim() !== "");
    return later.length ? [later[below(later.length)]!.trim()] : [];
  }
  if (perturbation !== "anchor") return [];
  for (let line = start - 1; line >= cursor; line -= 1) {
    const text = fileLines[line]!.trim();
    if (text === "") continue;
    const first = fileLines.findIndex((other, index) => index >= cursor && other.trim() === text);
    return first === line ? [text] : [];
  }
  return [];
}

function perturb(lines: PatchLine[], perturbation: Perturbation, random: () => number): PatchLine[] {
  const map = (change: (line: PatchLine) => string) => lines.map((line) => ({ kind: line.kind, text: change(line) }));
  const nonBlank = (line: PatchLine) => line.text.trim() !== "";
  switch (perturbation) {
    case "extra-indent":
      return map((line) => (nonBlank(line) ? `    ${line.text}` : line.text));
    case "lost-indent": {
      const indents = lines.filter(nonBlank).map((line) => line.text.match(/^ */)![0].length);
      const common = Math.min(...indents);
      return map((line) => (nonBlank(line) ? line.text.slice(common) : line.text));
    }
    case "tabs-for-spaces":
      return map((line) => line.text.replace(/^\t+/, (tabs) => "    ".repeat(tabs.length)));
    case "trailing-spaces":
      return map((line) => (line.kind !== "add" && random() < 0.5 ? `${line.text}  ` : line.text));
    case "curly-quotes":
      return map((line) =>
        line.kind !== "add"
          ? line.text
              .replace(/'([^']*)'/g, "‘$1’")
              .replace(/"([^"]*)"/g, "“$1”")
              .replace(" - ", " – ")
          : line.text,
      );
    case "stale-context": {
      // An interior context line (an old line before and after it), as the benchmark perturbs.
      const old = lines.flatMap((line, index) => (line.kind !== "add" ? [index] : []));
      const context = old.slice(1, -1).filter((index) => lines[index]!.kind === "context");
      if (context.length === 0) return lines;
      const stale = context[Math.floor(random() * context.length)]!;
      return lines.map((line, index) => (index === stale ? { kind: line.kind, text: `${line.text} // renamed since` } : line));
    }
    case "missing-context": {
      // An interior context line left out (an old line before and after it).
      const old = lines.flatMap((line, index) => (line.kind !== "add" ? [index] : []));
      const interior = old.slice(1, -1).filter((index) => lines[index]!.kind === "context");
      if (interior.length === 0) return lines;
      const missing = interior[Math.floor(random() * interior.length)]!;
      return lines.filter((_, index) => index !== missing);
    }
    case "two-at-once": {
      // Two of the patch-side perturbations on the same hunk.
      const kinds: Perturbation[] = ["extra-indent", "lost-indent", "trailing-spaces", "curly-quotes", "stale-context", "missing-context"];
      const first = kinds.splice(Math.floor(random() * kinds.length), 1)[0]!;
      const second = kinds[Math.floor(random() * kinds.length)]!;
      return perturb(perturb(lines, first, random), second, random);
    }
    default:
      return lines;
  }
}

describe("zero wrong applications (seeded random files and perturbed hunks)", () => {
  const table: Record<string, { exact: number; refused: number; wrong: number }> = {};
  for (const perturbation of PERTURBATIONS) {
    it(perturbation, () => {
      const counts = { exact: 0, refused: 0, wrong: 0 };
      const wrong: string[] = [];
      for (let seed = 1; counts.exact + counts.refused + counts.wrong < 300; seed += 1) {
        const testCase = makeCase(seed * 7919 + PERTURBATIONS.indexOf(perturbation), perturbation);
        if (!testCase) continue;
        try {
          const result = applyPatchHunks(Buffer.from(testCase.file, "utf8"), testCase.hunks, { displayPath: "f.ts" });
          const text = Buffer.concat(result.pieces).toString("utf8");
          // (A hunk placed one line off among equal lines gives the same file: that is the same change.)
          if (text === testCase.expected) counts.exact += 1;
          else {
            counts.wrong += 1;
            wrong.push(`seed ${seed}: ${JSON.stringify(result.hunks)}`);
          }
        } catch (error) {
          if (!(error instanceof PatchHunkError)) throw error;
          counts.refused += 1;
        }
      }
      table[perturbation] = counts;
      expect(wrong).toEqual([]);
      // An applier that refuses everything must not pass: most cases apply.
      // (A missing context line next to added lines is refused: the order of the file's line and the added ones would be a guess.)
      expect(counts.exact).toBeGreaterThan(perturbation === "missing-context" ? 60 : 150);
    });
  }
  it("prints the table", () => {
    console.log(
      Object.entries(table)
        .map(([name, counts]) => `${name.padEnd(16)} exact ${counts.exact}  refused ${counts.refused}  wrong ${counts.wrong}`)
        .join("\n"),
    );
  });
});
