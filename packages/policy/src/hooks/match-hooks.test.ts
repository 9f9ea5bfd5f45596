import { describe, expect, it } from "vitest";
import { checkHookSettings } from "./check-hook-settings.js";
import { exactMatcherNames, matchesHookMatcher, selectHooks } from "./match-hooks.js";

describe("matchesHookMatcher", () => {
  it.each([
    [undefined, "Bash", true],
    ["", "Bash", true],
    ["*", "Bash", true],
    ["*", undefined, true],
    ["Bash", "Bash", true],
    ["Bash", "bash", false],
    ["Bash", "BashOutput", false],
    ["Edit|Write", "Write", true],
    ["Edit | Write", "Write", true],
    ["Edit|Write", "Read", false],
    ["mcp_github_*", "mcp_github_create_issue", true],
    ["mcp_github_*", "mcp_gitlab_x", false],
    ["mcp_*_search", "mcp_docs_search", true],
    ["mcp_*_search", "mcp_docs_searches", false],
    ["a*b*a", "aba", true],
    ["a*b*a", "ab", false],
    ["Bash", undefined, false],
  ])("%s selects %s: %s", (matcher, value, expected) => {
    expect(matchesHookMatcher(matcher, value)).toBe(expected);
  });

  it("names hooks by kind and declaration index and keeps declaration order", () => {
    const run = () => undefined;
    const settings = checkHookSettings({
      PreToolUse: [
        { matcher: "Read", hooks: [{ type: "function", run }] },
        {
          matcher: "Bash",
          hooks: [
            { type: "function", run },
            { type: "command", command: "x", name: "lint" },
          ],
        },
        { hooks: [{ type: "http", url: "http://127.0.0.1:1/" }] },
      ],
    });
    expect(selectHooks(settings, "PreToolUse", "Bash").map((hook) => hook.name)).toEqual(["function#1", "lint", "http#3"]);
    expect(selectHooks(settings, "PostToolUse", "Bash")).toEqual([]);
    expect(exactMatcherNames("Edit|mcp_x_*| Write")).toEqual(["Edit", "Write"]);
    expect(exactMatcherNames("*")).toEqual([]);
  });
});
