/** Characters of an input that a path message quotes at most. */
export const QUOTED_INPUT_MAX_CHARS = 200;

/**
 * Shortens a caller's input for an error message: the first
 * {@link QUOTED_INPUT_MAX_CHARS} characters, then `...(N chars)` with the full
 * length. A 5 MB path must not come back inside a 5 MB message; the model
 * already has the input, it only needs enough to recognise it.
 *
 * Private to the path policy (the registry has its own helper; the two may
 * be merged later).
 *
 * @example
 * shortenInput("a".repeat(5000)); // "aaaa…(200 a's)...(5000 chars)"
 */
export function shortenInput(value: string, maxChars = QUOTED_INPUT_MAX_CHARS): string {
  if (value.length <= maxChars) return value;
  // Do not cut a surrogate pair in half: the message must stay valid UTF-16.
  let end = maxChars;
  const last = value.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${value.slice(0, end)}...(${value.length} chars)`;
}

/** {@link shortenInput} inside double quotes, as path messages quote inputs. */
export function quoteInput(value: string, maxChars = QUOTED_INPUT_MAX_CHARS): string {
  return `"${shortenInput(value, maxChars)}"`;
}
