import { SdkError } from "@agent-tools/core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ShellParser, loadShellParser } from "../shell/shell-parser.js";
import { compileTest, testVocabulary } from "./__fixtures__/rule-fixtures.js";
import { checkLateToolNames, compilePermissions } from "./compile-permissions.js";
import { checkPermissionSettings } from "./permission-settings.js";

let shell: ShellParser;
beforeAll(async () => {
  shell = await loadShellParser();
});
afterAll(() => shell.close());

function errorOf(run: () => unknown): SdkError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).code).toBe("invalid_options");
    return error as SdkError;
  }
  throw new SdkError("invalid_options", "expected an SdkError, nothing was thrown");
}

describe("checkPermissionSettings", () => {
  const cases: [string, unknown, RegExp, string | undefined][] = [
    ["not an object", "allow", /permissions must be an object/, undefined],
    ["an array", [], /permissions must be an object/, undefined],
    ["a misspelt list", { alow: ["Bash"] }, /unknown key "alow"; did you mean `allow`/, "allow"],
    ["a wrongly cased key", { Deny: ["Bash"] }, /unknown key "Deny"; did you mean `deny`/, "deny"],
    ["a misspelt mode key", { defaultmode: "plan" }, /did you mean `defaultMode`/, "defaultMode"],
    ["additionalDirectories", { additionalDirectories: ["/tmp"] }, /additionalRoots/, "additionalRoots"],
    ["a list that is a string", { allow: "Bash" }, /permissions\.allow must be an array/, undefined],
    ["a rule that is not a string", { deny: ["Read", 3] }, /permissions\.deny\[1\] is 3; every rule must be a string/, undefined],
    ["an invalid mode", { defaultMode: "acceptedits" }, /did you mean "acceptEdits"/, "acceptEdits"],
    ["a mode of the wrong type", { defaultMode: true }, /defaultMode is true/, undefined],
    ["a wrong disable value", { disableBypassPermissionsMode: true }, /the only value is "disable"/, undefined],
    ["an unknown layer", { managed: {}, projects: {} }, /unknown key "projects"; did you mean `project`/, "project"],
    ["a layer that is not an object", { managed: [] }, /permissions\.managed must be an object/, undefined],
    ["layers mixed with settings", { managed: { deny: ["Bash"] }, allow: ["Read"] }, /mixes a layer \(`managed`\) with settings \(`allow`\)/, undefined],
    ["a key inside a layer", { user: { asks: [] } }, /permissions\.user has an unknown key "asks"; did you mean `ask`/, "ask"],
  ];
  test.each(cases)("refuses %s", (_name, given, message, suggestion) => {
    const error = errorOf(() => checkPermissionSettings(given));
    expect(error.message).toMatch(message);
    if (suggestion !== undefined) expect(error.details.suggestion).toBe(suggestion);
  });

  test("a single block is the project layer; the copy is frozen and later changes of the host's object do not reach it", () => {
    const given = { allow: ["Read"] };
    const checked = checkPermissionSettings(given);
    given.allow.push("Bash");
    expect(checked.project?.allow).toEqual(["Read"]);
    expect(Object.isFrozen(checked.project?.allow)).toBe(true);
  });
});

