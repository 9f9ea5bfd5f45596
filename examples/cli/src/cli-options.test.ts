import path from "node:path";
import { describe, expect, it } from "vitest";
import { USAGE, UsageError, parseAddDir, parseCliOptions, usesConfiguredModel } from "./cli-options.js";

const cwd = "/home/user/project";

describe("parseCliOptions", () => {
  it("has defaults that run the demo", () => {
    const options = parseCliOptions([], {}, cwd);
    expect(options).toMatchObject({
      prompt: "",
      workdir: cwd,
      runtimeScope: "chat",
      additionalRoots: [],
      model: "gpt-4o-mini",
      maxTurns: 20,
      json: false,
      yes: false,
      yesIfScripted: false,
      stream: true,
      explain: false,
    });
    expect(options.settings).toBeUndefined();
    expect(usesConfiguredModel(options)).toBe(false);
  });

  it("reads every flag and joins the prompt", () => {
    const options = parseCliOptions(
      [
        "--workdir",
        "sub",
        "--scope",
        "cron",
        "--add-dir",
        "docs=../docs:rw",
        "--add-dir",
        "ref=/opt/ref",
        "--model",
        "qwen",
        "--max-turns",
        "7",
        "--json",
        "-y",
        "--yes-if-scripted",
        "--no-stream",
        "fix",
        "the",
        "bug",
      ],
      {},
      cwd,
    );
    expect(options).toMatchObject({
      prompt: "fix the bug",
      workdir: path.join(cwd, "sub"),
      runtimeScope: "cron",
      model: "qwen",
      maxTurns: 7,
      json: true,
      yes: true,
      yesIfScripted: true,
      stream: false,
    });
    expect(options.additionalRoots).toEqual([
      { alias: "docs", path: "/home/user/docs", access: "write" },
      { alias: "ref", path: "/opt/ref", access: "read" },
    ]);
  });

  it("takes the model from the environment, flags first", () => {
    const env = { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: "http://localhost:11434/v1", OPENAI_MODEL: "llama3" };
    const options = parseCliOptions(["hi"], env, cwd);
    expect(options).toMatchObject({ apiKey: "sk-test", baseUrl: "http://localhost:11434/v1", model: "llama3" });
    expect(usesConfiguredModel(options)).toBe(true);
    expect(usesConfiguredModel(parseCliOptions(["--demo"], env, cwd))).toBe(false);
    expect(parseCliOptions(["--base-url", "http://x/v1", "--model", "m"], env, cwd)).toMatchObject({ baseUrl: "http://x/v1", model: "m" });
    expect(usesConfiguredModel(parseCliOptions([], { OPENAI_API_KEY: " " }, cwd))).toBe(false);
  });

  it("reads --settings (resolved from the working directory) and --explain", () => {
    const options = parseCliOptions(["--settings", ".claude/settings.json", "--explain", "fix it"], {}, cwd);
    expect(options).toMatchObject({ settings: path.join(cwd, ".claude/settings.json"), explain: true, prompt: "fix it" });
    expect(parseCliOptions(["--settings", "/etc/agent/settings.json"], {}, cwd).settings).toBe("/etc/agent/settings.json");
    expect(() => parseCliOptions(["--settings"], {}, cwd)).toThrow(UsageError);
    expect(() => parseCliOptions(["--explain=yes"], {}, cwd)).toThrow(UsageError);
  });

  it("documents --settings and --explain in the help, including that explanations run no hooks", () => {
    expect(USAGE).toMatch(/--settings <file> +permission rules and hooks from a JSON file shaped like\n +Claude Code's settings\.json/);
    expect(USAGE).toMatch(/"timeout" in seconds/);
    expect(USAGE).toMatch(/--explain +before each tool call, show what the permission policy/);
    expect(USAGE).toMatch(/does\n +not run hooks, so PreToolUse hooks run once, with the call/);
  });

  it("rejects bad flags with a usage error", () => {
    expect(() => parseCliOptions(["--scope", "daily"], {}, cwd)).toThrow(UsageError);
    expect(() => parseCliOptions(["--max-turns", "0"], {}, cwd)).toThrow(/--max-turns/);
    expect(() => parseCliOptions(["--max-turns", "two"], {}, cwd)).toThrow(/--max-turns/);
    expect(() => parseCliOptions(["--frobnicate"], {}, cwd)).toThrow(UsageError);
    expect(() => parseAddDir("nopath", cwd)).toThrow(/alias=path/);
    expect(() => parseAddDir("a=:ro", cwd)).toThrow(/no path/);
  });
});
