/**
 * Deterministic stand-in vectors for words the table does not know: each
 * word gets a pseudo-random direction from a hash of its letters (FNV-1a
 * seeding mulberry32), the same on every run and machine. A text whose words
 * are all unknown still gets a unit vector, one that matches texts with the
 * same unknown words (an id, a rare name) and is close to no other text.
 */

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Adds `weight` times the hashed direction of `word` (components uniform in
 * [-1, 1)) to `into`.
 *
 * @example
 * const sum = new Float32Array(100);
 * addHashedVector("zsombor", 1, sum); // the same components on every call
 */
export function addHashedVector(word: string, weight: number, into: Float32Array): void {
  let state = fnv1a(word);
  for (let component = 0; component < into.length; component += 1) {
    // mulberry32
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    const unit = ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
    into[component] = into[component]! + weight * (unit * 2 - 1);
  }
}
