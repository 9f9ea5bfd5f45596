import type { Node } from "web-tree-sitter";
import { type CommandPart, isSafeAssignmentName, type ParsedCommandLine, type ShellWord } from "./command-parts.js";
import { analyzeCommand } from "./command-wrappers.js";
import { hasUnparsedSubstitution, hiddenEvaluationOf } from "./hidden-evaluation.js";
import { heredocRestriction, type Restriction, redirectRestriction, statementEnd } from "./redirections.js";
import { readShellWord } from "./shell-words.js";

/** Deepest tree nesting walked; a deeper line is reported as not parsed (ok: false) rather than risking the stack. */
export const MAX_TREE_DEPTH = 200;
/** Deepest nesting of `sh -c` / `eval` strings parsed; a deeper one is not allowable. */
export const MAX_SCRIPT_DEPTH = 8;

/** State of one walk over one parsed line (one per call; nothing is shared between calls). */
export interface PartCollector {
  readonly source: string;
  readonly parts: CommandPart[];
  readonly problems: string[];
  /** Nesting of `sh -c` / `eval` strings: 0 for the line itself. */
  readonly scriptDepth: number;
  /** Parses a nested `sh -c` / `eval` string. */
  readonly parseScript: (script: string, scriptDepth: number) => ParsedCommandLine;
}

interface WordAt {
  readonly word: ShellWord;
  readonly start: number;
}

/** Node types that nest without adding a level a reader would see (`a && b && c` is a left-deep chain of lists). */
const FLAT_TYPES: ReadonlySet<string> = new Set(["program", "list", "pipeline"]);

/** Named nodes that never hold a command (heredoc content is data). */
const LEAF_TYPES: ReadonlySet<string> = new Set([
  "word",
  "number",
  "raw_string",
  "ansi_c_string",
  "string_content",
  "variable_name",
  "special_variable_name",
  "file_descriptor",
  "heredoc_start",
  "heredoc_end",
  "heredoc_content",
  "comment",
  "test_operator",
  "regex",
  "extglob_pattern",
]);

/** A node waiting to be visited. The walk keeps its own stack, so a long `a && b && ...` chain cannot overflow the call stack. */
interface Pending {
  readonly node: Node;
  readonly depth: number;
  readonly restriction: Restriction;
  /** The statement a redirection applies to, found below a list or pipeline body (see {@link walkRedirected}). */
  readonly target?: { readonly id: number; readonly context: CommandContext };
}

/** Collects every simple command of the tree under `node` into `collector.parts`, in source order. */
export function collectParts(collector: PartCollector, node: Node): void {
  const stack: Pending[] = [{ node, depth: 0, restriction: undefined }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const next = visit(collector, item);
    for (let index = next.length - 1; index >= 0; index--) stack.push(next[index]);
  }
}

function visit(collector: PartCollector, item: Pending): Pending[] {
  const { node, depth } = item;
  if (depth > MAX_TREE_DEPTH) {
    addProblem(collector, "nesting too deep");
    return [];
  }
  const type = node.type;
  const targeted = item.target !== undefined && item.target.id === node.id ? item.target.context : undefined;
  const restriction = item.restriction ?? targeted?.restriction;
  const childDepth = FLAT_TYPES.has(type) ? depth : depth + 1;
  checkHiddenCode(collector, node);
  // Only named nodes can hold a command, and leaves never do: skipping them halves the nodes crossing from WebAssembly.
  const pending = (nodes: readonly (Node | null)[], childRestriction: Restriction): Pending[] => {
    const result: Pending[] = [];
    for (const child of nodes) {
      if (child !== null && !LEAF_TYPES.has(child.type)) result.push({ node: child, depth: childDepth, restriction: childRestriction });
    }
    return result;
  };
  switch (type) {
    case "command":
      addCommand(collector, node, targeted ? { ...targeted, restriction } : { extraArguments: [], restriction, text: node.text });
      // Commands substituted into the words run before it; its redirections do not reach them.
      return pending(node.namedChildren, undefined);
    case "redirected_statement":
      return walkRedirected(collector, node, childDepth);
    case "declaration_command":
    case "unset_command":
      addDeclaration(collector, node, restriction);
      return pending(node.namedChildren, undefined);
    case "variable_assignment":
    case "variable_assignments":
      if (!isInsideCommand(node)) addBareAssignment(collector, node);
      break;
    case "command_substitution":
      // tree-sitter-bash does not parse backquotes nested with \` inside backquotes; bash runs them.
      if (node.text.startsWith("`") && node.text.includes("\\`")) addProblem(collector, "nested backquotes this policy cannot read");
      break;
    case "heredoc_body":
      // Heredoc bodies are data; only the command substitutions tree-sitter-bash parsed inside an unquoted body run.
      return pending(node.namedChildren, undefined);
    case "function_definition":
      return pending([node.childForFieldName("body")], restriction);
    case "for_statement":
      addLoopVariable(collector, node);
      break;
  }
  const children = pending(node.namedChildren, restriction);
  // A redirection target below a list or pipeline body: pass the search down that chain.
  return item.target && !targeted && FLAT_TYPES.has(type) ? children.map((child) => ({ ...child, target: item.target })) : children;
}

