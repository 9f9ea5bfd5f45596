/** How many characters of a given value a message quotes by default. */
export const DEFAULT_QUOTE_CHARS = 200;

/**
 * Shortens a value a message quotes back (a path, an enum value, a tool
 * name) to its first `maxChars` characters plus `...(N chars)`, so a
 * megabyte-long argument does not come back whole inside an error message.
 * Short values come back unchanged. Never splits a surrogate pair.
 *
 * @example
 * `File not found: "${quoteForMessage(input)}".` // "aaaa…aaaa...(5000000 chars)"
 */
export function quoteForMessage(value: string, maxChars: number = DEFAULT_QUOTE_CHARS): string {
  if (value.length <= maxChars) return value;
  return `${prefix(value, maxChars)}...(${value.length} chars)`;
}

function prefix(value: string, maxChars: number): string {
  let end = Math.max(0, Math.floor(maxChars));
  const last = value.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1; // a high surrogate without its pair
  return value.slice(0, end);
}

/**
 * A short JSON rendering of any value for a message: strings are quoted,
 * long renderings cut with {@link quoteForMessage}, and values JSON cannot
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
  return quoteForMessage(text, maxChars);
}

/** The JSON-ish type name of a value: `null`, `array`, `bigint`, `object`, ... */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
