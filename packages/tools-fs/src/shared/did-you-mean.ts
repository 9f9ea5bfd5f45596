import { readdirSync } from "node:fs";
import path from "node:path";

/** Levenshtein distance, stopping early once it exceeds `limit`. */
export function levenshtein(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * Up to five existing siblings of the first missing component of
 * `absolutePath` (below `rootPath`), ranked: equal ignoring case and Unicode
 * normal form, then prefix / contains, then Levenshtein distance <= 2.
 * Returned as absolute paths spelled with the names as they are on disk
 * (a decomposed NFD name stays NFD), so a suggestion always reaches its file.
 *
 * @example
 * suggestSimilarPaths("/repo", "/repo/src/Index.ts"); // ["/repo/src/index.ts"]
 */
export function suggestSimilarPaths(rootPath: string, absolutePath: string): string[] {
  const relative = path.relative(rootPath, absolutePath);
  if (relative === "" || relative.startsWith("..")) return [];
  const parts = relative.split(path.sep);
  let directory = rootPath;
  for (let index = 0; index < parts.length; index += 1) {
    const name = parts[index]!;
    let entries: string[];
    try {
      entries = readdirSync(directory);
    } catch {
      return [];
    }
    // Walk on through a directory present under this name in any normal form.
    const present = presentName(entries, name);
    if (present !== undefined) {
      directory = path.join(directory, present);
      continue;
    }
    const rest = parts.slice(index + 1);
    return rankSimilarNames(entries, name).map((entry) => path.join(directory, entry, ...rest));
  }
  return [];
}

/** The entry spelling `name` in any Unicode normal form, if one. */
export function presentName(entries: readonly string[], name: string): string | undefined {
  return entries.includes(name) ? name : entries.find((entry) => entry.normalize("NFC") === name.normalize("NFC"));
}

/**
 * Up to five of `entries` like `name`, ranked: equal ignoring case and
 * Unicode normal form, then prefix / contains, then Levenshtein distance <= 2
 * (the pure part of {@link suggestSimilarPaths}).
 */
export function rankSimilarNames(entries: readonly string[], name: string): string[] {
  const wanted = fold(name);
  const ranked: Array<{ entry: string; rank: number; distance: number }> = [];
  for (const entry of entries) {
    const candidate = fold(entry);
    if (candidate === wanted) ranked.push({ entry, rank: 0, distance: entry === name ? 0 : 1 });
    else if (candidate.startsWith(wanted) || wanted.startsWith(candidate) || candidate.includes(wanted) || wanted.includes(candidate)) {
      ranked.push({ entry, rank: 1, distance: Math.abs(candidate.length - wanted.length) });
    } else {
      const distance = levenshtein(candidate, wanted, 2);
      if (distance <= 2) ranked.push({ entry, rank: 2, distance });
    }
  }
  ranked.sort((a, b) => a.rank - b.rank || a.distance - b.distance || (a.entry < b.entry ? -1 : a.entry > b.entry ? 1 : 0));
  return ranked.slice(0, 5).map((item) => item.entry);
}

/** Case- and normal-form-insensitive comparison key (NFC, lower case). */
function fold(name: string): string {
  return name.normalize("NFC").toLowerCase();
}
