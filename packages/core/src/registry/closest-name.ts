/**
 * "Did you mean ...?" for names a host spelled wrong in its options: the
 * candidate equal to `name` ignoring case, else the one at the smallest edit
 * distance, if that distance is small for the name's length.
 */

/** Levenshtein distance, stopping early once it exceeds `limit` (then `limit + 1`). */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j += 1) {
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The candidate closest to `name`: one equal ignoring case first, else the
 * nearest by edit distance (case-insensitive) within 40% of the longer of
 * the two lengths (at least 2); undefined when none is that close. Ties keep
 * the earlier candidate.
 *
 * @example
 * closestName("bash", ["Read", "Bash"]); // "Bash"
 * closestName("Bsh", ["Read", "Bash"]); // "Bash"
 * closestName("Deploy", ["Read", "Bash"]); // undefined
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const wanted = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const folded = candidate.toLowerCase();
    if (folded === wanted) return candidate;
    const limit = Math.max(2, Math.floor(Math.max(wanted.length, folded.length) * 0.4));
    const distance = editDistance(wanted, folded, limit);
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
