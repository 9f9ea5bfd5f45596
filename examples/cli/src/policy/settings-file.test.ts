import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UsageError } from "../cli-options.js";
import { ignoredKeysNotice, readSettingsFile } from "./settings-file.js";
import { convertSettingsHooks } from "./settings-hooks.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "cli-settings-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function settingsFile(name: string, content: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

describe("--settings file", () => {
  it("takes permissions as written and lists the keys it ignores ($schema silently)", () => {
    const permissions = { allow: ["Bash(npm test)"], deny: ["Read(.env)"], defaultMode: "acceptEdits", additionalDirectories: ["../x"], Allow: ["typo"] };
    const file = settingsFile("claude.json", {
      $schema: "https://json.schemastore.org/claude-code-settings.json",
      env: { CI: "1" },
      permissions,
      model: "opus",
    });
    const settings = readSettingsFile(file);
    // Unknown or refused keys inside permissions are passed through: the SDK's checks must see them.
    expect(settings).toEqual({ permissions, ignoredKeys: ["env", "model"] });
    expect(ignoredKeysNotice(file, settings.ignoredKeys)).toBe(`--settings ${file}: this CLI ignores env, model (it reads only permissions and hooks).`);
    expect(ignoredKeysNotice(file, [])).toBeUndefined();
  });

  it("turns Claude Code's hook timeout (seconds) into timeoutMs and keeps every other key", () => {
    const file = settingsFile("hooks.json", {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [
              { type: "command", command: "./check.sh", timeout: 30 },
              { type: "http", url: "http://127.0.0.1:9/h", timeout: 0.5 },
            ],
          },
          { matcher: "Edit|Write", hooks: [{ type: "command", command: "./lint.sh", timeoutMs: 900 }] },
        ],
        PostToolUse: [{ hooks: [{ type: "command", command: "./log.sh", cwd: "/tmp" }] }],
        PreToolUze: "left for the SDK to report",
      },
    });
    expect(readSettingsFile(file)).toEqual({
      ignoredKeys: [],
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [
              { type: "command", command: "./check.sh", timeoutMs: 30_000 },
              { type: "http", url: "http://127.0.0.1:9/h", timeoutMs: 500 },
            ],
          },
          { matcher: "Edit|Write", hooks: [{ type: "command", command: "./lint.sh", timeoutMs: 900 }] },
        ],
        PostToolUse: [{ hooks: [{ type: "command", command: "./log.sh", cwd: "/tmp" }] }],
        PreToolUze: "left for the SDK to report",
      },
    });
  });

  it("refuses hooks a JSON file cannot give and timeouts that are not seconds, naming the place", () => {
    const hooks = (handler: unknown) => ({ PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "true" }, handler] }] });
    expect(() => convertSettingsHooks(hooks({ type: "function", run: "x" }))).toThrow(
      /^hooks\.PreToolUse\[0\]\.hooks\[1\] has type "function"; a settings file can give only "command" and "http" hooks/,
    );
    expect(() => convertSettingsHooks(hooks({ type: "prompt", prompt: "is it safe?" }))).toThrow(UsageError);
    expect(() => convertSettingsHooks(hooks({ type: "command", command: "x", timeout: "30" }))).toThrow(
      'hooks.PreToolUse[0].hooks[1].timeout must be a positive number of seconds, not "30".',
    );
    expect(() => convertSettingsHooks(hooks({ type: "command", command: "x", timeout: 0 }))).toThrow(/positive number of seconds/);
    expect(() => convertSettingsHooks(hooks({ type: "command", command: "x", timeout: 1, timeoutMs: 1000 }))).toThrow(/both timeout \(seconds\) and timeoutMs/);
    // Shapes the CLI cannot walk are the SDK's to report.
    expect(convertSettingsHooks([1, 2])).toEqual([1, 2]);
    expect(convertSettingsHooks({ PreToolUse: [{ matcher: "*", hooks: "nope" }, 3] })).toEqual({ PreToolUse: [{ matcher: "*", hooks: "nope" }, 3] });
    expect(convertSettingsHooks({ PreToolUse: [{ hooks: [{ command: "no type", timeout: 2 }] }] })).toEqual({
      PreToolUse: [{ hooks: [{ command: "no type", timeoutMs: 2000 }] }],
    });
  });

  it("names the file when it is missing, not JSON, not an object, or holds a refused hook", () => {
    const missing = path.join(dir, "missing.json");
    expect(() => readSettingsFile(missing)).toThrow(UsageError);
    expect(() => readSettingsFile(missing)).toThrow(`--settings ${missing}: cannot read it as JSON`);
    const broken = settingsFile("broken.json", '{ "permissions": { "allow": [ }');
    expect(() => readSettingsFile(broken)).toThrow(`--settings ${broken}: cannot read it as JSON`);
    for (const [name, content] of [
      ["array.json", [1]],
      ["null.json", "null"],
    ] as const) {
      const file = settingsFile(name, content);
      expect(() => readSettingsFile(file)).toThrow(`--settings ${file}: expected a JSON object`);
    }
    const agent = settingsFile("agent.json", { hooks: { Stop: [{ hooks: [{ type: "agent", prompt: "check" }] }] } });
    expect(() => readSettingsFile(agent)).toThrow(`--settings ${agent}: hooks.Stop[0].hooks[0] has type "agent"`);
  });
});
