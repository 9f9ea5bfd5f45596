import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ShellParser, loadShellParser } from "../shell/shell-parser.js";
import { type TestWorkspace, compileTest, createTestWorkspace, decideCall } from "./__fixtures__/rule-fixtures.js";
import type { LayeredPermissionSettings, PermissionSettings } from "./permission-settings.js";

let shell: ShellParser;
let workspace: TestWorkspace;
beforeAll(async () => {
  shell = await loadShellParser();
  workspace = createTestWorkspace();
});
afterAll(() => {
  shell.close();
  workspace.remove();
});

type Settings = PermissionSettings | LayeredPermissionSettings;
const decide = (settings: Settings, tool: string, input: Record<string, unknown>, approval?: Parameters<TestWorkspace["environment"]>[0]) =>
  decideCall(compileTest(settings, shell), workspace.environment(approval), { tool, input });
const bash = (settings: Settings, command: string) => decide(settings, "Bash", { command });

const GIT = {
  allow: ["Bash(git status)", "Bash(git diff *)", "Bash(npm run test:*)", "Bash(ls *)", "Bash(echo *)"],
  deny: ["Bash(rm -rf *)"],
  ask: ["Bash(git push *)"],
};

describe("Bash rules over the parsed command line", () => {
  const cases: [string, string, "allow" | "ask" | "deny", string | undefined][] = [
    ["an exact allow", "git status", "allow", "Bash(git status)"],
    ["an exact allow does not take extra words", "git status --short", "ask", undefined],
    ["a trailing * also matches the bare command", "ls", "allow", "Bash(ls *)"],
    ["a trailing * matches any words", "ls -la src", "allow", "Bash(ls *)"],
    ["legacy :* on a word boundary", "npm run test", "allow", "Bash(npm run test:*)"],
    ["legacy :* with more words", "npm run test --watch", "allow", "Bash(npm run test:*)"],
    ["legacy :* is not a string prefix", "npm run testing", "ask", undefined],
    ["a deny with a dynamic word", "rm -rf $DIR", "deny", "Bash(rm -rf *)"],
    ["a deny anywhere in a pipeline", "ls | rm -rf build", "deny", "Bash(rm -rf *)"],
    ["a deny after &&", "git status && rm -rf /", "deny", "Bash(rm -rf *)"],
    ["a deny after ;", "echo hi; rm -rf build", "deny", "Bash(rm -rf *)"],
    ["a deny in a subshell", "(cd x && rm -rf y)", "deny", "Bash(rm -rf *)"],
    ["a deny in $(...)", "echo $(rm -rf build)", "deny", "Bash(rm -rf *)"],
    ["a deny in backticks", "echo `rm -rf build`", "deny", "Bash(rm -rf *)"],
    ["a deny under sudo", "sudo rm -rf /", "deny", "Bash(rm -rf *)"],
    ["a deny under xargs", "ls | xargs rm -rf", "deny", "Bash(rm -rf *)"],
    ["a deny under env", "env FOO=1 rm -rf x", "deny", "Bash(rm -rf *)"],
    ["a deny under timeout", "timeout 5 rm -rf x", "deny", "Bash(rm -rf *)"],
    ["a deny inside sh -c", "sh -c 'rm -rf build'", "deny", "Bash(rm -rf *)"],
    ["a deny inside bash -c", 'bash -c "ls && rm -rf build"', "deny", "Bash(rm -rf *)"],
    ["a deny inside eval", "eval rm -rf build", "deny", "Bash(rm -rf *)"],
    ["a deny in an if body", "if true; then rm -rf x; fi", "deny", "Bash(rm -rf *)"],
    ["a deny in a for body", "for f in a b; do rm -rf $f; done", "deny", "Bash(rm -rf *)"],
    ["a deny in a function body", "f() { rm -rf x; }; f", "deny", "Bash(rm -rf *)"],
    ["quote removal before matching a deny", "'rm' -rf \"build\"", "deny", "Bash(rm -rf *)"],
    ["an ask in a chain", "git status && git push origin main", "ask", "Bash(git push *)"],
    ["deny beats ask across parts", "git push origin && rm -rf x", "deny", "Bash(rm -rf *)"],
    ["every part allowed", "git status && ls src | echo done", "allow", "Bash(git status), Bash(ls *), Bash(echo *)"],
    ["cd dir && cmd: cd is a part no rule allows", "cd src && git status", "ask", undefined],
    ["one part not allowed", "git status && make", "ask", undefined],
    ["sudo git status is not git status", "sudo git status", "ask", undefined],
    ["an unsafe assignment is never allowed by a rule", "PATH=/tmp git status", "ask", undefined],
    ["a safe assignment is stripped", "NODE_ENV=test git status", "allow", "Bash(git status)"],
    ["output to a file is never allowed by a rule", "echo hi > out.txt", "ask", undefined],
    ["output to /dev/null is", "git status > /dev/null", "allow", "Bash(git status)"],
    ["a dynamic word matches only * in an allow", "git diff $REF", "allow", "Bash(git diff *)"],
    ["a dynamic command name may expand to anything a deny names", "$CMD status", "deny", "Bash(rm -rf *)"],
    ["a dynamic command name may be anything a deny names", "$CMD -rf build", "deny", "Bash(rm -rf *)"],
    ["a quoted star in the line is a literal word", 'ls "*"', "allow", "Bash(ls *)"],
    ["a heredoc body is data", "echo <<EOF\nrm -rf x\nEOF", "allow", "Bash(echo *)"],
    ["a heredoc fed to a shell is not allowable", "bash <<EOF\ngit status\nEOF", "ask", undefined],
    ["an unparsable line is never allowed by a rule", "git status && (", "ask", undefined],
    ["an unparsable line still hits a deny it can read", "rm -rf x && (", "deny", "Bash(rm -rf *)"],
  ];
  // Calls no rule decides fall to the registry's approval options: here Bash asks by default.
  test.each(cases)("%s: %s", (_name, command, decision, rule) => {
    const verdict = decide(GIT, "Bash", { command }, { approval: { defaultDecision: "ask" } });
    expect(verdict.decision).toBe(decision);
    if (rule !== undefined) expect(verdict.rule).toBe(rule);
    else expect(verdict.layer).toBe("approval");
  });

  test("a dynamic command name is never allowed by a rule", () => {
    expect(decide({ allow: ["Bash(ls *)", "Bash(* -la)"] }, "Bash", { command: "$CMD -la" }, { approval: { defaultDecision: "ask" } })).toMatchObject({
      decision: "ask",
      layer: "approval",
    });
  });

  test("without approval options, a Bash call no rule decides asks (Claude Code's default mode; layer default)", () => {
    expect(bash(GIT, "make")).toMatchObject({ decision: "ask", layer: "default" });
    // One part allowed is not enough: the other part asks.
    expect(bash(GIT, "git status && make")).toMatchObject({ decision: "ask", layer: "default" });
  });

  test("the deny reason names the rule, the layer and the command", () => {
    expect(bash(GIT, "ls && rm -rf build").reason).toBe(
      'Bash is denied by the rule "Bash(rm -rf *)" (project settings) for the command "rm -rf build". Do not retry it; do the task another way or ask the user.',
    );
  });

  test("an unparsable line asks even when the approval fallback allows Bash", () => {
    const verdict = decide({}, "Bash", { command: "echo 'open" }, { approval: { policies: { Bash: "allow" } } });
    expect(verdict.decision).toBe("ask");
    expect(verdict.reason).toMatch(/could not be parsed/);
  });

  test("a bare Bash rule matches every call, an unparsable one included", () => {
    expect(bash({ allow: ["Bash"] }, "echo 'open").decision).toBe("allow");
    expect(bash({ deny: ["Bash"] }, "ls").decision).toBe("deny");
  });

  test("ManagedProcess: command patterns apply to start only", () => {
    const settings = { deny: ["ManagedProcess(npm run dev *)"], allow: ["ManagedProcess(npm start)"] };
    expect(decide(settings, "ManagedProcess", { action: "start", command: "npm run dev --port 3000" }).decision).toBe("deny");
    expect(decide(settings, "ManagedProcess", { action: "start", command: "npm start" }).decision).toBe("allow");
    expect(decide(settings, "ManagedProcess", { action: "status" }, { approval: { defaultDecision: "ask" } })).toMatchObject({
      decision: "ask",
      layer: "approval",
    });
  });
});

