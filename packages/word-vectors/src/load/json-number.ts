/**
 * Reads a JSON number straight from UTF-8 bytes, without building a string:
 * the word-vector loader reads millions of them. For up to 15 significant
 * digits and a decimal exponent within +-22 (every number of the wink files)
 * the digits make an exact integer and one multiplication or division by an
 * exact power of ten rounds it once, so the result is the correctly rounded
 * double, the same as `Number(text)`; beyond that it falls back to `Number`.
 */

const POW10 = Array.from({ length: 23 }, (_, exponent) => 10 ** exponent);
const MAX_DIGITS = 15;
const ZERO = 48;
const NINE = 57;
const MINUS = 45;
const PLUS = 43;
const DOT = 46;

/** Where {@link readJsonNumber} puts its result: the value and the index after the number. */
export interface JsonNumberResult {
  value: number;
  end: number;
}

function isDigit(code: number | undefined): code is number {
  return code !== undefined && code >= ZERO && code <= NINE;
}

/**
 * Parses the JSON number that starts at `start` (before `limit`) into `out`;
 * false when no number starts there.
 *
 * @example
 * const out = { value: 0, end: 0 };
 * readJsonNumber(Buffer.from("-0.25,"), 0, 6, out); // true; out = { value: -0.25, end: 5 }
 */
export function readJsonNumber(bytes: Uint8Array, start: number, limit: number, out: JsonNumberResult): boolean {
  let index = start;
  const negative = bytes[index] === MINUS;
  if (negative) index += 1;
  let mantissa = 0;
  let digits = 0;
  let exponent = 0;
  let sawDigit = false;
  while (index < limit && isDigit(bytes[index])) {
    mantissa = mantissa * 10 + (bytes[index]! - ZERO);
    if (mantissa > 0) digits += 1;
    sawDigit = true;
    index += 1;
  }
  if (index < limit && bytes[index] === DOT) {
    index += 1;
    while (index < limit && isDigit(bytes[index])) {
      mantissa = mantissa * 10 + (bytes[index]! - ZERO);
      if (mantissa > 0) digits += 1;
      exponent -= 1;
      sawDigit = true;
      index += 1;
    }
  }
  if (!sawDigit) return false;
  if (index < limit && (bytes[index] === 101 || bytes[index] === 69)) {
    index += 1;
    const negativeExponent = bytes[index] === MINUS;
    if (negativeExponent || bytes[index] === PLUS) index += 1;
    let written = 0;
    let sawExponentDigit = false;
    while (index < limit && isDigit(bytes[index])) {
      written = Math.min(written * 10 + (bytes[index]! - ZERO), 100_000);
      sawExponentDigit = true;
      index += 1;
    }
    if (!sawExponentDigit) return false;
    exponent += negativeExponent ? -written : written;
  }
  if (digits <= MAX_DIGITS && Math.abs(exponent) < POW10.length) {
    const magnitude = exponent >= 0 ? mantissa * POW10[exponent]! : mantissa / POW10[-exponent]!;
    out.value = negative ? -magnitude : magnitude;
  } else {
    out.value = Number(Buffer.from(bytes.buffer, bytes.byteOffset + start, index - start).toString("latin1"));
  }
  out.end = index;
  return true;
}
