/**
 * Modes (`defaultMode`): acceptEdits (file changes inside the workspace roots
 * allowed), plan (tools that are not read-only denied), dontAsk (every ask
 * denied), bypassPermissions (all but deny rules allowed, except writes into
 * a `.git` folder or the dataDir, and Bash parts naming them, which ask);
 * the mode of the first layer that gives one.
 */
import { bashRows, callRows } from "./case-builders.js";
import { ALLOW_FALLBACK, ASK_FALLBACK, type CaseGroup } from "./case-types.js";

const write = (path: string) => ({ path, content: "x" });
const edited = (name: string) => ({ files: { [name]: "hello\n" } });
const mode = { layer: "mode" } as const;

const acceptEdits = callRows({ permissions: { defaultMode: "acceptEdits", deny: ["Edit(.env)"], ask: ["Edit(docs/private/**)"] }, approval: ASK_FALLBACK }, [
  ["acceptEdits allows Write in the workdir", "Write", write("src/ae-{n}.ts"), "allow", undefined, mode],
  [
    "acceptEdits allows Edit in the workdir",
    "Edit",
    { path: "docs/ae-{n}.md", old_string: "hello", new_string: "bye" },
    "allow",
    undefined,
    { ...mode, setup: edited("docs/ae-{n}.md") },
  ],
  ["acceptEdits allows Delete in the workdir", "Delete", { path: "docs/ad-{n}.md" }, "allow", undefined, { ...mode, setup: edited("docs/ad-{n}.md") }],
  ["acceptEdits does not allow a write outside the roots", "Write", write("{out}/ae-{n}.txt"), "ask"],
  ["acceptEdits does not allow Bash", "Bash", { command: "touch ae-{n}" }, "ask"],
  ["acceptEdits does not allow other tools", "TaskCreate", { subject: "s", description: "d", activeForm: "doing s" }, "ask"],
  ["acceptEdits: a deny rule still denies", "Write", write(".env"), "deny", "Edit(.env)"],
  ["acceptEdits: an ask rule still asks", "Write", write("docs/private/ae-{n}.md"), "ask", "Edit(docs/private/**)"],
  ["acceptEdits: reads stay allowed", "Read", { path: "README.md" }, "allow"],
]);

const plan = callRows({ permissions: { defaultMode: "plan", deny: ["Read(/.env)"] }, approval: ALLOW_FALLBACK }, [
  ["plan denies Write", "Write", write("src/plan-{n}.ts"), "deny", undefined, mode],
  ["plan denies Edit", "Edit", { path: "README.md", old_string: "foo", new_string: "bar" }, "deny", undefined, mode],
  ["plan denies Delete", "Delete", { path: "build/out.js" }, "deny", undefined, mode],
  ["plan denies Bash", "Bash", { command: "touch plan-{n}" }, "deny", undefined, mode],
  ["plan denies TaskCreate", "TaskCreate", { subject: "s", description: "d", activeForm: "doing s" }, "deny", undefined, mode],
  ["plan allows Read", "Read", { path: "README.md" }, "allow"],
  ["plan allows Grep", "Grep", { pattern: "foo", path: "src" }, "allow"],
  ["plan allows TaskList", "TaskList", {}, "allow"],
  ["plan: a deny rule still names the rule", "Read", { path: ".env" }, "deny", "Read(/.env)"],
]);

