/**
 * Tools no rule names: the approval options settle them when they name the
 * tool or set `defaultDecision`; otherwise read-only and bookkeeping tools
 * (tasks) are allowed and every tool reaching outside the conversation
 * asks (docs/policy.md, "Rules"). Rules with a specifier of ManagedProcess
 * (the `start` command).
 */
import { callRows } from "./case-builders.js";
import { ASK_FALLBACK, type CaseGroup } from "./case-types.js";

const task = { subject: "s", description: "d", activeForm: "doing s" };

const fallbackRows = [
  // With permissions and no approval default, a call no rule matches asks when its tool reaches outside the conversation.
  ...callRows({ permissions: {}, approval: {} }, [
    ["no rules, no approval default: Read allowed (read-only)", "Read", { path: "README.md" }, "allow"],
    ["no rules, no approval default: Grep allowed (read-only)", "Grep", { pattern: "foo", path: "src" }, "allow"],
    ["no rules, no approval default: Bash asks", "Bash", { command: "touch f-{n}" }, "ask"],
    ["no rules, no approval default: ManagedProcess asks", "ManagedProcess", { action: "start", command: "touch f-{n}" }, "ask"],
    ["no rules, no approval default: Write asks", "Write", { path: "docs/f-{n}.md", content: "x" }, "ask"],
    [
      "no rules, no approval default: Edit asks",
      "Edit",
      { path: "docs/f-{n}.md", old_string: "hello", new_string: "bye" },
      "ask",
      undefined,
      { setup: { files: { "docs/f-{n}.md": "hello\n" } } },
    ],
    ["no rules, no approval default: Delete asks", "Delete", { path: "build/out.js" }, "ask"],
    ["no rules, no approval default: TaskCreate allowed (bookkeeping)", "TaskCreate", task, "allow"],
    ["no rules, no approval default: TaskList allowed", "TaskList", {}, "allow"],
  ]),
  ...callRows({ permissions: {}, approval: { defaultDecision: "allow" } }, [
    ["approval's defaultDecision allow settles Bash", "Bash", { command: "echo default" }, "allow"],
    ["approval's defaultDecision allow settles Write", "Write", { path: "docs/f-{n}.md", content: "x" }, "allow"],
  ]),
  ...callRows({ permissions: {}, approval: { policies: { Bash: "allow" } } }, [
    ["an approval policy naming the tool settles it", "Bash", { command: "echo named" }, "allow"],
    ["a tool the approval policies do not name still asks", "Write", { path: "docs/f-{n}.md", content: "x" }, "ask"],
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
    ["a tool neither names asks (no approval default)", "Write", { path: "docs/f-{n}.md", content: "x" }, "ask"],
  ]),
  ...callRows({ permissions: { allow: ["ManagedProcess(echo *)"], deny: ["ManagedProcess(rm *)"] }, approval: ASK_FALLBACK }, [
    ["ManagedProcess start matched by its command", "ManagedProcess", { action: "start", command: "echo started" }, "allow", "ManagedProcess(echo *)"],
    ["ManagedProcess start denied by its command", "ManagedProcess", { action: "start", command: "rm -rf build" }, "deny", "ManagedProcess(rm *)"],
    ["ManagedProcess start of a compound command", "ManagedProcess", { action: "start", command: "echo a && touch f-{n}" }, "ask"],
    ["a Bash command rule does not cover ManagedProcess", "Bash", { command: "echo not-managed" }, "ask"],
  ]),
  ...callRows({ permissions: { deny: ["Bash(rm *)"] }, approval: { defaultDecision: "allow" } }, [
    // Bash deny rules cover every tool that runs a command line: a denied command cannot be started as a managed process instead.
    ["a Bash deny rule covers ManagedProcess start", "ManagedProcess", { action: "start", command: "rm -f f-{n}" }, "deny", "Bash(rm *)"],
  ]),
  ...callRows({ permissions: { allow: ["TaskCreate"], deny: ["TaskUpdate"] }, approval: ASK_FALLBACK }, [
    ["a bare rule on a tool without specifiers allows it", "TaskCreate", task, "allow", "TaskCreate"],
    ["a bare rule on a tool without specifiers denies it", "TaskUpdate", { taskId: "1", status: "completed" }, "deny", "TaskUpdate"],
  ]),
];

/** Fallback and plain-tool rows. */
export const fallbackCases: CaseGroup = { group: "fallbacks and plain tools", cases: fallbackRows };