/** Leaves inside `${...}` whose text tree-sitter-bash keeps unparsed (a default value, a `#`/`%`/`/` pattern). */
const UNPARSED_TEXT_TYPES = ["word", "regex", "extglob_pattern", "raw_string", "string_content"];

/** A construct that evaluates a value as code adds a part no rule allows; a substitution tree-sitter-bash left unparsed makes the line unreadable. */
function checkHiddenCode(collector: PartCollector, node: Node): void {
  const hidden = hiddenEvaluationOf(node);
  if (hidden) {
    const reason = `${hidden}, which can run a command hidden in a variable's value`;
    pushPart(collector, { words: [], assignments: [], text: node.text, reason });
  }
  // `<<$'EOF'`: Bash ends the body at `EOF`, tree-sitter-bash at `$'EOF'`, so they disagree on which lines are commands.
  if (node.type === "heredoc_redirect" && node.children.some((child) => child?.type === "heredoc_start" && /\$['"]/.test(child.text))) {
    addProblem(collector, "a heredoc delimiter quoted with $'...' or $\"...\", whose end Bash and this parser find in different places");
  }
  if (node.type === "expansion" && holdsUnparsedSubstitution(node)) {
    addProblem(collector, `the expansion "${node.text}" holds a command substitution this policy cannot read`);
  }
}

/** Looks below `${...}` down to the next nested `${...}` (the walk visits that one itself), so nested expansions cost linear time. */
function holdsUnparsedSubstitution(expansion: Node): boolean {
  const stack: Node[] = [...expansion.children.filter((child): child is Node => child !== null)];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type === "expansion") continue;
    if (UNPARSED_TEXT_TYPES.includes(node.type) && hasUnparsedSubstitution(node)) return true;
    for (const child of node.children) if (child !== null) stack.push(child);
  }
  return false;
}

function addProblem(collector: PartCollector, problem: string): void {
  if (!collector.problems.includes(problem)) collector.problems.push(problem);
}

function isInsideCommand(node: Node): boolean {
  const parent = node.parent;
  return parent !== null && (parent.type === "command" || parent.type === "declaration_command" || parent.type === "variable_assignments");
}

/**
 * `body > file`: the redirections apply to the body's last statement. tree-sitter-bash attaches them to a whole `a && b` list or
 * `a | b` pipeline body, where bash gives them to `b` only, so the target is searched down the last statements of such a body.
 * tree-sitter-bash also reads `ls >out arg` as one redirection with two destinations; bash gives `arg` to `ls`, so destinations after
 * the first become arguments of a simple-command target. Statements inside a heredoc redirection (`cat <<EOF | sh`,
 * `cat <<EOF && rm x`) are other statements and do not inherit the redirections.
 */
