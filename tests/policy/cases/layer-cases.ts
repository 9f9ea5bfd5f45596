/**
 * Layers: deny -> ask -> allow across ALL layers (managed, user, project in
 * that order inside each step), first match wins: a managed deny cannot be
 * overridden by a user or project allow, and an ask anywhere beats an allow
 * anywhere.
 */
import { bashRows, callRows } from "./case-builders.js";
import { ALLOW_FALLBACK, ASK_FALLBACK, type CaseGroup } from "./case-types.js";

const managed = { layer: "managed" } as const;
const user = { layer: "user" } as const;
const project = { layer: "project" } as const;

const layerRows = [
  ...bashRows({ permissions: { managed: { deny: ["Bash(rm *)"] }, project: { allow: ["Bash(rm -rf build)"] } }, approval: ASK_FALLBACK }, [
    ["a managed deny beats a project allow", "rm -rf build", "deny", "Bash(rm *)", managed],
  ]),
  ...bashRows({ permissions: { managed: { deny: ["Bash(rm *)"] }, user: { allow: ["Bash(rm *)"] } }, approval: ASK_FALLBACK }, [
    ["a managed deny beats a user allow of the same pattern", "rm -f x-{n}", "deny", "Bash(rm *)", managed],
  ]),
  ...bashRows({ permissions: { managed: { deny: ["Bash(curl *)"] }, project: { allow: ["Bash"] } }, approval: ASK_FALLBACK }, [
    ["a managed deny beats a project allow of the whole tool", "curl http://127.0.0.1:9/", "deny", "Bash(curl *)", managed],
    ["the project allow of the whole tool applies elsewhere", "echo fine", "allow", "Bash", project],
  ]),
  ...bashRows({ permissions: { user: { ask: ["Bash(git push *)"] }, project: { allow: ["Bash(git push *)"] } }, approval: ASK_FALLBACK }, [
    ["a user ask beats a project allow", "git push origin main", "ask", "Bash(git push *)", user],
  ]),
  ...bashRows({ permissions: { managed: { allow: ["Bash(echo *)"] }, project: { ask: ["Bash(echo secret *)"] } }, approval: ASK_FALLBACK }, [
    ["a project ask beats a managed allow", "echo secret x", "ask", "Bash(echo secret *)", project],
    ["the managed allow applies where no ask matches", "echo public", "allow", "Bash(echo *)", managed],
  ]),
  ...bashRows({ permissions: { user: { allow: ["Bash(echo *)"] }, project: { deny: ["Bash(echo secret)"] } }, approval: ASK_FALLBACK }, [
    ["a project deny beats a user allow", "echo secret", "deny", "Bash(echo secret)", project],
  ]),
  ...bashRows({ permissions: { managed: { ask: ["Bash(git *)"] }, project: { deny: ["Bash(git push *)"] } }, approval: ASK_FALLBACK }, [
    ["a project deny beats a managed ask", "git push", "deny", "Bash(git push *)", project],
    ["the managed ask applies where no deny matches", "git status", "ask", "Bash(git *)", managed],
  ]),
  ...bashRows(
    { permissions: { managed: { allow: ["Bash(echo *)"] }, user: { allow: ["Bash(echo *)"] }, project: { allow: ["Bash(echo hi)"] } }, approval: ASK_FALLBACK },
    [["equal allows: the managed layer is named first", "echo hi", "allow", "Bash(echo *)", managed]],
  ),
  ...bashRows({ permissions: { user: { allow: ["Bash(ls *)"] }, project: { allow: ["Bash(ls -la)"] } }, approval: ASK_FALLBACK }, [
    ["a user allow before a project allow", "ls -la", "allow", "Bash(ls *)", user],
  ]),
  ...bashRows({ permissions: { project: { allow: ["Bash(ls *)"] } }, approval: ASK_FALLBACK }, [
    ["a project allow alone", "ls", "allow", "Bash(ls *)", project],
  ]),
  ...bashRows({ permissions: { managed: {}, user: {}, project: {} }, approval: ASK_FALLBACK }, [["empty layers: the fallback decides", "touch l-{n}", "ask"]]),
  ...bashRows({ permissions: { managed: { deny: ["Bash(rm -rf *)"] }, project: { allow: ["Bash(echo *)", "Bash(rm *)"] } }, approval: ASK_FALLBACK }, [
    ["a managed deny of one part beats project allows of every part", "echo a && rm -rf build", "deny", "Bash(rm -rf *)", managed],
  ]),
  ...bashRows(
    { permissions: { managed: { allow: ["Bash(echo *)"] }, user: { allow: ["Bash(ls *)"] }, project: { allow: ["Bash(head *)"] } }, approval: ASK_FALLBACK },
    [
      ["parts allowed by different layers", "echo a | head -1 && ls", "allow"],
      ["parts allowed by different layers, one part by none", "echo a | head -1 && touch l-{n}", "ask"],
    ],
  ),
  ...callRows({ permissions: { managed: { deny: ["Read(.env)"] }, project: { allow: ["Read(.env)"] } }, approval: ALLOW_FALLBACK }, [
    ["a managed Read deny beats a project Read allow", "Read", { path: "config/.env" }, "deny", "Read(.env)", managed],
  ]),
  ...callRows({ permissions: { managed: { deny: ["Edit(src/**)"] }, user: { allow: ["Write(src/**)"] } }, approval: ALLOW_FALLBACK }, [
    ["a managed Edit deny beats a user Write allow", "Write", { path: "src/l-{n}.ts", content: "x" }, "deny", "Edit(src/**)", managed],
  ]),
  ...callRows({ permissions: { user: { ask: ["Edit(docs/**)"] }, project: { allow: ["Edit(**)"] } }, approval: ALLOW_FALLBACK }, [
    ["a user Edit ask beats a project Edit allow", "Write", { path: "docs/l-{n}.md", content: "x" }, "ask", "Edit(docs/**)", user],
    ["the project Edit allow applies elsewhere", "Write", { path: "src/l-{n}.ts", content: "x" }, "allow", "Edit(**)", project],
  ]),
];

/** Layer precedence rows. */
export const layerCases: CaseGroup = { group: "layers", cases: layerRows };