describe("compilePermissions validation (fail closed)", () => {
  const cases: [string, string, RegExp][] = [
    ["a wrong case", "bash", /"bash" \(permissions\.project\.allow\[0\]\) names no tool of this registry: `bash`\. Did you mean `Bash`\?/],
    ["a misspelt tool", "Bsh(ls)", /names no tool of this registry: `Bsh`\. Did you mean `Bash`\?/],
    ["a misspelt Read", "Raed(src/**)", /Did you mean `Read`\?/],
    ["a specifier on a tool that has none", "ProcessStop(x)", /ProcessStop takes no specifier/],
    ["a specifier on an MCP tool", "mcp_github_create_issue(x)", /takes no specifier/],
    ["a specifier on server:", "server:github(x)", /takes no specifier/],
    ["an empty specifier", "Bash()", /empty specifier; write `Bash` for every call/],
    ["a blank specifier", "Read(  )", /empty specifier/],
    ["an unbalanced specifier", "Bash(echo $(date)", /unbalanced parentheses/],
    ["a missing closing parenthesis", "Bash(ls", /unbalanced parentheses/],
    ["a stray closing parenthesis", "Bash)", /`\)` without a `\(`/],
    ["text after the specifier", "Bash(ls) x", /unbalanced parentheses|space/],
    ["a space before the parenthesis", "Bash (ls)", /space in the tool name/],
    ["spaces around the rule", " Bash", /spaces around it/],
    ["an empty rule", "", /is empty/],
    ["an unknown server", "server:gitlab", /names no tool of this registry: `server:gitlab`\. Did you mean `server:github`\?/],
    ["an unknown group", "group:shel", /Did you mean `group:shell`\?/],
    ["a glob that matches nothing", "mcp_jira_*", /matches no tool of this registry and no MCP server still to load/],
    ["a glob on a non-MCP name", "Ba*", /only MCP tool names/],
    ["a Bash pattern with an open quote", "Bash(echo 'x)", /can never match/],
    ["a Bash pattern of two commands", "Bash(ls && rm x)", /can never match/],
    ["a Bash pattern starting with an assignment", "Bash(FOO=1 make)", /can never match/],
    ["a path with .. after a folder", "Read(src/../secret)", /`\.\.` segment/],
    ["a path with .. under //", "Read(//etc/../root)", /`\.\.` segment/],
    ["a path with .. under ~/", "Edit(~/../x)", /`\.\.` segment/],
    ["a path with .. under / (project root)", "Edit(/../x)", /`\.\.` segment/],
    ["a root:// without alias", "Read(root:///x)", /names no root alias/],
    ["a backslash path", "Read(src\\\\x)", /uses `\\`/],
    ["a ~user path", "Read(~bob/x)", /`~user`/],
  ];
  test.each(cases)("refuses %s: %s", (_name, rule, message) => {
    const error = errorOf(() => compileTest({ allow: [rule] }, shell));
    expect(error.message).toMatch(message);
    expect(error.message).toContain(JSON.stringify(rule));
    expect(error.details.rule).toBe(rule);
  });

  test("names the layer and list of the rule", () => {
    const error = errorOf(() => compileTest({ managed: { deny: ["Read", "Glob", "Grpe"] } }, shell));
    expect(error.message).toContain("permissions.managed.deny[2]");
    expect(error.details.suggestion).toBe("Grep");
  });

  test("bypassPermissions is refused when a layer disables it", () => {
    const error = errorOf(() => compileTest({ managed: { disableBypassPermissionsMode: "disable" }, project: { defaultMode: "bypassPermissions" } }, shell));
    expect(error.message).toMatch(/disableBypassPermissionsMode/);
  });

  test("accepts every valid form", () => {
    const compiled = compileTest(
      {
        managed: { deny: ["Bash(rm -rf *)", "Read(~/.ssh/**)", "Read(.env)", "Edit(//etc/**)"], defaultMode: "acceptEdits" },
        user: { ask: ["mcp_github_*", "server:github", "group:shell", "Bash(npm run test:*)"], defaultMode: "plan" },
        project: { allow: ["Bash(git status)", "Edit(src/**)", "Read(root://extra/**)", "Read(./docs/)", "Read(../sibling/**)", "Write", "mcp_slack_post"] },
      },
      shell,
    );
    expect(compiled.mode).toBe("acceptEdits");
    expect(compiled.rules.map((rule) => `${rule.list}:${rule.layer}:${rule.text}`)).toEqual([
      "deny:managed:Bash(rm -rf *)",
      "deny:managed:Read(~/.ssh/**)",
      "deny:managed:Read(.env)",
      "deny:managed:Edit(//etc/**)",
      "ask:user:mcp_github_*",
      "ask:user:server:github",
      "ask:user:group:shell",
      "ask:user:Bash(npm run test:*)",
      "allow:project:Bash(git status)",
      "allow:project:Edit(src/**)",
      "allow:project:Read(root://extra/**)",
      "allow:project:Read(./docs/)",
      "allow:project:Read(../sibling/**)",
      "allow:project:Write",
      "allow:project:mcp_slack_post",
    ]);
    expect(compiled.rules.find((rule) => rule.text === "mcp_slack_post")?.deferredPrefix).toBe("mcp_slack_");
    expect(compiled.rules.find((rule) => rule.text === "Read(./docs/)")?.path?.glob).toBe("docs/**");
    expect(compiled.rules.find((rule) => rule.text === "Read(../sibling/**)")?.path?.up).toBe(1);
  });

  test("the default mode is default", () => {
    expect(compileTest({}, shell).mode).toBe("default");
    expect(compileTest({ user: { defaultMode: "dontAsk" }, project: { defaultMode: "plan" } }, shell).mode).toBe("dontAsk");
  });

  test("a rule for a server not loaded yet is reported once when its tools arrive and it names none of them", () => {
    const compiled = compilePermissions({ allow: ["mcp_slack_pots", "mcp_slack_post"], deny: ["mcp_slack_*"] }, { vocabulary: testVocabulary(), shell });
    const warnings: { message: string; data: Record<string, unknown> }[] = [];
    const warn = (message: string, data: Record<string, unknown>) => warnings.push({ message, data });
    checkLateToolNames(compiled, ["mcp_github_create_issue"], warn);
    expect(warnings).toEqual([]);
    checkLateToolNames(compiled, ["mcp_slack_post", "mcp_slack_read"], warn);
    checkLateToolNames(compiled, ["mcp_slack_post", "mcp_slack_read"], warn);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain('"mcp_slack_pots"');
    expect(warnings[0]!.data.suggestion).toBe("mcp_slack_post");
  });
});
