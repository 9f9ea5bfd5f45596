/**
 * Which lines look like a function, method, class or block header, the kind
 * of line a model names in a V4A `@@` anchor (`@@ def fetch(self):`,
 * `@@ class Session`, `@@ func (c *Command) Execute() error {`). A heuristic
 * over the corpus's languages (JavaScript/TypeScript, Python, Rust, Go, C).
 */

const HEADER_PATTERNS: readonly RegExp[] = [
  // JavaScript / TypeScript
  /^\s*(export\s+)?(default\s+)?(async\s+)?function\b/,
  /^\s*(export\s+)?(default\s+)?(abstract\s+)?class\s+\w/,
  /^\s*(export\s+)?(const|let|var)\s+[\w$]+\s*=\s*(async\s+)?(function\b|\([^)]*\)\s*=>|[\w$]+\s*=>)/,
  /^\s*(export\s+)?(interface|type|enum|namespace)\s+\w/,
  /^\s*(describe|it|test|suite)\s*\(/,
  /^\s*([\w$]+\.)+[\w$]+\s*=\s*function\b/,
  // Python
  /^\s*(async\s+)?def\s+\w/,
  /^\s*class\s+\w/,
  // Rust
  /^\s*(pub(\([\w:]+\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?(fn|impl|struct|enum|trait|mod)\b/,
  /^\s*impl\s*</,
  // Go
  /^func\s/,
  /^type\s+\w+\s+(struct|interface)\b/,
];

/** C: a definition at column 0 (`static int f(...)`, `jv jv_parse(...)`): a type and a name before `(`, not ending in `;`. */
function isCDefinition(line: string): boolean {
  const paren = line.indexOf("(");
  if (paren <= 0 || line.trimEnd().endsWith(";")) return false;
  if (!/^[A-Za-z_]/.test(line)) return false;
  const tokens = line
    .slice(0, paren)
    .split(/[\s*]+/)
    .filter((token) => token !== "");
  return tokens.length >= 2 && tokens.every((token) => /^[A-Za-z_]\w*$/.test(token));
}

const NOT_HEADERS = /^\s*(if|for|while|switch|return|else|do|catch|case)\b/;

/** Whether a line looks like a header a model would name in an `@@` anchor. */
export function isHeaderLine(line: string): boolean {
  // Long lines (minified code, generated HTML) are no headers, and the patterns need not scan them.
  if (line.length > 300 || line.trim().length < 4 || NOT_HEADERS.test(line)) return false;
  return isCDefinition(line) || HEADER_PATTERNS.some((pattern) => pattern.test(line));
}