describe("layers", () => {
  test("a managed deny beats a project allow", () => {
    expect(bash({ managed: { deny: ["Bash(curl *)"] }, project: { allow: ["Bash(curl *)"] } }, "curl x")).toMatchObject({ decision: "deny", layer: "managed" });
  });
  test("a project deny beats a managed allow", () => {
    expect(bash({ managed: { allow: ["Bash"] }, project: { deny: ["Bash(curl *)"] } }, "curl x")).toMatchObject({ decision: "deny", layer: "project" });
  });
  test("a project ask beats a managed allow", () => {
    expect(bash({ managed: { allow: ["Bash(git *)"] }, project: { ask: ["Bash(git push *)"] } }, "git push")).toMatchObject({
      decision: "ask",
      layer: "project",
    });
  });
  test("among rules of one list, managed comes before user and project", () => {
    const verdict = bash({ managed: { deny: ["Bash(curl *)"] }, user: { deny: ["Bash(curl x)"] }, project: { deny: ["Bash"] } }, "curl x");
    expect(verdict).toMatchObject({ rule: "Bash(curl *)", layer: "managed" });
  });
  test("the user layer's allow applies when nothing denies or asks", () => {
    expect(bash({ user: { allow: ["Bash(make)"] } }, "make")).toMatchObject({ decision: "allow", layer: "user", rule: "Bash(make)" });
  });
});

