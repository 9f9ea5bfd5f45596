/** How many characters of a value a message quotes by default. */
export const DEFAULT_QUOTE_CHARS = 200;

/**
 * Shortens a value a message repeats back (a path, an enum value, a tool
 * name, an error text) to its first `maxChars` characters plus
 * `...(N chars)` with the full length. A 5 MB argument must not come back
 * inside a 5 MB message; the model already has the input, it only needs
 * enough to recognise it. Short values come back unchanged; a surrogate pair
 * is never split, so the message stays valid UTF-16.
 *
 * @example
 * shortenForMessage("a".repeat(5000)); // "aaaa…(200 a's)...(5000 chars)"
 */
export function shortenForMessage(value: string, maxChars: number = DEFAULT_QUOTE_CHARS): string {
  if (value.length <= maxChars) return value;
  return `${prefix(value, maxChars)}...(${value.length} chars)`;
}

/**
 * {@link shortenForMessage} inside double quotes, as path and argument
 * messages quote a caller's input.
 *
 * @example
 * `File not found: ${quoteForMessage("src/a.ts")}.` // File not found: "src/a.ts".
 */
export function quoteForMessage(value: string, maxChars: number = DEFAULT_QUOTE_CHARS): string {
  return `"${shortenForMessage(value, maxChars)}"`;
}

/**
 * A short JSON rendering of any value for a message: strings are quoted,
 * long renderings cut with {@link shortenForMessage}, and values JSON cannot
 * express (BigInt, functions, cycles) named by their type instead of
 * throwing.
 *
 * @example
 * `got ${previewForMessage(value, 60)}` // got "aaaa...(5000000 chars)"
 */
export function previewForMessage(value: unknown, maxChars: number = DEFAULT_QUOTE_CHARS): string {
  if (typeof value === "string") {
    // Cut before rendering: JSON.stringify of a 5 MB string would copy it whole first.
    return value.length <= maxChars ? JSON.stringify(value) : `${JSON.stringify(prefix(value, maxChars))}...(${value.length} chars)`;
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (text === undefined) return describeType(value);
  return shortenForMessage(text, maxChars);
}

/**
 * The JSON-ish type name of a value: `null`, `array`, `bigint`, `object`, ...
 *
 * @example
 * describeType([1, 2]); // "array"
 */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** The first `maxChars` characters, one fewer when the last would be a high surrogate without its pair. */
function prefix(value: string, maxChars: number): string {
  let end = Math.max(0, Math.floor(maxChars));
  const last = value.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return value.slice(0, end);
}