function walkRedirected(collector: PartCollector, node: Node, depth: number): Pending[] {
  const body = node.childForFieldName("body");
  const redirects = node.childrenForFieldName("redirect").filter((child): child is Node => child !== null);
  const fileRedirects: Node[] = [];
  for (const redirect of redirects) {
    if (redirect.type === "file_redirect") fileRedirects.push(redirect);
    if (redirect.type === "heredoc_redirect") {
      for (const inner of redirect.childrenForFieldName("redirect")) if (inner?.type === "file_redirect") fileRedirects.push(inner);
    }
  }
  const rest = redirects.map((redirect) => ({ node: redirect, depth, restriction: undefined }));
  if (!body) return rest;
  const target = lastStatement(body);
  const extraArguments = fileRedirects
    .flatMap((redirect) => redirect.childrenForFieldName("destination").slice(1))
    .filter((child): child is Node => child !== null);
  const restriction = redirectRestriction(fileRedirects) ?? heredocRestriction(redirects);
  const text = target.type === "command" ? collector.source.slice(target.startIndex, statementEnd(body, redirects)) : target.text;
  const context: CommandContext = { extraArguments: target.type === "command" ? extraArguments : [], restriction, text };
  return [{ node: body, depth, restriction: undefined, target: { id: target.id, context } }, ...rest];
}

/** The statement a redirection after `body` applies to: the last statement down a chain of lists and pipelines. */
function lastStatement(body: Node): Node {
  let node = body;
  while (node.type === "list" || node.type === "pipeline") {
    const last = node.namedChildren.filter((child): child is Node => child !== null && child.type !== "comment").at(-1);
    if (!last) break;
    node = last;
  }
  return node;
}

interface CommandContext {
  readonly extraArguments: readonly Node[];
  readonly restriction: Restriction;
  readonly text: string;
}

function addCommand(collector: PartCollector, node: Node, context: CommandContext): void {
  const assignments: string[] = [];
  const words: WordAt[] = [];
  let redirectRestrictionHere: Restriction;
  for (let index = 0; index < node.childCount; index++) {
    const child = node.child(index);
    if (!child) continue;
    const field = node.fieldNameForChild(index);
    if (child.type === "variable_assignment") assignments.push(child.childForFieldName("name")?.text ?? child.text);
    else if (field === "name" || field === "argument") words.push({ word: readShellWord(child), start: child.startIndex });
    else if (child.type === "file_redirect") redirectRestrictionHere ??= redirectRestriction([child]);
  }
  // `ls &&` at the end of a line: tree-sitter-bash supplies a MISSING command name (the line is reported as not parsed).
  if (words.length === 0 || node.childForFieldName("name")?.hasError) return;
  for (const extra of context.extraArguments) words.push({ word: readShellWord(extra), start: extra.startIndex });
  const restriction = context.restriction ?? redirectRestrictionHere;
  addWords(collector, { words, assignments, text: context.text, restriction, end: node.endIndex });
}

interface PartInput {
  readonly words: readonly WordAt[];
  readonly assignments: readonly string[];
  readonly text: string;
  readonly restriction: Restriction;
  /** Source offset where the command ends (the text of an inner command runs from its first word to here). */
  readonly end: number;
}

/** Adds the part, then the inner command of a wrapper (recursively) and the parts of a `sh -c` / `eval` string. */
function addWords(collector: PartCollector, input: PartInput): void {
  const shellWords = input.words.map((entry) => entry.word);
  const analysis = analyzeCommand(shellWords);
  const unsafe = input.assignments.find((name) => !isSafeAssignmentName(name));
  // An unsafe assignment also reaches the commands a wrapper runs (`PATH=/x env rm`, `env LD_PRELOAD=x sudo rm`).
  const inherited = input.restriction ?? (unsafe ? `it sets ${unsafe}, which can change what runs` : undefined);
  let reason = inherited;
  if (analysis.kind === "blocked") reason ??= analysis.reason;
  if (analysis.kind === "script" && collector.scriptDepth >= MAX_SCRIPT_DEPTH) reason ??= "its nested shell strings are too deep to check";
  // Commands this policy cannot read (a shell reading stdin or a file, `source`, a string decided at run time) are marked for the rules.
  const hidesCommands = analysis.kind === "blocked" || (analysis.kind === "wrapper" && analysis.hidesCommands === true);
  pushPart(collector, { words: shellWords, assignments: input.assignments, text: input.text, reason, hidesCommands });
  if (analysis.kind === "wrapper" && analysis.innerStart < input.words.length) {
    const rest = input.words.slice(analysis.innerStart);
    const inner = analysis.keepsName ? [input.words[0], ...rest] : rest;
    const words = analysis.appendsInput ? [...inner, { word: { text: "<input words>", dynamic: true }, start: input.end }] : inner;
    const text = collector.source.slice(inner[0].start, input.end);
    addWords(collector, { words, assignments: analysis.assignments, text, restriction: inherited, end: input.end });
  } else if (analysis.kind === "exec") {
    for (const range of analysis.ranges) {
      // `{}` becomes each path found: a word decided at run time.
      const words = input.words
        .slice(range.start, range.end)
        .map((entry) => (entry.word.text === "{}" ? { ...entry, word: { text: "{}", dynamic: true } } : entry));
      const end = input.words[range.end]?.start ?? input.end;
      const text = collector.source.slice(words[0].start, end).trimEnd();
      addWords(collector, { words, assignments: [], text, restriction: inherited, end });
    }
  } else if (analysis.kind === "script" && collector.scriptDepth < MAX_SCRIPT_DEPTH) {
    const nested = collector.parseScript(analysis.script, collector.scriptDepth + 1);
    for (const part of nested.parts) collector.parts.push(inherited && part.allowable ? restrict(part, inherited) : part);
    if (!nested.ok) collector.problems.push(`the string run by "${shellWords[0].text}" does not parse (${nested.reason})`);
  }
}