describe("names", () => {
  test("MCP globs, server: and group: rules", () => {
    expect(decide({ deny: ["mcp_github_*"] }, "mcp_github_create_issue", {})).toMatchObject({ decision: "deny", rule: "mcp_github_*" });
    expect(decide({ ask: ["server:github"] }, "mcp_github_list_issues", {})).toMatchObject({ decision: "ask", rule: "server:github" });
    expect(decide({ deny: ["group:shell"] }, "ProcessStop", {})).toMatchObject({ decision: "deny", rule: "group:shell" });
    expect(decide({ allow: ["mcp_slack_post"] }, "mcp_slack_post", {})).toMatchObject({ decision: "allow", rule: "mcp_slack_post" });
  });
  test("a Read rule covers Grep, Glob, List and Image; an Edit rule covers Write and Delete", () => {
    for (const tool of ["Read", "Grep", "Glob", "List", "Image"]) expect(decide({ deny: ["Read"] }, tool, { path: "a.txt" }).decision).toBe("deny");
    for (const tool of ["Write", "Edit", "Delete"]) expect(decide({ deny: ["Edit"] }, tool, { path: "a.txt" }).decision).toBe("deny");
    expect(decide({ deny: ["Grep"] }, "Read", { path: "a.txt" }).decision).toBe("allow");
    expect(decide({ deny: ["Edit"] }, "Read", { path: "a.txt" }).decision).toBe("allow");
  });
});

