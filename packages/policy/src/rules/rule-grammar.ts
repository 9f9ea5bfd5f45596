/**
 * The grammar of one rule: `Tool` or `Tool(specifier)`. Everything that does
 * not fit (spaces around the name, an empty or unbalanced specifier, text
 * after the closing parenthesis) is an `SdkError` naming the rule.
 */
import { SdkError } from "@agent-tools/core";

/** A rule split into its tool name and specifier. */
export interface RuleText {
  /** The rule as written. */
  readonly text: string;
  /** The tool name, glob (`mcp_github_*`), `server:<id>` or `group:<id>`. */
  readonly tool: string;
  /** What is between the parentheses, when there are any. */
  readonly specifier?: string;
}

/** Throws the SdkError every rule mistake is reported with: the rule, where it is, what is wrong. */
export function invalidRule(rule: string, where: string, why: string, details: Record<string, unknown> = {}): never {
  throw new SdkError("invalid_options", `The permission rule ${JSON.stringify(rule)} (${where}) ${why}`, { rule, option: where, ...details });
}

/** True when the parentheses of `text` balance, outside quotes and backslash escapes. */
/** Control characters (tab and newline aside) and spaces that look like a plain space or like nothing: NBSP, zero-width, separators, BOM. */
const INVISIBLE_CHARACTER = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00a0\u00ad\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u3000\ufeff]/;

function parenthesesBalance(text: string): boolean {
  let depth = 0;
  let quote: string | undefined;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === "\\" && quote !== "'") {
      index += 1;
      continue;
    }
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      continue;
    }
    if (char === "'" || char === '"') quote = char;
    else if (char === "(") depth += 1;
    else if (char === ")") {
      depth -= 1;
      if (depth < 0) return false;
    }
  }
  return depth === 0;
}

/**
 * Splits `rule` (found at `where`, e.g. `permissions.project.allow[2]`).
 *
 * @example
 * parseRuleText("Bash(npm run test:*)", "permissions.project.allow[0]"); // { tool: "Bash", specifier: "npm run test:*" }
 */
export function parseRuleText(rule: string, where: string): RuleText {
  if (rule.trim() === "") invalidRule(rule, where, "is empty; write a tool name such as `Read`, or `Tool(specifier)`.");
  if (rule !== rule.trim()) invalidRule(rule, where, "has spaces around it; write it without them.");
  const invisible = INVISIBLE_CHARACTER.exec(rule);
  if (invisible) {
    const code = `U+${invisible[0].codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0")}`;
    invalidRule(
      rule,
      where,
      `holds the invisible or control character ${code} at ${invisible.index}: no command or path a tool is given would match it as meant.`,
    );
  }
  const open = rule.indexOf("(");
  if (open === -1) {
    if (rule.includes(")")) invalidRule(rule, where, "has a `)` without a `(`; write `Tool` or `Tool(specifier)`.");
    if (/\s/.test(rule)) invalidRule(rule, where, "has a space in the tool name; write `Tool` or `Tool(specifier)`.");
    return { text: rule, tool: rule };
  }
  const tool = rule.slice(0, open);
  if (tool === "") invalidRule(rule, where, "has no tool name before `(`.");
  if (/\s/.test(tool)) invalidRule(rule, where, "has a space in the tool name or before `(`; write `Tool(specifier)`.");
  if (!rule.endsWith(")")) invalidRule(rule, where, "has unbalanced parentheses: it must end with the `)` that closes the specifier.");
  const specifier = rule.slice(open + 1, -1);
  if (!parenthesesBalance(specifier)) invalidRule(rule, where, "has unbalanced parentheses in its specifier.");
  if (specifier.trim() === "") invalidRule(rule, where, `has an empty specifier; write \`${tool}\` for every call of the tool.`);
  return { text: rule, tool, specifier };
}
