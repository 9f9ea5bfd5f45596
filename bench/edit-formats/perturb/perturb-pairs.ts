/**
 * Perturbations of Edit pairs (never of the file). Indentation and CRLF
 * change both strings (a model writes both the same way); trailing spaces and
 * curly quotes change old_string only (the copy of the file's text); a
 * missing or stale context line is a line both strings share. Undefined when
 * the perturbation does not apply; the `@@` anchor ones never do.
 */
import type { RandomSource } from "../corpus/seeded-random.js";
import type { EditPair } from "../formats/to-edit-pairs.js";
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

const lines = (text: string) => text.split("\n");

function both(pair: EditPair, change: (line: string) => string): EditPair {
  return { old_string: lines(pair.old_string).map(change).join("\n"), new_string: lines(pair.new_string).map(change).join("\n") };
}

/** Indices (in old_string's lines) of lines both strings start or end with, and the matching index in new_string. */
function sharedLines(pair: EditPair): Array<{ old: number; new: number }> {
  const oldLines = lines(pair.old_string);
  const newLines = lines(pair.new_string);
  const shared: Array<{ old: number; new: number }> = [];
  for (let index = 0; index < Math.min(oldLines.length, newLines.length) && oldLines[index] === newLines[index]; index++)
    shared.push({ old: index, new: index });
  for (
    let back = 1;
    back <= Math.min(oldLines.length, newLines.length) - shared.length && oldLines[oldLines.length - back] === newLines[newLines.length - back];
    back++
  ) {
    shared.push({ old: oldLines.length - back, new: newLines.length - back });
  }
  return shared;
}

function replaceShared(pair: EditPair, at: { old: number; new: number }, change: (line: string) => string | undefined): EditPair {
  const edit = (text: string, index: number) => {
    const all = lines(text);
    const next = change(all[index] as string);
    return (next === undefined ? all.filter((_, position) => position !== index) : all.map((line, position) => (position === index ? next : line))).join("\n");
  };
  return { old_string: edit(pair.old_string, at.old), new_string: edit(pair.new_string, at.new) };
}

/** One pair chosen by the random source, changed; undefined when `change` declines every pair. */
function onePair(pairs: readonly EditPair[], random: RandomSource, change: (pair: EditPair) => EditPair | undefined): EditPair[] | undefined {
  const first = Math.floor(random.next() * pairs.length);
  for (let step = 0; step < pairs.length; step++) {
    const index = (first + step) % pairs.length;
    const result = change(pairs[index] as EditPair);
    if (result) return pairs.map((pair, at) => (at === index ? result : pair));
  }
  return undefined;
}

function changed(before: readonly EditPair[], after: EditPair[]): EditPair[] | undefined {
  return JSON.stringify(before) === JSON.stringify(after) ? undefined : after;
}

/**
 * The perturbed pairs; `"verbatim"` when a perturbed old_string (line
 * endings aside) is text the file holds as it is when that pair applies,
 * outside the intended place (or anywhere, for a missing or stale line): a
 * valid edit of something else, which no applier can tell from the intended
 * one; undefined when the perturbation does not apply. `texts[i]`: the file
 * pair i is applied to.
 */
export function perturbPairs(
  pairs: readonly EditPair[],
  kind: Perturbation,
  oldLines: readonly string[],
  random: RandomSource,
  texts: readonly string[],
): EditPair[] | "verbatim" | undefined {
  const perturbed = perturbPairsOnly(pairs, kind, oldLines, random);
  if (!perturbed) return undefined;
  const withoutCr = (text: string) => text.replace(/\r\n/g, "\n");
  const verbatim = perturbed.some((pair, index) => {
    const after = withoutCr(pair.old_string);
    const before = withoutCr((pairs[index] as EditPair).old_string);
    if (after === before) return false;
    const text = withoutCr(texts[index] as string);
    // A missing or stale line is meant to leave text the file does not hold at all.
    if (kind === "missing-context-line" || kind === "stale-context-line") return text.includes(after);
    // Else the intended place is where the unperturbed old_string is (it is unique); an occurrence within it is that place.
    const intended = text.indexOf(before);
    for (let at = text.indexOf(after); at !== -1; at = text.indexOf(after, at + 1)) {
      if (at < intended || at + after.length > intended + before.length) return true;
    }
    return false;
  });
  return verbatim ? "verbatim" : perturbed;
}

function perturbPairsOnly(pairs: readonly EditPair[], kind: Perturbation, oldLines: readonly string[], random: RandomSource): EditPair[] | undefined {
  switch (kind) {
    case "none":
      return [...pairs];
    case "crlf":
      return pairs.map((pair) => ({ old_string: pair.old_string.replace(/\n/g, "\r\n"), new_string: pair.new_string.replace(/\n/g, "\r\n") }));
    case "lost-indentation":
      return changed(
        pairs,
        pairs.map((pair) => {
          const common = commonIndent(lines(pair.old_string));
          return both(pair, (line) => dedent(line, common));
        }),
      );
    case "extra-indentation":
      return pairs.map((pair) => {
        const level = levelOf(lines(pair.old_string));
        return both(pair, (line) => indentMore(line, level));
      });
    case "tabs-for-spaces": {
      const unit = spaceUnit(oldLines);
      return changed(
        pairs,
        pairs.map((pair) =>
          swappableIndentation(lines(pair.old_string), [...lines(pair.old_string), ...lines(pair.new_string)])
            ? both(pair, (line) => swapTabsAndSpaces(line, unit))
            : pair,
        ),
      );
    }
    case "trailing-spaces":
      return changed(
        pairs,
        pairs.map((pair) => ({
          ...pair,
          old_string: lines(pair.old_string)
            .map((line) => (line !== "" && random.next() < 0.5 ? `${line}  ` : line))
            .join("\n"),
        })),
      );
    case "curly-quotes":
      return changed(
        pairs,
        pairs.map((pair) => ({
          ...pair,
          old_string: lines(pair.old_string)
            .map((line) => (hasQuote(line) ? curlQuotes(line) : line))
            .join("\n"),
        })),
      );
    case "missing-context-line":
      return onePair(pairs, random, (pair) => {
        const count = lines(pair.old_string).length;
        // A line with old lines on both sides: leaving it out breaks the copy, not just shortens it.
        const inner = sharedLines(pair).filter((at) => at.old > 0 && at.old < count - 1);
        const at = inner[Math.floor(random.next() * inner.length)];
        return at ? replaceShared(pair, at, () => undefined) : undefined;
      });
    case "stale-context-line":
      return onePair(pairs, random, (pair) => {
        const candidates = sharedLines(pair).filter((at) => (lines(pair.old_string)[at.old] as string).trim() !== "");
        const at = candidates[Math.floor(random.next() * candidates.length)];
        return at ? replaceShared(pair, at, staleVersion) : undefined;
      });
    case "wrong-anchor":
    case "unknown-anchor":
      return undefined;
  }
}