describe("modes", () => {
  test("default: the approval fallback (read-only tools allowed, others per defaultDecision)", () => {
    expect(decide({}, "Read", { path: "a" }, { approval: { defaultDecision: "deny" } })).toMatchObject({ decision: "allow", layer: "approval" });
    expect(decide({}, "Write", { path: "a" }, { approval: { defaultDecision: "deny" } })).toMatchObject({ decision: "deny", layer: "approval" });
    // No approval setting names Write: a tool that changes files asks; bookkeeping tools are allowed.
    expect(decide({}, "Write", { path: "a" })).toMatchObject({ decision: "ask", layer: "default" });
    expect(decide({}, "Write", { path: "a" }, { approval: { defaultDecision: "allow" } })).toMatchObject({ decision: "allow", layer: "approval" });
    expect(decide({}, "Write", { path: "a" }, { approval: { policies: { Write: "allow" } } })).toMatchObject({ decision: "allow", layer: "approval" });
  });
  test("acceptEdits allows file changes inside the workspace roots only", () => {
    const settings: Settings = { defaultMode: "acceptEdits" };
    const approval = { approval: { defaultDecision: "ask" as const } };
    expect(decide(settings, "Write", { path: "src/a.ts" }, approval)).toMatchObject({ decision: "allow", layer: "mode" });
    expect(decide(settings, "Edit", { path: "root://extra/a.ts" }, approval)).toMatchObject({ decision: "allow", layer: "mode" });
    expect(decide(settings, "Write", { path: `${workspace.home}/a.ts` }, approval)).toMatchObject({ decision: "ask", layer: "approval" });
    expect(decide(settings, "Bash", { command: "touch a" }, approval)).toMatchObject({ decision: "ask", layer: "approval" });
    expect(decide({ ...settings, ask: ["Edit(src/**)"] }, "Write", { path: "src/a.ts" }, approval)).toMatchObject({ decision: "ask", rule: "Edit(src/**)" });
  });
  test("plan denies tools that change state, even when a rule allows them", () => {
    const settings: Settings = { defaultMode: "plan", allow: ["Write", "Bash(git status)"] };
    expect(decide(settings, "Write", { path: "a" })).toMatchObject({ decision: "deny", layer: "mode" });
    expect(decide(settings, "Bash", { command: "git status" }).reason).toMatch(/plan mode/);
    expect(decide(settings, "Read", { path: "a" }).decision).toBe("allow");
    expect(decide(settings, "AskUser", {}).decision).toBe("allow");
  });
  test("dontAsk denies what would ask (a rule's ask or the fallback's)", () => {
    const verdict = decide({ defaultMode: "dontAsk", ask: ["Bash(git push *)"] }, "Bash", { command: "git push" });
    expect(verdict).toMatchObject({ decision: "deny", rule: "Bash(git push *)" });
    expect(verdict.reason).toMatch(/dontAsk mode/);
    expect(decide({ defaultMode: "dontAsk" }, "Write", { path: "a" }, { approval: { defaultDecision: "ask" } }).decision).toBe("deny");
    expect(decide({ defaultMode: "dontAsk", allow: ["Write"] }, "Write", { path: "a" }).decision).toBe("allow");
  });
  test("bypassPermissions allows what no rule denies, but asks for .git and the data directory", () => {
    const settings: Settings = { defaultMode: "bypassPermissions", deny: ["Bash(curl *)"], ask: ["Write"] };
    expect(decide(settings, "Write", { path: "src/a.ts" })).toMatchObject({ decision: "allow", layer: "mode" });
    expect(decide(settings, "Bash", { command: "make deploy" }).decision).toBe("allow");
    expect(decide(settings, "Bash", { command: "curl x" }).decision).toBe("deny");
    expect(decide(settings, "Write", { path: ".git/config" })).toMatchObject({ decision: "ask", layer: "mode" });
    expect(decide(settings, "Edit", { path: "sub/.git/hooks/pre-commit" }).decision).toBe("ask");
    expect(decide(settings, "Delete", { path: ".agent-data/state.json" }).reason).toMatch(/data directory/);
    expect(decide(settings, "Bash", { command: "echo x > .git/hooks/post-checkout" }).decision).toBe("ask");
    expect(decide(settings, "Bash", { command: `rm ${workspace.dataDir}/x` }).decision).toBe("ask");
    expect(decide(settings, "Bash", { command: "echo 'open" }).decision).toBe("ask");
    expect(decide(settings, "Read", { path: ".git/config" }).decision).toBe("allow");
  });
});