const dontAsk = [
  ...bashRows({ permissions: { defaultMode: "dontAsk", allow: ["Bash(echo *)"], ask: ["Bash(git push *)"] }, approval: ASK_FALLBACK }, [
    ["dontAsk turns an ask rule into deny", "git push origin main", "deny"],
    ["dontAsk turns the ask fallback into deny", "touch da-{n}", "deny"],
    ["dontAsk turns an unparsable line into deny", 'echo "open', "deny"],
    ["dontAsk keeps an allow rule", "echo hi", "allow", "Bash(echo *)"],
  ]),
  ...callRows({ permissions: { defaultMode: "dontAsk" }, approval: ALLOW_FALLBACK }, [
    ["dontAsk keeps read-only tools allowed", "Read", { path: "README.md" }, "allow"],
    ["dontAsk keeps an allow fallback", "Write", write("docs/da-{n}.md"), "allow"],
  ]),
  ...callRows({ permissions: { defaultMode: "dontAsk" }, approval: {} }, [
    ["dontAsk denies what the default would ask", "Write", write("docs/da-{n}.md"), "deny"],
    ["dontAsk keeps bookkeeping tools allowed", "TaskList", {}, "allow"],
  ]),
];

const bypass = [
  ...bashRows({ permissions: { defaultMode: "bypassPermissions", deny: ["Bash(rm *)"], ask: ["Bash(git push *)"] }, approval: ASK_FALLBACK }, [
    ["bypass allows what the fallback would ask", "echo bypass", "allow"],
    ["bypass: a deny rule still denies", "rm -rf build", "deny", "Bash(rm *)"],
    [
      "bypass allows past an ask rule",
      "git push origin main",
      "allow",
      undefined,
      { open: "bypassPermissions over an ask rule (design: all but deny rules allowed)" },
    ],
    ["bypass: a Bash part naming .git asks", "echo x > .git/HEAD", "ask"],
    ["bypass: a Bash part writing under .git asks", "touch .git/hooks-{n}", "ask"],
    ["bypass: a Bash part naming the dataDir asks", "touch {data}/bp-{n}", "ask"],
    ["bypass: a .gitignore is not a .git folder", "cat .gitignore", "allow"],
    ["bypass: a glob that could expand to .git asks", "touch .gi?/bp-{n}", "ask"],
    ["bypass: cd into .git asks", "cd .git && touch bp-{n}", "ask"],
  ]),
  ...callRows({ permissions: { defaultMode: "bypassPermissions" }, approval: ASK_FALLBACK }, [
    ["bypass allows Write in the workdir", "Write", write("src/bp-{n}.ts"), "allow"],
    ["bypass: Write into .git asks", "Write", write(".git/bp-{n}"), "ask"],
    ["bypass: Edit in .git asks", "Edit", { path: ".git/config", old_string: "core", new_string: "x" }, "ask"],
    ["bypass: Delete in .git asks", "Delete", { path: ".git/config" }, "ask"],
    ["bypass: Write into a nested .git folder asks", "Write", write("src/.git/bp-{n}"), "ask"],
    ["bypass: Write into the dataDir asks", "Write", write("{data}/bp-{n}.txt"), "ask"],
    ["bypass: reading .git is allowed", "Read", { path: ".git/config" }, "allow"],
    ["bypass: Write of .gitignore is allowed", "Write", write(".gitignore"), "allow"],
    ["bypass allows TaskCreate", "TaskCreate", { subject: "s", description: "d", activeForm: "doing s" }, "allow"],
  ]),
];

const layeredModes = callRows({ permissions: { managed: { defaultMode: "plan" }, project: { defaultMode: "bypassPermissions" } }, approval: ALLOW_FALLBACK }, [
  ["the managed mode wins over the project's", "Write", write("src/lm-{n}.ts"), "deny", undefined, mode],
]).concat(
  callRows({ permissions: { user: { defaultMode: "acceptEdits" }, project: { defaultMode: "plan" } }, approval: ASK_FALLBACK }, [
    ["the user mode wins over the project's", "Write", write("src/lu-{n}.ts"), "allow", undefined, mode],
  ]),
  callRows({ permissions: { project: { defaultMode: "dontAsk" } }, approval: ASK_FALLBACK }, [
    ["a project mode applies when no other layer gives one", "Write", write("src/lp-{n}.ts"), "deny"],
  ]),
);

/** Mode rows. */
export const modeCases: CaseGroup = { group: "modes", cases: [...acceptEdits, ...plan, ...dontAsk, ...bypass, ...layeredModes] };
