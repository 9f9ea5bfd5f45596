import { describe, expect, it } from "vitest";
import { checkBackgroundCommand, checkLeadingSleep } from "./command-guards.js";
import { clampInteger, resolveSessionTimeout, resolveSyncTimeout } from "./timeout-policy.js";

describe("background guard", () => {
  it.each([
    ["npm run dev &", true],
    ["sleep 100 & echo started", true],
    ["cd x && python -m http.server 8000 &", true],
    ["server > out.log &", true],
    ["server > out.log 2>&1 &", false],
    ["nohup cmd > /tmp/agent-task.log 2>&1 < /dev/null &", false],
    ["server &> all.log &", false],
    ["server >out.log 2>err.log & echo ok", false],
    ["make && make test", false],
    ["echo 'a & b'", false],
    ['echo "x &" # trailing & in a comment &', false],
    ["a || b; c | d", false],
    ["echo done >&2", false],
    ["ls \\& echo", false],
    ["(sleep 5 &)", false],
  ])("%s -> refused=%s", (command, refused) => {
    expect(checkBackgroundCommand(command) !== undefined).toBe(refused);
  });

  it("suggests a redirected nohup", () => {
    expect(checkBackgroundCommand("npm start &")).toMatch(/nohup .*2>&1 < \/dev\/null &/);
  });
});

describe("sleep guard", () => {
  it.each([
    ["sleep 5", true],
    ["sleep 2s", true],
    ["sleep 10 && cat log", true],
    ["  sleep 3; echo x", true],
    ["sleep 0.5", false],
    ["sleep 1", false],
    ["echo ready; sleep 28", false],
    ["sleeper 5", false],
  ])("%s -> refused=%s", (command, refused) => {
    expect(checkLeadingSleep(command) !== undefined).toBe(refused);
  });

  it("points to ProcessWait", () => {
    expect(checkLeadingSleep("sleep 30")).toMatch(/ProcessWait/);
  });
});

describe("timeouts and clamps", () => {
  it("clamps the synchronous timeout per provider", () => {
    expect(resolveSyncTimeout(undefined, "claude_code")).toBe(120_000);
    expect(resolveSyncTimeout(999_999, "claude_code")).toBe(600_000);
    expect(resolveSyncTimeout(5, "claude_code")).toBe(1_000);
    expect(resolveSyncTimeout(undefined, "codex")).toBe(30_000);
    expect(resolveSyncTimeout(120_000, "gemini")).toBe(30_000);
    expect(resolveSyncTimeout(1500.7, "xai")).toBe(1_500);
    expect(resolveSyncTimeout(undefined, "deepseek")).toBe(30_000);
    expect(resolveSyncTimeout(undefined, undefined)).toBe(120_000);
    expect(resolveSyncTimeout(700_000, "someone_else")).toBe(600_000);
  });

  it("clamps the session timeout to 1000..600000 and has none by default", () => {
    expect(resolveSessionTimeout(undefined)).toBeUndefined();
    expect(resolveSessionTimeout(10)).toBe(1_000);
    expect(resolveSessionTimeout(9_999_999)).toBe(600_000);
  });

  it("floors and clamps integers", () => {
    expect(clampInteger(999_999, 5_000, 300_000, 30_000)).toBe(300_000);
    expect(clampInteger(undefined, 250, 30_000, 10_000)).toBe(10_000);
    expect(clampInteger(260.9, 250, 30_000, 10_000)).toBe(260);
  });
});
