import { createRequire } from "node:module";
import { Language, Parser, type Tree } from "web-tree-sitter";
import { collectParts, type PartCollector } from "./collect-parts.js";
import type { ParsedCommandLine } from "./command-parts.js";

/** Longest command line parsed (in UTF-16 code units); a longer one is reported as not parsed. */
export const MAX_COMMAND_LINE_LENGTH = 64 * 1024;
/** Longest time one parse may take before it is cancelled and reported as not parsed. */
const MAX_PARSE_MILLISECONDS = 1000;

/** Parses Bash command lines into their simple commands with tree-sitter-bash. */
export interface ShellParser {
  /**
   * Splits `line` into every simple command anywhere in it (see {@link ParsedCommandLine}). Never throws: a line that does not
   * parse, is longer than 64 KiB or nests too deeply is `ok: false` with the parts that could be read.
   */
  parse(line: string): ParsedCommandLine;
  /** Frees the tree-sitter parser; `parse` must not be called afterwards. Calling it twice is harmless. */
  close(): void;
}

/**
 * web-tree-sitter keeps its WebAssembly module in one process-wide binding, and `Parser.init()` replaces that module, which would leave
 * earlier parsers pointing into freed memory. So the initialisation runs once per process and every loader shares it: the one piece of
 * module state here, owned by the binding rather than by us.
 */
let bindingReady: Promise<void> | undefined;

/**
 * Loads tree-sitter-bash's WebAssembly grammar (the build VS Code ships in @vscode/tree-sitter-wasm: no native code, no install script) (about 50 ms the first time) and returns a parser.
 * @example
 * const shell = await loadShellParser();
 * const line = shell.parse("cd src && npm test | tee log.txt");
 * // line.ok === true; line.parts: "cd src", "npm test", "tee log.txt"
 * shell.close();
 */
export async function loadShellParser(): Promise<ShellParser> {
  bindingReady ??= Parser.init().catch((error: unknown) => {
    bindingReady = undefined;
    throw error;
  });
  await bindingReady;
  const require = createRequire(import.meta.url);
  const language = await Language.load(require.resolve("@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm"));
  const parser = new Parser();
  parser.setLanguage(language);
  let closed = false;
  const parse = (line: string, scriptDepth: number): ParsedCommandLine => {
    if (closed) return { ok: false, reason: "the shell parser is closed", parts: [] };
    if (line.length > MAX_COMMAND_LINE_LENGTH) return { ok: false, reason: `the command line is longer than ${MAX_COMMAND_LINE_LENGTH} characters`, parts: [] };
    return parseWith(parser, line, (script, depth) => parse(script, depth), scriptDepth);
  };
  return {
    parse: (line) => parse(line, 0),
    close() {
      if (closed) return;
      closed = true;
      parser.delete();
    },
  };
}

function parseWith(parser: Parser, line: string, parseScript: PartCollector["parseScript"], scriptDepth: number): ParsedCommandLine {
  const deadline = performance.now() + MAX_PARSE_MILLISECONDS;
  let tree: Tree | null = null;
  try {
    tree = parser.parse(line, null, { progressCallback: () => performance.now() > deadline });
    if (!tree) return { ok: false, reason: "the command line took too long to parse", parts: [] };
    const collector: PartCollector = { source: line, parts: [], problems: [], scriptDepth, parseScript };
    collectParts(collector, tree.rootNode);
    if (tree.rootNode.hasError) collector.problems.unshift(describeSyntaxError(tree));
    // tree-sitter-bash reads backslash-CR-LF as a line continuation; Bash quotes the CR and ends the command at the LF.
    if (line.includes("\\\r\n")) collector.problems.push("a backslash before a CR-LF line end, which Bash reads as two commands");
    if (collector.problems.length === 0) return { ok: true, parts: collector.parts };
    return { ok: false, reason: collector.problems.join("; "), parts: collector.parts };
  } catch (error) {
    return { ok: false, reason: `the command line could not be parsed (${error instanceof Error ? error.message : String(error)})`, parts: [] };
  } finally {
    tree?.delete();
  }
}

/** Names the first ERROR or MISSING node: "syntax error near `$(` at column 6". */
function describeSyntaxError(tree: Tree): string {
  const cursor = tree.walk();
  try {
    for (;;) {
      const node = cursor.currentNode;
      if (node.isError || node.isMissing) {
        const what = node.isMissing ? `a missing "${node.type}"` : `"${node.text.slice(0, 40)}"`;
        return `syntax error: ${what} at line ${node.startPosition.row + 1}, column ${node.startPosition.column + 1}`;
      }
      if (node.hasError && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return "syntax error";
    }
  } finally {
    cursor.delete();
  }
}
