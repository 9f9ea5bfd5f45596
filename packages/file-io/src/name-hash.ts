/**
 * FNV-1a 64 (offset basis 0xcbf29ce484222325, prime 0x100000001b3) of a
 * file name's UTF-8 bytes, as 16 lowercase hex characters: the same hash
 * tools-fs computes for file content, kept here in plain JavaScript because
 * it only ever sees names of at most a few hundred bytes.
 */
const OFFSET_BASIS = 0xcbf29ce484222325n;
const PRIME = 0x100000001b3n;

/**
 * FNV-1a 64 of `bytes` as 16 hex characters.
 *
 * @example
 * nameHash(Buffer.from("a")); // "af63dc4c8601ec8c"
 */
export function nameHash(bytes: Uint8Array): string {
  let state = OFFSET_BASIS;
  for (const byte of bytes) state = BigInt.asUintN(64, (state ^ BigInt(byte)) * PRIME);
  return state.toString(16).padStart(16, "0");
}
