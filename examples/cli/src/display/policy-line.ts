/**
 * `--explain` in the live display: the permission policy's decision for a
 * call as one line under the call (the terminal display dims and truncates it).
 */
import type { HookAnswer } from "@agent-tools/core/policy";
import type { PolicyEvent } from "../agent/agent-events.js";

/**
 * The text of a `policy` event: decision, the rule and its layer (or the
 * layer alone), the reason, and each hook's answer, on one line.
 *
 * @example
 * formatPolicyLine({ type: "policy", callId: "c1", toolName: "Bash", decision: "deny", rule: "Bash(rm -rf *)", layer: "project", reason: "…", hooks: [] });
 * // 'policy: deny · rule "Bash(rm -rf *)" (project) · …'
 */
export function formatPolicyLine(event: PolicyEvent): string {
  const parts = [`policy: ${event.decision}`];
  if (event.rule !== undefined) parts.push(`rule ${JSON.stringify(event.rule)}${event.layer === undefined ? "" : ` (${event.layer})`}`);
  else if (event.layer !== undefined) parts.push(`by ${event.layer}`);
  if (event.reason !== undefined && event.reason.trim() !== "") parts.push(oneLine(event.reason));
  if (event.hooks.length > 0) parts.push(`hooks: ${event.hooks.map(hookAnswerText).join(", ")}`);
  return parts.join(" · ");
}

function hookAnswerText(answer: HookAnswer): string {
  const outcome = answer.error !== undefined ? `failed (${oneLine(answer.error)})` : (answer.decision ?? "no decision");
  return `${answer.hook} ${outcome}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
