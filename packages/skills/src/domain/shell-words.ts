/**
 * A small quote-aware splitter of shell command lines, enough for policy
 * checks (not a shell parser): segments split by `;`, `&&`, `||`, `|`, `&`,
 * newlines, parentheses and backticks; words split by unquoted blanks;
 * quotes removed (`'...'`, `"..."`, `$'...'` with its escapes, `$"..."`),
 * backslash escapes honoured, `#` comments skipped. A redirection operator
 * is a word of its own with its file descriptor (`2>`, `>>`, `1<>`, `&>`),
 * also when glued to the words around it (`echo x>>f` gives `echo`, `x`,
 * `>>`, `f`).
 */

const BLANK = /[ \t\r]/;

/** Redirection operators, longest first (after an optional file descriptor). */
const REDIRECT_OPERATORS = ["&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", ">>", ">|", ">&", ">", "<"];

/**
 * Splits a command line into segments of words.
 *
 * @example
 * splitShellSegments(`cd "my dir" && cat a.txt | head -n 2 # done`); // [["cd", "my dir"], ["cat", "a.txt"], ["head", "-n", "2"]]
 * splitShellSegments("echo x>>f"); // [["echo", "x", ">>", "f"]]
 */
export function splitShellSegments(command: string): string[][] {
  const segments: string[][] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  let quoted = false;
  const endWord = (): void => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
    quoted = false;
  };
  const endSegment = (): void => {
    endWord();
    if (words.length > 0) segments.push(words);
    words = [];
  };
  let index = 0;
  while (index < command.length) {
    const char = command[index] as string;
    const next = command[index + 1];
    if (char === "\\") {
      if (next === "\n") {
        index += 2;
        continue;
      }
      if (next !== undefined) word += next;
      inWord = true;
      quoted = true;
      index += 2;
      continue;
    }
    if (char === "$" && next === "'") {
      index = readAnsiQuoted(command, index + 2, (text) => {
        word += text;
      });
      inWord = true;
      quoted = true;
      continue;
    }
    if (char === "'") {
      const close = command.indexOf("'", index + 1);
      const end = close < 0 ? command.length : close;
      word += command.slice(index + 1, end);
      inWord = true;
      quoted = true;
      index = end + 1;
      continue;
    }
    if (char === '"' || (char === "$" && next === '"')) {
      index = readDoubleQuoted(command, index + (char === "$" ? 2 : 1), (text) => {
        word += text;
      });
      inWord = true;
      quoted = true;
      continue;
    }
    if (char === "#" && !inWord) {
      const newline = command.indexOf("\n", index);
      index = newline < 0 ? command.length : newline;
      continue;
    }
    if (BLANK.test(char)) {
      endWord();
      index += 1;
      continue;
    }
    const operator = redirectOperatorAt(command, index);
    if (operator !== undefined) {
      // A file descriptor number right before the operator belongs to it; any other word ends there.
      if (!inWord || quoted || !/^\d+$/.test(word)) endWord();
      word += operator;
      inWord = true;
      endWord();
      index += operator.length;
      continue;
    }
    if (char === ";" || char === "\n" || char === "|" || char === "&" || char === "(" || char === ")" || char === "`") {
      endSegment();
      index += 1;
      continue;
    }
    word += char;
    inWord = true;
    index += 1;
  }
  endSegment();
  return segments;
}

/** True for a word that is a redirection operator, with or without its file descriptor (`>`, `2>>`, `1<>`, `&>`). */
export function isRedirectOperator(word: string): boolean {
  const operator = word.replace(/^\d+/, "");
  return REDIRECT_OPERATORS.includes(operator);
}

/** True for a redirection that opens its file for writing (`>`, `>>`, `>|`, `&>`, `&>>`, `<>`, `>&`). */
export function isOutputRedirect(word: string): boolean {
  return isRedirectOperator(word) && /[>]|<>/.test(word);
}

function redirectOperatorAt(command: string, index: number): string | undefined {
  const char = command[index];
  if (char !== "<" && char !== ">" && !(char === "&" && command[index + 1] === ">")) return undefined;
  // `<(` and `>(` are process substitutions: the parenthesis opens a segment.
  return REDIRECT_OPERATORS.find((operator) => command.startsWith(operator, index));
}

/** Reads a double-quoted string from `start` (after the quote); returns the index after the closing quote. */
function readDoubleQuoted(command: string, start: number, append: (text: string) => void): number {
  let index = start;
  while (index < command.length) {
    const char = command[index] as string;
    if (char === '"') return index + 1;
    if (char === "\\" && index + 1 < command.length && '$`"\\\n'.includes(command[index + 1] as string)) {
      if (command[index + 1] !== "\n") append(command[index + 1] as string);
      index += 2;
      continue;
    }
    append(char);
    index += 1;
  }
  return index;
}

const ANSI_ESCAPES: Readonly<Record<string, string>> = { a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v" };

/** Reads a `$'...'` string from `start` (after the quote), decoding its escapes; returns the index after the closing quote. */
function readAnsiQuoted(command: string, start: number, append: (text: string) => void): number {
  let index = start;
  while (index < command.length) {
    const char = command[index] as string;
    if (char === "'") return index + 1;
    if (char !== "\\" || index + 1 >= command.length) {
      append(char);
      index += 1;
      continue;
    }
    const escaped = command[index + 1] as string;
    const numeric = /^(?:x([0-9A-Fa-f]{1,2})|u([0-9A-Fa-f]{1,4})|U([0-9A-Fa-f]{1,8})|([0-7]{1,3}))/.exec(command.slice(index + 1));
    if (numeric !== null) {
      const [text, hex, short, long, octal] = numeric;
      const hexadecimal = hex ?? short ?? long;
      const code = hexadecimal === undefined ? Number.parseInt(octal as string, 8) : Number.parseInt(hexadecimal, 16);
      append(code <= 0x10ffff ? String.fromCodePoint(code) : "");
      index += 1 + text.length;
      continue;
    }
    append(ANSI_ESCAPES[escaped] ?? escaped);
    index += 2;
  }
  return index;
}
