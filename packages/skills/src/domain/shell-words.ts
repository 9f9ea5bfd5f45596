/**
 * A small quote-aware splitter of shell command lines, enough for policy
 * checks (not a shell parser): segments split by `;`, `&&`, `||`, `|`, `&`,
 * newlines, parentheses and backticks; words split by unquoted blanks;
 * quotes removed, backslash escapes honoured, `#` comments skipped.
 * Redirections stay attached to their word (`2>/dev/null`, `>out.txt`).
 */

const BLANK = /[ \t\r]/;

/**
 * Splits a command line into segments of words.
 *
 * @example
 * splitShellSegments(`cd "my dir" && cat a.txt | head -n 2 # done`); // [["cd", "my dir"], ["cat", "a.txt"], ["head", "-n", "2"]]
 */
export function splitShellSegments(command: string): string[][] {
  const segments: string[][] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  const endWord = (): void => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
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
      index += 2;
      continue;
    }
    if (char === "'") {
      const close = command.indexOf("'", index + 1);
      const end = close < 0 ? command.length : close;
      word += command.slice(index + 1, end);
      inWord = true;
      index = end + 1;
      continue;
    }
    if (char === '"') {
      index = readDoubleQuoted(command, index + 1, (text) => {
        word += text;
      });
      inWord = true;
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
    if (char === "&" && (next === ">" || word.endsWith(">"))) {
      word += char;
      inWord = true;
      index += 1;
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
