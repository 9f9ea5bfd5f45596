/**
 * Small text helpers of Write and Edit: a line count of the bytes written and
 * the short preview their details carry.
 */

/** Number of lines in bytes, or in consecutive pieces (split inclusively of `\n`). */
export function countLines(bytes: Uint8Array | readonly Buffer[]): number {
  const pieces = Array.isArray(bytes)
    ? (bytes as readonly Buffer[])
    : [Buffer.isBuffer(bytes) ? bytes : Buffer.from((bytes as Uint8Array).buffer, (bytes as Uint8Array).byteOffset, (bytes as Uint8Array).length)];
  let count = 0;
  let last = -1;
  for (const buffer of pieces) {
    if (buffer.length === 0) continue;
    for (let index = buffer.indexOf(10); index !== -1; index = buffer.indexOf(10, index + 1)) count += 1;
    last = buffer[buffer.length - 1]!;
  }
  if (last === -1) return 0;
  return last === 10 ? count : count + 1;
}

/** The first 500 characters of a text, with a note of the full length when cut. */
export function preview(text: string, max = 500): string {
  return text.length <= max ? text : `${text.slice(0, max)}...(${text.length} chars total)...`;
}
