/**
 * Tools no rule names: read-only tools are allowed, the others follow the
 * approval options (their `policies`, then `defaultDecision`, default
 * `allow`); rules with a specifier of ManagedProcess (the `start` command).
 */
import { callRows } from "./case-builders.js";
import { ASK_FALLBACK, type CaseGroup } from "./case-types.js";

const task = { subject: "s", description: "d", activeForm: "doing s" };

const fallbackRows = [
  ...callRows({ permissions: {}, approval: {} }, [
    ["no rules, default approval: Read allowed", "Read", { path: "README.md" }, "allow"],
    ["no rules, default approval: Bash allowed", "Bash", { command: "echo default" }, "allow"],
    ["no rules, default approval: Write allowed", "Write", { path: "docs/f-{n}.md", content: "x" }, "allow"],
    ["no rules, default approval: TaskCreate allowed", "TaskCreate", task, "allow"],
    ["no rules, default approval: TaskList allowed", "TaskList", {}, "allow"],
  ]),
  ...callRows({ permissions: {}, approval: ASK_FALLBACK }, [
    ["ask fallback: Read stays allowed (read-only)", "Read", { path: "README.md" }, "allow"],
    ["ask fallback: List stays allowed", "List", { path: "src" }, "allow"],
    ["ask fallback: Glob stays allowed", "Glob", { pattern: "**/*.ts" }, "allow"],
    ["ask fallback: Grep stays allowed", "Grep", { pattern: "foo" }, "allow"],
    ["ask fallback: TaskList stays allowed", "TaskList", {}, "allow"],
    ["ask fallback: Write asks", "Write", { path: "docs/f-{n}.md", content: "x" }, "ask"],
    ["ask fallback: Delete asks", "Delete", { path: "build/out.js" }, "ask"],
    ["ask fallback: Bash asks", "Bash", { command: "touch f-{n}" }, "ask"],
    ["ask fallback: TaskCreate asks", "TaskCreate", task, "ask"],
    ["ask fallback: ManagedProcess asks", "ManagedProcess", { action: "start", command: "touch f-{n}" }, "ask"],
  ]),
  ...callRows({ permissions: {}, approval: { defaultDecision: "deny" } }, [
    ["deny fallback: Write denied", "Write", { path: "docs/f-{n}.md", content: "x" }, "deny"],
    ["deny fallback: Read stays allowed", "Read", { path: "README.md" }, "allow"],
  ]),
  ...callRows({ permissions: { allow: ["Bash(echo *)"] }, approval: { policies: { Bash: "ask", TaskCreate: "ask" } } }, [
    ["a rule allows before an approval policy asks", "Bash", { command: "echo ruled" }, "allow", "Bash(echo *)"],
    ["the approval policy asks where no rule matches", "Bash", { command: "touch f-{n}" }, "ask"],
    ["an approval policy on a tool no rule names", "TaskCreate", task, "ask"],
    ["a tool neither names follows the default", "Write", { path: "docs/f-{n}.md", content: "x" }, "allow"],
  ]),
  ...callRows({ permissions: { allow: ["ManagedProcess(echo *)"], deny: ["ManagedProcess(rm *)"] }, approval: ASK_FALLBACK }, [
    ["ManagedProcess start matched by its command", "ManagedProcess", { action: "start", command: "echo started" }, "allow", "ManagedProcess(echo *)"],
    ["ManagedProcess start denied by its command", "ManagedProcess", { action: "start", command: "rm -rf build" }, "deny", "ManagedProcess(rm *)"],
    ["ManagedProcess start of a compound command", "ManagedProcess", { action: "start", command: "echo a && touch f-{n}" }, "ask"],
    ["a Bash command rule does not cover ManagedProcess", "Bash", { command: "echo not-managed" }, "ask"],
  ]),
  ...callRows({ permissions: { deny: ["Bash(rm *)"] }, approval: {} }, [
    ["a Bash rule does not cover ManagedProcess", "ManagedProcess", { action: "start", command: "rm -f f-{n}" }, "allow"],
  ]),
  ...callRows({ permissions: { allow: ["TaskCreate"], deny: ["TaskUpdate"] }, approval: ASK_FALLBACK }, [
    ["a bare rule on a tool without specifiers allows it", "TaskCreate", task, "allow", "TaskCreate"],
    ["a bare rule on a tool without specifiers denies it", "TaskUpdate", { taskId: "1", status: "completed" }, "deny", "TaskUpdate"],
  ]),
];

/** Fallback and plain-tool rows. */
export const fallbackCases: CaseGroup = { group: "fallbacks and plain tools", cases: fallbackRows };
