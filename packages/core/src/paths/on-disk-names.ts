import { lstatSync, readdirSync } from "node:fs";
import path from "node:path";

/**
 * Maps path segments to the names that exist on disk below `base`, so a file
 * whose name is stored decomposed (NFD, as macOS and some archives write
 * names) is reachable whichever Unicode form the caller typed.
 *
 * Per segment, from `base` down: the name as given, then its NFC and NFD
 * forms, then (for a non-ASCII segment) the directory is read for an entry
 * whose NFC form equals the segment's. From the first segment that matches
 * nothing on, segments are returned in NFC: names that do not exist yet are
 * created in NFC (the documented choice for new files).
 *
 * Pure-ASCII segments are taken as given: their normal forms are themselves
 * (the rare singletons that normalise to ASCII, such as U+212A KELVIN SIGN,
 * are not searched for).
 *
 * @example
 * // on disk: /repo/cafe\u0301.txt (NFD)
 * matchOnDiskNames("/repo", ["café.txt"]); // ["cafe\u0301.txt"]
 */
export function matchOnDiskNames(base: string, segments: readonly string[]): string[] {
  if (segments.every(isAscii)) return [...segments];
  // Fast path: the path exists exactly as given (lstat: a dangling link counts).
  if (entryExists(path.join(base, ...segments))) return [...segments];
  const out: string[] = [];
  let directory: string | undefined = base;
  for (const segment of segments) {
    const name = directory === undefined ? undefined : onDiskName(directory, segment);
    if (directory === undefined || name === undefined) {
      directory = undefined;
      out.push(segment.normalize("NFC"));
      continue;
    }
    out.push(name);
    directory = path.join(directory, name);
  }
  return out;
}

/** The entry of `directory` that `segment` names in any Unicode normal form, if one exists. */
function onDiskName(directory: string, segment: string): string | undefined {
  for (const candidate of new Set([segment, segment.normalize("NFC"), segment.normalize("NFD")])) {
    if (entryExists(path.join(directory, candidate))) return candidate;
  }
  if (isAscii(segment)) return undefined;
  let entries: string[];
  try {
    entries = readdirSync(directory);
  } catch {
    return undefined;
  }
  const wanted = segment.normalize("NFC");
  const matches = entries.filter((entry) => entry.normalize("NFC") === wanted).sort();
  return matches[0];
}

function entryExists(target: string): boolean {
  try {
    lstatSync(target);
    return true;
  } catch {
    return false;
  }
}

function isAscii(value: string): boolean {
  return /^[\x00-\x7f]*$/.test(value);
}
