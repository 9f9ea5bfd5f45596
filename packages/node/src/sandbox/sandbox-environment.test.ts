import { CodedError } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { checkSandboxSettings } from "./check-sandbox-settings.js";
import { DEFAULT_SANDBOX_ENVIRONMENT, checkSandboxEnvironment, confinedEnvironment, environmentNameAllowed } from "./sandbox-environment.js";

const host = {
  PATH: "/usr/bin",
  HOME: "/home/ada",
  LANG: "C.UTF-8",
  LC_TIME: "C",
  TERM: "dumb",
  OPENAI_API_KEY: "sk-host",
  ANTHROPIC_API_KEY: "sk-ant",
  GITHUB_TOKEN: "ghp",
  SSH_AUTH_SOCK: "/tmp/agent.sock",
  NPM_CONFIG_TOKEN: "npm",
  MY_VAR: "mine",
  UNSET: undefined,
};

function thrown(run: () => unknown): CodedError {
  try {
    run();
  } catch (error) {
    if (error instanceof CodedError) return error;
    throw error;
  }
  throw new Error("expected a throw");
}

describe("confinedEnvironment", () => {
  it("passes the default allow-list only, with the spawn's own variables over it", () => {
    expect(confinedEnvironment(host, { env: { PAGER: "cat", TERM: "xterm" } })).toEqual({
      PATH: "/usr/bin",
      HOME: "/home/ada",
      LANG: "C.UTF-8",
      LC_TIME: "C",
      TERM: "xterm",
      PAGER: "cat",
    });
  });

  it("adds the host's names and prefixes, drops unset values, and takes nothing of the host with extendEnv false", () => {
    expect(confinedEnvironment(host, {}, ["MY_VAR", "NPM_*", "UNSET"])).toMatchObject({ MY_VAR: "mine", NPM_CONFIG_TOKEN: "npm" });
    expect(confinedEnvironment(host, {}, ["MY_VAR"])).not.toHaveProperty("UNSET");
    expect(confinedEnvironment(host, { env: { PATH: undefined } })).not.toHaveProperty("PATH");
    expect(confinedEnvironment(host, { extendEnv: false, env: { ONLY: "1" } }, ["*"])).toEqual({ ONLY: "1" });
    expect(Object.keys(confinedEnvironment(host, {}, ["*"])).sort()).toEqual(
      Object.keys(host)
        .filter((name) => name !== "UNSET")
        .sort(),
    );
  });

  it("never passes a credential by default", () => {
    const names = Object.keys(confinedEnvironment(host, {}));
    for (const secret of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GITHUB_TOKEN", "SSH_AUTH_SOCK", "NPM_CONFIG_TOKEN"]) expect(names).not.toContain(secret);
    expect(DEFAULT_SANDBOX_ENVIRONMENT.some((pattern) => /KEY|TOKEN|SECRET|PASS|AUTH/.test(pattern))).toBe(false);
    expect(environmentNameAllowed("LC_ALL", DEFAULT_SANDBOX_ENVIRONMENT)).toBe(true);
    expect(environmentNameAllowed("PATHX", DEFAULT_SANDBOX_ENVIRONMENT)).toBe(false);
  });
});

describe("checkSandboxEnvironment and checkSandboxSettings", () => {
  it("accepts names, prefixes and '*'", () => {
    expect(checkSandboxEnvironment(undefined)).toEqual([]);
    expect(checkSandboxEnvironment({ allow: ["MY_VAR", "NPM_*", "*", "_x1"] })).toEqual(["MY_VAR", "NPM_*", "*", "_x1"]);
    expect(checkSandboxSettings({ enabled: true, allowNetwork: false, writableRoots: ["/cache"], hiddenPaths: [], environment: { allow: [] } })).toBeTruthy();
  });

  it("fails closed with SdkError naming the mistake", () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ enabled: true, allownetwork: true }, /Unknown sandbox option "allownetwork". Did you mean "allowNetwork"\?/],
      [{ enabled: true, env: {} }, /Unknown sandbox option "env".*Known options: .*environment/],
      [{ enabled: "yes" }, /sandbox.enabled must be true or false/],
      [{ enabled: true, allowNetwork: "false" }, /sandbox.allowNetwork must be true or false/],
      [{ enabled: true, hiddenPaths: ["relative/.ssh"] }, /sandbox.hiddenPaths entry "relative\/.ssh" is not an absolute path/],
      [{ enabled: true, writableRoots: "/cache" }, /sandbox.writableRoots must be an array/],
      [{ enabled: true, environment: ["MY_VAR"] }, /sandbox.environment must be an object like \{ allow/],
      [{ enabled: true, environment: { Allow: ["X"] } }, /Unknown key sandbox.environment.Allow. Did you mean "allow"\?/],
      [{ enabled: true, environment: { allow: "MY_VAR" } }, /sandbox.environment.allow must be an array/],
      [{ enabled: true, environment: { allow: ["MY-VAR"] } }, /entry "MY-VAR" is not a variable name/],
      [{ enabled: true, environment: { allow: ["*_KEY"] } }, /entry "\*_KEY" is not a variable name/],
      [{ enabled: true, environment: { allow: [""] } }, /entry "" is not a variable name/],
      ["on", /sandbox must be an object/],
    ];
    for (const [settings, message] of cases) {
      const error = thrown(() => checkSandboxSettings(settings));
      expect(error.name).toBe("SdkError");
      expect(error.code).toBe("invalid_options");
      expect(error.message).toMatch(message);
    }
    expect(checkSandboxSettings({ enabled: true, bubblewrapPath: "/usr/bin/bwrap" }, ["bubblewrapPath"])).toBeTruthy();
  });
});