function restrict(part: CommandPart, reason: string): CommandPart {
  return { ...part, allowable: false, notAllowableReason: reason };
}

function pushPart(
  collector: PartCollector,
  part: { words: readonly ShellWord[]; assignments: readonly string[]; text: string; reason: Restriction; hidesCommands?: boolean },
): void {
  const base = { words: part.words, assignments: part.assignments, text: part.text, ...(part.hidesCommands ? { hidesCommands: true } : {}) };
  collector.parts.push(part.reason === undefined ? { ...base, allowable: true } : { ...base, allowable: false, notAllowableReason: part.reason });
}

/** `export A=1`, `declare -x B`, `unset C`: a part whose words are the keyword and the arguments as written (after quote removal). */
function addDeclaration(collector: PartCollector, node: Node, restriction: Restriction): void {
  const words: ShellWord[] = [];
  const assignments: string[] = [];
  for (const child of node.children) {
    if (!child) continue;
    if (!child.isNamed) {
      if (words.length === 0) words.push({ text: child.type, dynamic: false });
      continue;
    }
    if (child.type === "variable_assignment") {
      const name = child.childForFieldName("name")?.text ?? "";
      const value = child.childForFieldName("value");
      const read = value ? readShellWord(value) : { text: "", dynamic: false };
      assignments.push(name);
      words.push({ text: `${name}=${read.text}`, dynamic: read.dynamic });
    } else if (child.type !== "comment") words.push(readShellWord(child));
  }
  const unsafe = assignments.find((name) => !isSafeAssignmentName(name));
  const reason = restriction ?? (unsafe ? `it sets ${unsafe}, which can change what runs` : undefined);
  pushPart(collector, { words, assignments: [], text: node.text, reason });
}

/**
 * `for PATH in /x; do ls; done` (and `select`) assigns the loop variable like `PATH=/x`: a name that can change what runs makes a
 * part no rule allows. Lower-case names (`for f in *.md`) are ordinary shell variables, except the proxies programs read.
 */
function addLoopVariable(collector: PartCollector, node: Node): void {
  const name = node.childForFieldName("variable")?.text ?? node.namedChildren.find((child) => child?.type === "variable_name")?.text;
  if (name === undefined || isSafeAssignmentName(name) || (/^[a-z_][a-z0-9_]*$/.test(name) && !name.endsWith("_proxy"))) return;
  const text = node.text.split("\n")[0];
  pushPart(collector, { words: [], assignments: [name], text, reason: `its loop sets ${name}, which can change what runs` });
}

/** A bare `PATH=/x` statement changes what later commands of the line run: a not-allowable part unless every name is safe. */
function addBareAssignment(collector: PartCollector, node: Node): void {
  const names =
    node.type === "variable_assignment"
      ? [node.childForFieldName("name")?.text ?? node.text]
      : node.children
          .filter((child): child is Node => child?.type === "variable_assignment")
          .map((child) => child.childForFieldName("name")?.text ?? child.text);
  const unsafe = names.find((name) => !isSafeAssignmentName(name));
  if (unsafe) pushPart(collector, { words: [], assignments: names, text: node.text, reason: `it sets ${unsafe}, which can change what later commands run` });
}
