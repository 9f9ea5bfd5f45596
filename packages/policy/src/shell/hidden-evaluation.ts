/**
 * Constructs where Bash evaluates a variable's VALUE as code, so a command
 * hidden in that value runs although no part of the line shows it:
 * arithmetic (`$((x))`, `$[x]`, `(( x ))`, `for ((...))`, `[[ x -eq 1 ]]`,
 * array subscripts and substring offsets of `${...}`) evaluates the subscript
 * of `a[$(cmd)]` found in a value; `${!x}` and `[[ -v x ]]` do the same with
 * the name they read; `${x@P}` expands the value as a prompt, command
 * substitutions included. A value set earlier on the same line (`TZ=...`,
 * `${x:=...}`, a `for` variable, `x=$(echo ...)`) is enough:
 * `TZ='a[$(touch x)]'; echo $((TZ))` runs `touch x`. Such a line is never
 * allowed by a rule; literal numbers stay harmless (`echo $((1 + 2))`).
 */
import type { Node } from "web-tree-sitter";

/** Operators of `[[ ]]` whose operands Bash evaluates as arithmetic. */
const ARITHMETIC_TEST_OPERATORS: ReadonlySet<string> = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);

/** Node types that carry no name or value of their own inside arithmetic (numbers and operator tokens are unnamed or `number`). */
const INERT_TYPES: ReadonlySet<string> = new Set(["number", "comment"]);

/** True when the arithmetic under `node` reads anything but literal numbers (a name, an expansion, a string). */
function readsValues(node: Node): boolean {
  for (const child of node.namedChildren) {
    if (child === null || INERT_TYPES.has(child.type)) continue;
    if (child.type === "binary_expression" || child.type === "unary_expression" || child.type === "parenthesized_expression") {
      if (readsValues(child)) return true;
      continue;
    }
    if (child.type === "ternary_expression" || child.type === "postfix_expression") {
      if (readsValues(child)) return true;
      continue;
    }
    return true;
  }
  return false;
}

/** The index of `a[index]` is evaluated as arithmetic unless it is a number, `@` or `*`. */
function subscriptReadsValues(subscript: Node): boolean {
  const index = subscript.childForFieldName("index") ?? subscript.namedChildren.filter((child): child is Node => child !== null).at(1);
  if (!index) return false;
  if (index.type === "number") return false;
  return !(index.type === "word" && (index.text === "@" || index.text === "*"));
}

/** `${...}` forms that evaluate a value: `${!x}`, `${x@P}`, a non-literal subscript, a substring offset. */
function expansionEvaluates(node: Node): string | undefined {
  const children = node.children.filter((child): child is Node => child !== null);
  for (let index = 0; index < children.length; index++) {
    const child = children[index];
    if (child.type === "!" && index === 1) return `"${node.text}" reads the variable named by a value`;
    if (child.type === "@" && children[index + 1]?.type === "P") return `"${node.text}" expands a value as a prompt, running the commands it holds`;
    if (child.type === "subscript" && subscriptReadsValues(child)) return `"${node.text}" evaluates an array index as arithmetic`;
    if (child.type === ":" && children.slice(index + 1).some((next) => next.isNamed && next.type !== "number")) {
      return `"${node.text}" evaluates a substring offset as arithmetic`;
    }
  }
  return undefined;
}

/** `[[ a -eq b ]]` and `[[ -v a ]]`: operands evaluated as arithmetic or read as a name with a subscript. */
function testEvaluates(node: Node): string | undefined {
  const operator = node.children.find((child) => child?.type === "test_operator")?.text ?? "";
  const operands = node.namedChildren.filter((child): child is Node => child !== null && child.type !== "test_operator");
  if (ARITHMETIC_TEST_OPERATORS.has(operator) && operands.some((operand) => operand.type !== "number")) {
    return `"${node.text}" evaluates its operands as arithmetic`;
  }
  if (operator === "-v" && operands.some((operand) => operand.type !== "word" || operand.text.includes("["))) {
    return `"${node.text}" reads a variable named at run time`;
  }
  return undefined;
}

/**
 * Why `node` makes Bash evaluate a variable's value as code, or undefined.
 * Looks at the node itself only (the walk visits every node of the line).
 *
 * @example
 * hiddenEvaluationOf(arithmeticNodeOf("$((TZ))")); // '"$((TZ))" evaluates ... as arithmetic'
 */
export function hiddenEvaluationOf(node: Node): string | undefined {
  switch (node.type) {
    case "arithmetic_expansion":
      return readsValues(node) ? `"${node.text}" evaluates values as arithmetic` : undefined;
    case "c_style_for_statement":
      return `"${node.text.split("\n")[0]}" evaluates values as arithmetic`;
    case "compound_statement":
      return node.firstChild?.type === "((" && readsValues(node) ? `"${node.text}" evaluates values as arithmetic` : undefined;
    case "expansion":
      return expansionEvaluates(node);
    case "binary_expression":
    case "unary_expression":
      // Only `[[ ]]` operators are `test_operator` tokens (`-eq`, `-v`); arithmetic uses `+`, `<`, ...
      return node.children.some((child) => child?.type === "test_operator") ? testEvaluates(node) : undefined;
    default:
      return undefined;
  }
}

/** An unquoted backquote or `$(` left inside a word that tree-sitter-bash did not parse (`${x:=`cmd`}`): a command nobody can read. */
export function hasUnparsedSubstitution(node: Node): boolean {
  const text = node.text.replace(/\\[\s\S]/g, "");
  return text.includes("`") || text.includes("$(");
}
