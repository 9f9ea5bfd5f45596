/**
 * A mistyped permission rule fails closed (issue 35): every rule or setting
 * below makes `buildBuiltinToolRegistry` reject with `SdkError` naming the
 * mistake (and the closest valid name where there is one), so no registry
 * exists to run a call under a policy that silently does not apply.
 * A valid block of the same shapes builds (the control).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SdkError } from "../../packages/core/src/index.js";
import { buildBuiltinToolRegistry } from "../../packages/sdk/src/index.js";

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-policy-mistyped-")));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

let counter = 0;
async function build(permissions: unknown) {
  counter += 1;
  const workdir = path.join(root, `work-${counter}`);
  fs.mkdirSync(workdir);
  return buildBuiltinToolRegistry({ workdir, dataDir: path.join(root, `data-${counter}`), memory: false, permissions: permissions as never });
}

/**
 * [what, permissions, text the message must hold (the rule or key, or its JSON form), suggestion expected in details.suggestion or the
 * message, known failure (runs as it.fails; reported to the lead)].
 */
const MISTAKES: ReadonlyArray<readonly [string, unknown, string, string?, string?]> = [
  ["a tool name in the wrong case", { allow: ["bash"] }, "bash", "Bash"],
  ["a misspelt tool name", { allow: ["Bsh"] }, "Bsh", "Bash"],
  ["a misspelt tool name with a specifier", { deny: ["read(.env)"] }, "read(.env)", "Read"],
  ["an unclosed parenthesis", { allow: ["Bash("] }, "Bash("],
  ["an unbalanced path rule", { allow: ["Edit(src/**"] }, "Edit(src/**"],
  ["an empty path specifier", { deny: ["Read()"] }, "Read()"],
  ["an empty command specifier", { ask: ["Bash()"] }, "Bash()"],
  ["a specifier on a tool that takes none", { allow: ["TaskList(x)"] }, "TaskList(x)"],
  ["a command pattern with an open quote", { allow: ['Bash(echo "open)'] }, 'Bash(echo "open)'],
  ["a list that is not an array", { allow: "Bash(git status)" }, "allow"],
  ["a rule that is not a string", { deny: [42] }, "deny"],
  ["an invalid defaultMode", { defaultMode: "yolo" }, "yolo"],
  ["a defaultMode in the wrong case", { defaultMode: "acceptedits" }, "acceptedits", "acceptEdits"],
  ["a misspelt list name", { alow: ["Bash(git status)"] }, "alow", "allow"],
  ["a list name in the wrong case", { Deny: ["Bash(rm *)"] }, "Deny", "deny"],
  ["Claude Code's additionalDirectories", { additionalDirectories: ["../shared"] }, "additionalDirectories", "additionalRoots"],
  ["a misspelt layer", { managed: { deny: ["Bash(rm *)"] }, users: { allow: ["Bash(ls *)"] } }, "users", "user"],
  ["a mistyped rule inside a layer", { project: { allow: ["Bash(git status)", "Grpe"] } }, "Grpe", "Grep"],
  ["bypassPermissions while it is disabled", { defaultMode: "bypassPermissions", disableBypassPermissionsMode: "disable" }, "bypassPermissions"],
];

describe("a mistyped rule fails closed", () => {
  for (const [what, permissions, names, suggestion, known] of MISTAKES) {
    const test = known === undefined ? it : it.fails;
    test(`${what}: ${JSON.stringify(permissions)}${known ? ` [known failure: ${known}]` : ""}`, async () => {
      const error = await build(permissions).then(
        async (registry) => {
          await registry.close();
          return undefined;
        },
        (thrown: unknown) => thrown,
      );
      expect(error, "the registry was built").toBeInstanceOf(SdkError);
      const sdkError = error as SdkError;
      expect(
        [names, JSON.stringify(names).slice(1, -1)].some((form) => sdkError.message.includes(form)),
        sdkError.message,
      ).toBe(true);
      if (suggestion !== undefined) {
        const suggested = typeof sdkError.details.suggestion === "string" ? sdkError.details.suggestion : sdkError.message;
        expect(suggested, sdkError.message).toContain(suggestion);
      }
    });
  }

  it("the control: the same shapes spelt right build, and explain applies them", async () => {
    const registry = await build({
      managed: { deny: ["Bash(rm *)", "Read(.env)"] },
      user: { allow: ["Bash(git status)", "Grep"], defaultMode: "acceptEdits" },
      project: { ask: ["Edit(src/**)"], allow: ["TaskList"] },
    });
    try {
      expect((await registry.policy.explain({ name: "Bash", arguments: { command: "rm -rf build" } })).decision).toBe("deny");
      expect((await registry.policy.explain({ name: "Bash", arguments: { command: "git status" } })).decision).toBe("allow");
    } finally {
      await registry.close();
    }
  });
});
