/** Redirections of a simple command: which ones write a file (a part no allow rule may allow), and where its text ends for messages. */
import type { Node } from "web-tree-sitter";
import { readShellWord } from "./shell-words.js";

/** Why a part may not be allowed by a rule, or undefined. */
export type Restriction = string | undefined;

/** Where the text of a redirected command ends for messages: after its redirections, before a heredoc body and what follows `<<EOF`. */
export function statementEnd(body: Node, redirects: readonly Node[]): number {
  let end = body.endIndex;
  for (const redirect of redirects) {
    if (redirect.type !== "heredoc_redirect") end = Math.max(end, redirect.endIndex);
    else {
      for (const child of redirect.children) {
        if (child?.type === "heredoc_start" || child?.type === "file_redirect" || child?.type === "herestring_redirect") end = Math.max(end, child.endIndex);
      }
    }
  }
  return end;
}

const HARMLESS_TARGETS: ReadonlySet<string> = new Set(["/dev/null", "/dev/stdout", "/dev/stderr"]);
const OUTPUT_OPERATORS: ReadonlySet<string> = new Set([">", ">>", "&>", "&>>", ">|", ">&", "<>"]);

/** Output to a file (not /dev/null, /dev/stdout, /dev/stderr, nor a descriptor copy such as `>&2` or `2>&1`) makes a part not allowable. */
export function redirectRestriction(fileRedirects: readonly Node[]): Restriction {
  for (const redirect of fileRedirects) {
    const operator = redirect.children.find((child) => child !== null && !child.isNamed)?.type ?? "";
    if (!OUTPUT_OPERATORS.has(operator)) continue;
    const destination = redirect.childrenForFieldName("destination")[0];
    if (!destination) continue;
    const target = readShellWord(destination);
    if (target.dynamic) return `it writes output to a file named at run time ("${destination.text}")`;
    if (operator === ">&" && /^(\d+|-)$/.test(target.text)) continue;
    if (HARMLESS_TARGETS.has(target.text)) continue;
    return `it writes output to the file "${target.text}"`;
  }
  return undefined;
}

/** An unquoted heredoc runs backticks and `$(` that tree-sitter-bash leaves as text; such a body is not data. */
export function heredocRestriction(redirects: readonly Node[]): Restriction {
  for (const redirect of redirects) {
    if (redirect.type !== "heredoc_redirect") continue;
    const start = redirect.children.find((child) => child?.type === "heredoc_start");
    if (!start || /['"\\]/.test(start.text)) continue;
    for (const body of redirect.children) {
      if (body?.type !== "heredoc_body") continue;
      const texts =
        body.namedChildCount === 0 ? [body.text] : body.children.filter((child) => child?.type === "heredoc_content").map((child) => child?.text ?? "");
      const hidden = texts.some((text) => /`|\$\(/.test(text));
      if (hidden) return "its heredoc runs a command substitution this policy cannot read";
    }
  }
  return undefined;
}
