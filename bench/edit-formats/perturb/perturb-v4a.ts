/**
 * Perturbations of a V4A patch (never of the file): the patch data is
 * changed and rendered again. Undefined when a perturbation does not apply to
 * the patch (no indentation to lose, no quote to curl, ...): such cases are
 * not counted under that perturbation.
 */
import type { RandomSource } from "../corpus/seeded-random.js";
import type { DiffLine } from "../formats/diff-hunks.js";
import { isHeaderLine } from "../formats/header-lines.js";
import { type V4AHunk, type V4APatch, countOccurrences, renderV4APatch } from "../formats/to-v4a.js";
import {
  commonIndent,
  curlQuotes,
  dedent,
  hasQuote,
  indentMore,
  levelOf,
  spaceUnit,
  staleVersion,
  swapTabsAndSpaces,
  swappableIndentation,
} from "./line-transforms.js";
import type { Perturbation } from "./perturbations.js";

type Lines = readonly DiffLine[];

function mapLines(patch: V4APatch, change: (lines: Lines, hunk: V4AHunk) => Lines): V4APatch {
  return { ...patch, hunks: patch.hunks.map((hunk) => ({ ...hunk, lines: change(hunk.lines, hunk) })) };
}

function changed(before: V4APatch, after: V4APatch): V4APatch | undefined {
  return JSON.stringify(before) === JSON.stringify(after) ? undefined : after;
}

const isOld = (line: DiffLine) => line.kind !== "add";
const pick = <T>(items: readonly T[], random: RandomSource): T | undefined => items[Math.floor(random.next() * items.length)];

/** One hunk chosen by the random source, changed; undefined when `change` declines every hunk. */
function oneHunk(patch: V4APatch, random: RandomSource, change: (hunk: V4AHunk) => V4AHunk | undefined): V4APatch | undefined {
  const order = patch.hunks.map((_, index) => index);
  const first = Math.floor(random.next() * order.length);
  for (let step = 0; step < order.length; step++) {
    const index = (first + step) % order.length;
    const result = change(patch.hunks[index] as V4AHunk);
    if (result) return { ...patch, hunks: patch.hunks.map((hunk, at) => (at === index ? result : hunk)) };
  }
  return undefined;
}

/** Indices of a hunk's context lines that have an old line before and after them. */
function interiorContext(lines: Lines): number[] {
  const old = lines.map((line, index) => (isOld(line) ? index : -1)).filter((index) => index !== -1);
  return old.slice(1, -1).filter((index) => (lines[index] as DiffLine).kind === "context");
}

/**
 * The perturbed patch text; `"verbatim"` when the perturbation turned a
 * hunk's old lines into lines the file holds as they are (another place's:
 * a valid patch of something else, which no applier can tell from the
 * intended one); undefined when the perturbation does not apply.
 */
export function perturbV4A(patch: V4APatch, kind: Perturbation, oldLines: readonly string[], random: RandomSource): string | "verbatim" | undefined {
  const perturbed = perturbV4APatch(patch, kind, oldLines, random);
  if (!perturbed) return undefined;
  const oldSide = (hunk: V4AHunk) => hunk.lines.filter(isOld).map((line) => line.text);
  const verbatim = perturbed.hunks.some((hunk, index) => {
    const before = oldSide(patch.hunks[index] as V4AHunk);
    const after = oldSide(hunk);
    if (after.join("\n") === before.join("\n")) return false;
    // An occurrence at the hunk's own first line is the intended place.
    return countOccurrences(oldLines, after, 0) > countOccurrences(oldLines.slice(hunk.start, hunk.start + after.length), after, 0);
  });
  if (verbatim) return "verbatim";
  return renderV4APatch(perturbed, kind === "crlf" ? "\r\n" : "\n");
}

function perturbV4APatch(patch: V4APatch, kind: Perturbation, oldLines: readonly string[], random: RandomSource): V4APatch | undefined {
  switch (kind) {
    case "none":
    case "crlf":
      return patch;
    case "lost-indentation":
      return changed(
        patch,
        mapLines(patch, (lines) => {
          const common = commonIndent(lines.map((line) => line.text));
          return lines.map((line) => ({ ...line, text: dedent(line.text, common) }));
        }),
      );
    case "extra-indentation":
      return mapLines(patch, (lines) => {
        const level = levelOf(lines.filter(isOld).map((line) => line.text));
        return lines.map((line) => ({ ...line, text: indentMore(line.text, level) }));
      });
    case "tabs-for-spaces": {
      const unit = spaceUnit(oldLines);
      return changed(
        patch,
        mapLines(patch, (lines) => {
          const texts = lines.map((line) => line.text);
          if (
            !swappableIndentation(
              lines.filter(isOld).map((line) => line.text),
              texts,
            )
          )
            return lines;
          return lines.map((line) => ({ ...line, text: swapTabsAndSpaces(line.text, unit) }));
        }),
      );
    }
    case "trailing-spaces":
      return changed(
        patch,
        mapLines(patch, (lines) => lines.map((line) => (isOld(line) && line.text !== "" && random.next() < 0.5 ? { ...line, text: `${line.text}  ` } : line))),
      );
    case "curly-quotes":
      return changed(
        patch,
        mapLines(patch, (lines) => lines.map((line) => (isOld(line) && hasQuote(line.text) ? { ...line, text: curlQuotes(line.text) } : line))),
      );
    case "missing-context-line":
      return oneHunk(patch, random, (hunk) => {
        const index = pick(interiorContext(hunk.lines), random);
        return index === undefined ? undefined : { ...hunk, lines: hunk.lines.filter((_, at) => at !== index) };
      });
    case "stale-context-line":
      return oneHunk(patch, random, (hunk) => {
        const candidates = hunk.lines.map((line, index) => (line.kind === "context" && line.text.trim() !== "" ? index : -1)).filter((index) => index !== -1);
        const index = pick(candidates, random);
        if (index === undefined) return undefined;
        return { ...hunk, lines: hunk.lines.map((line, at) => (at === index ? { ...line, text: staleVersion(line.text) } : line)) };
      });
    case "wrong-anchor":
      return oneHunk(patch, random, (hunk) => {
        const hunkEnd = hunk.start + hunk.lines.filter(isOld).length;
        const later = oldLines.slice(hunkEnd).find((line) => isHeaderLine(line) && !hunk.anchors.includes(line.trim()));
        return later === undefined ? undefined : { ...hunk, anchors: [later.trim()] };
      });
    case "unknown-anchor":
      return oneHunk(patch, random, (hunk) => {
        const anchor = hunk.anchors.length > 0 ? staleVersion(hunk.anchors[hunk.anchors.length - 1] as string) : "function helperNotInThisFile() {";
        if (oldLines.some((line) => line.trim() === anchor)) return undefined;
        return { ...hunk, anchors: [...hunk.anchors.slice(0, -1), anchor] };
      });
  }
}
