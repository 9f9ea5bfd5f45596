import { SdkError } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { checkHookSettings } from "./check-hook-settings.js";

function problem(given: unknown): SdkError {
  try {
    checkHookSettings(given);
  } catch (error) {
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).code).toBe("invalid_options");
    return error as SdkError;
  }
  throw new Error("expected an SdkError");
}

const run = () => undefined;

describe("checkHookSettings", () => {
  it("accepts the three kinds and returns a frozen copy", () => {
    const given = {
      PreToolUse: [
        { matcher: "Bash|Edit", hooks: [{ type: "function", name: "guard", timeoutMs: 500, run }] },
        { hooks: [{ type: "command", command: "./check.sh", cwd: "hooks", env: { MODE: "strict" } }] },
      ],
      PostToolUse: [{ matcher: "mcp_github_*", hooks: [{ type: "http", url: "http://127.0.0.1:9/hook", headers: { Authorization: "Bearer x" } }] }],
      SessionStart: [{ matcher: "", hooks: [] }],
    };
    const checked = checkHookSettings(given);
    expect(Object.isFrozen(checked)).toBe(true);
    expect(Object.isFrozen(checked.PreToolUse?.[0]?.hooks[0])).toBe(true);
    given.PreToolUse[0]!.hooks.push({ type: "function", name: "late", timeoutMs: 1, run });
    expect(checked.PreToolUse?.[0]?.hooks).toHaveLength(1);
    expect(checked.PostToolUse?.[0]?.hooks[0]).toMatchObject({ type: "http", url: "http://127.0.0.1:9/hook" });
    expect(checkHookSettings(undefined)).toEqual({});
  });

  it("refuses an unknown or wrongly cased event, naming the closest", () => {
    expect(problem({ preToolUse: [] }).message).toContain('did you mean "PreToolUse"');
    expect(problem({ PostToolUsed: [] }).message).toContain('did you mean "PostToolUse"');
    expect(problem({ UserPromptSubmit: [] }).message).toContain("unknown event");
  });

  it("refuses unknown keys on matchers and handlers, naming the closest", () => {
    expect(problem({ PreToolUse: [{ matchers: "Bash", hooks: [] }] }).message).toContain('did you mean "matcher"');
    expect(problem({ PreToolUse: [{ hooks: [{ type: "command", command: "x", timeout: 5 }] }] }).message).toMatch(/unknown key "timeout".*timeoutMs/);
    expect(problem({ PreToolUse: [{ hooks: [{ type: "http", url: "http://x", command: "y" }] }] }).message).toContain('unknown key "command"');
  });

  it("refuses an unknown kind, wrong types and non-arrays", () => {
    expect(problem({ PreToolUse: [{ hooks: [{ type: "Command", command: "x" }] }] }).message).toContain('did you mean "command"');
    expect(problem({ PreToolUse: [{ hooks: [{ type: "prompt" }] }] }).message).toContain('"function", "command" or "http"');
    expect(problem({ PreToolUse: {} }).message).toContain("array of matchers");
    expect(problem({ PreToolUse: [{ hooks: {} }] }).message).toContain("array of hooks");
    expect(problem({ PreToolUse: [{ hooks: ["x"] }] }).message).toContain("must be an object");
    expect(problem({ PreToolUse: [{ hooks: [{ type: "command", command: "  " }] }] }).message).toContain("command");
    expect(problem({ PreToolUse: [{ hooks: [{ type: "command", command: "x", env: { A: 1 } }] }] }).message).toContain("env.A");
    expect(problem({ PreToolUse: [{ hooks: [{ type: "command", command: "x", name: "" }] }] }).message).toContain("name");
    expect(problem([]).message).toContain("must be an object");
  });

  it("refuses a bad timeout", () => {
    for (const timeoutMs of [0, -1, 1.5, 600_001, "60", Number.NaN]) {
      expect(problem({ PreToolUse: [{ hooks: [{ type: "function", run, timeoutMs }] }] }).message).toContain("timeoutMs");
    }
    expect(checkHookSettings({ PreToolUse: [{ hooks: [{ type: "function", run, timeoutMs: 600_000 }] }] }).PreToolUse).toHaveLength(1);
  });

  it("refuses a run that is not a function", () => {
    expect(problem({ PreToolUse: [{ hooks: [{ type: "function", run: "deny" }] }] }).message).toContain("run");
    expect(problem({ PreToolUse: [{ hooks: [{ type: "function" }] }] }).message).toContain("run");
  });

  it("refuses URLs that are not http(s) and bad headers", () => {
    expect(problem({ PreToolUse: [{ hooks: [{ type: "http", url: "file:///etc/passwd" }] }] }).message).toContain('"file:" URLs are not supported');
    expect(problem({ PreToolUse: [{ hooks: [{ type: "http", url: "not a url" }] }] }).message).toContain("is not a URL");
    expect(problem({ PreToolUse: [{ hooks: [{ type: "http", url: "http://x", headers: { "Bad Name": "v" } }] }] }).message).toContain("valid name");
    expect(problem({ PreToolUse: [{ hooks: [{ type: "http", url: "http://x", headers: { A: "v\r\nB: w" } }] }] }).message).toContain("line break");
  });

  it("refuses regular-expression matchers", () => {
    expect(problem({ PreToolUse: [{ matcher: "mcp__memory__.*", hooks: [] }] }).message).toContain("not a regular expression");
    expect(problem({ PreToolUse: [{ matcher: "^Bash$", hooks: [] }] }).message).toContain("not a regular expression");
    expect(problem({ PreToolUse: [{ matcher: "Bash||Edit", hooks: [] }] }).message).toContain("empty alternative");
    expect(problem({ PreToolUse: [{ matcher: 3, hooks: [] }] }).message).toContain("matcher");
  });
});
