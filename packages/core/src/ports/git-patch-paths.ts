/**
 * Path quoting as git does it in patch headers (C-style, octal bytes for
 * non-ASCII): the paths of the `git diff --binary` patches GitClient's
 * `diff` returns and `apply` takes. Pure; shared by the adapters and by
 * code reading their patches.
 */

// TextEncoder/TextDecoder rather than Buffer: core runs outside Node too.
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const SIMPLE_ESCAPES: Record<string, string> = {
  "\\": "\\\\",
  '"': '\\"',
  "\n": "\\n",
  "\t": "\\t",
  "\r": "\\r",
  "\b": "\\b",
  "\f": "\\f",
  "\v": "\\v",
  "\u0007": "\\a",
};

/** Quotes `name` (e.g. `a/dir/file`) the way git writes it, when it needs quoting. */
export function quotePatchPath(name: string): string {
  const bytes = encoder.encode(name);
  let needsQuotes = false;
  let out = "";
  for (const byte of bytes) {
    const char = String.fromCharCode(byte);
    if (SIMPLE_ESCAPES[char]) {
      out += SIMPLE_ESCAPES[char];
      needsQuotes = true;
    } else if (byte < 0x20 || byte >= 0x7f) {
      out += `\\${byte.toString(8).padStart(3, "0")}`;
      needsQuotes = true;
    } else {
      out += char;
    }
  }
  return needsQuotes ? `"${out}"` : name;
}

const UNESCAPES: Record<string, number> = { "\\": 0x5c, '"': 0x22, n: 0x0a, t: 0x09, r: 0x0d, b: 0x08, f: 0x0c, v: 0x0b, a: 0x07 };

/** Reads one possibly quoted path from the start of `text`; returns it and the rest. */
export function readPatchPath(text: string): { path: string; rest: string } {
  if (!text.startsWith('"')) {
    const space = text.indexOf(" ");
    return space === -1 ? { path: text, rest: "" } : { path: text.slice(0, space), rest: text.slice(space + 1) };
  }
  const bytes: number[] = [];
  let index = 1;
  while (index < text.length && text[index] !== '"') {
    const char = text[index]!;
    if (char === "\\") {
      const next = text[index + 1] ?? "";
      if (/[0-7]/.test(next)) {
        bytes.push(Number.parseInt(text.slice(index + 1, index + 4), 8));
        index += 4;
        continue;
      }
      bytes.push(UNESCAPES[next] ?? next.charCodeAt(0));
      index += 2;
      continue;
    }
    bytes.push(...encoder.encode(char));
    index += 1;
  }
  return { path: decoder.decode(Uint8Array.from(bytes)), rest: text.slice(index + 2) };
}

/** Strips the `a/` or `b/` prefix of a patch path; `/dev/null` becomes null. */
export function stripPatchPrefix(name: string): string | null {
  if (name === "/dev/null") return null;
  return name.replace(/^[ab]\//, "");
}
