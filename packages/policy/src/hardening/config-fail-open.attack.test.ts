/**
 * Attacks on the permission and hook settings (issue 35, target 4): a rule
 * set or hook setting that is accepted but never applies fails open (a deny
 * that never fires, an allow-list that lets more through). Every mistake
 * must be an `SdkError` when the registry is built, through the same
 * `createToolRegistry({ policy: createPermissionPolicy(...) })` path the sdk
 * takes, with the real file and shell tools.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SdkError } from "@agent-tools/core";
import { afterAll, describe, expect, it } from "vitest";
import type { HookSettings } from "../hooks/hook-settings.js";
import { attackDirs, attackRegistry, textOf } from "./__fixtures__/attack-registry.js";

const dirs = attackDirs("policy-config-attack-");
afterAll(() => dirs.cleanup());

async function refusedAtBuild(settings: { permissions?: unknown; hooks?: unknown }): Promise<unknown> {
  const { workdir, dataDir } = dirs.make();
  try {
    const registry = await attackRegistry({ workdir, dataDir, ...(settings as object) });
    await registry.close();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** An array whose first slot is a hole, then `items`. */
const holed = (...items: unknown[]): unknown[] => Object.assign(new Array(items.length + 1), Object.fromEntries(items.map((item, index) => [index + 1, item])));

const nonEnumerable = (key: string, value: unknown): object => Object.defineProperty({}, key, { value, enumerable: false });

describe("permissions that would silently never apply are refused at build", () => {
  it.each([
    ["lower case tool", { deny: ["bash"] }],
    ["space before (", { deny: ["Bash (rm *)"] }],
    ["trailing space", { deny: ["Bash(rm *) "] }],
    ["leading space", { deny: [" Bash(rm *)"] }],
    ["Claude Code's mcp__server__tool", { deny: ["mcp__github__create_issue"] }],
    ["Cyrillic e in Read", { deny: ["R\u0435ad(secret/**)"] }],
    ["zero-width space after )", { deny: ["Bash(rm *)\u200b"] }],
    ["NBSP before (", { deny: ["Bash\u00a0(rm *)"] }],
    ["empty specifier with spaces", { deny: ["Read( )"] }],
    ["path specifier with a leading space", { deny: ["Read( secret/**)"] }],
    ["path specifier with a trailing space", { deny: ["Read(.env )"] }],
    ["path specifier `..`", { deny: ["Read(..)"] }],
    ["`..` inside a path", { deny: ["Read(src/../secret/**)"] }],
    ["backslash path", { deny: ["Read(secret\\\\key.txt)"] }],
    ["specifier on a tool without one", { deny: ["TaskList(x)"] }],
    ["unbalanced", { deny: ["Bash(rm *"] }],
    ["unclosed quote in a Bash pattern", { deny: ["Bash(rm 'x)"] }],
    ["String object", { deny: [new String("Bash")] }],
    ["array with a hole", { deny: holed("Read(.env)", "Bash") }],
    ["number rule", { deny: [1] }],
    ["list is a string", { deny: "Bash" }],
    ["list is an object", { deny: { 0: "Bash" } }],
    ["mode Default", { defaultMode: "Default" }],
    ["mode dontask", { defaultMode: "dontask" }],
    ["disableBypassPermissionsMode typo key", { disableBypassPermissionMode: "disable" }],
    ["disableBypassPermissionsMode true", { disableBypassPermissionsMode: true }],
    ["bypass with disable in another layer", { managed: { disableBypassPermissionsMode: "disable" }, project: { defaultMode: "bypassPermissions" } }],
    ["unknown key", { deny: ["Bash"], denied: ["Read"] }],
    ["Claude Code additionalDirectories", { additionalDirectories: ["/tmp"] }],
    ["JSON __proto__ key", JSON.parse('{"__proto__": {"deny": ["Bash"]}}')],
    ["literal __proto__ (prototype set)", { __proto__: { deny: ["Bash"] } }],
    ["layer with an unknown name", { managed: { deny: ["Bash"] }, Project: { deny: ["Read"] } }],
    ["only an unknown layer", { Managed: { deny: ["Bash"] } }],
    ["layer mixed with settings", { managed: { deny: ["Bash"] }, deny: ["Read"] }],
    ["null layer", { managed: null }],
    ["non-enumerable deny", nonEnumerable("deny", ["Bash"])],
    [
      "class instance",
      new (class Settings {
        deny = ["Bash"];
      })(),
    ],
    ["Map", new Map([["deny", ["Bash"]]])],
    ["server with no id", { deny: ["server:"] }],
    ["unknown server", { deny: ["server:github"] }],
    ["glob over non-MCP names", { deny: ["Bas*"] }],
  ])("%s", async (_, permissions) => {
    const error = await refusedAtBuild({ permissions });
    expect(error).toBeInstanceOf(SdkError);
  });

  it("a getter that answers differently on a later read cannot drop the rules (read once)", async () => {
    const { workdir, dataDir } = dirs.make();
    let reads = 0;
    const permissions = {
      get deny() {
        reads += 1;
        return reads === 1 ? ["Bash"] : [];
      },
      defaultMode: "default" as const,
    };
    const registry = await attackRegistry({ workdir, dataDir, permissions: permissions as never, approval: { defaultDecision: "allow" } });
    try {
      const result = await registry.executeToolCall({ id: "g", name: "Bash", arguments: { command: "touch pwned" } });
      expect(result.error?.code, textOf(result)).toBe("permission_denied");
    } finally {
      await registry.close();
    }
  });
});

const deny = () => ({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny" } });

describe("hook settings that would silently never run are refused at build", () => {
  it.each([
    ["lower case matcher", { PreToolUse: [{ matcher: "bash", hooks: [{ type: "function", run: deny }] }] }],
    ["regex matcher", { PreToolUse: [{ matcher: "Bash.*", hooks: [{ type: "function", run: deny }] }] }],
    ["mcp__ matcher", { PreToolUse: [{ matcher: "mcp__github__.*", hooks: [{ type: "function", run: deny }] }] }],
    ["event in lower case", { preToolUse: [{ matcher: "Bash", hooks: [{ type: "function", run: deny }] }] }],
    ["unknown handler type", { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "Function", run: deny }] }] }],
    ["Claude Code's timeout in seconds", { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true", timeout: 5 }] }] }],
    ["timeout 0", { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "function", run: deny, timeoutMs: 0 }] }] }],
    ["timeout NaN", { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "function", run: deny, timeoutMs: Number.NaN }] }] }],
    ["timeout Infinity", { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "function", run: deny, timeoutMs: Number.POSITIVE_INFINITY }] }] }],
    ["run not a function", { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "function", run: "deny" }] }] }],
    ["hooks not a list", { PreToolUse: [{ matcher: "Bash", hooks: { type: "function", run: deny } }] }],
    ["matchers not a list", { PreToolUse: { matcher: "Bash", hooks: [{ type: "function", run: deny }] } }],
    ["a hole among handlers", { PreToolUse: [{ matcher: "Bash", hooks: holed({ type: "function", run: deny }) }] }],
    ["a hole among matchers", { PreToolUse: holed({ matcher: "Bash", hooks: [{ type: "function", run: deny }] }) }],
    ["http hook with a bad URL", { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "http", url: "127.0.0.1:9/x" }] }] }],
    ["http hook with a file URL", { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "http", url: "file:///etc/passwd" }] }] }],
    ["command hook with an empty command", { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "" }] }] }],
    ["non-enumerable PreToolUse", nonEnumerable("PreToolUse", [{ matcher: "Bash", hooks: [{ type: "function", run: deny }] }])],
  ])("%s", async (_, hooks) => {
    const error = await refusedAtBuild({ hooks: hooks as HookSettings });
    expect(error).toBeInstanceOf(SdkError);
  });
});

describe("rules that look right apply", () => {
  it("Edit(.) allows the workdir, not every path anywhere (before: `.` was a name at any depth, matching every folder)", async () => {
    const { workdir, dataDir, outside } = dirs.make();
    const registry = await attackRegistry({
      workdir,
      dataDir,
      permissions: { allow: ["Edit(.)"], defaultMode: "dontAsk" },
      additionalRoots: [{ alias: "ext", path: outside, access: "write" }],
    });
    try {
      const inside = await registry.executeToolCall({ id: "i", name: "Write", arguments: { path: "in.txt", content: "x" } });
      expect(inside.isError, textOf(inside)).toBe(false);
      const other = await registry.executeToolCall({ id: "o", name: "Write", arguments: { path: "root://ext/pwned.txt", content: "x" } });
      expect(other.error?.code, textOf(other)).toBe("permission_denied");
      expect(existsSync(path.join(outside, "pwned.txt"))).toBe(false);
    } finally {
      await registry.close();
    }
  });

  it("Read(secret/) denies like Read(secret/**) (a trailing / is documented as /**)", async () => {
    const { workdir, dataDir } = dirs.make();
    mkdirSync(path.join(workdir, "secret"));
    writeFileSync(path.join(workdir, "secret", "k.txt"), "SECRET-1\n");
    const registry = await attackRegistry({ workdir, dataDir, permissions: { deny: ["Read(secret/)"] } });
    try {
      const result = await registry.executeToolCall({ id: "r", name: "Read", arguments: { path: "secret/k.txt" } });
      expect(result.error?.code).toBe("permission_denied");
    } finally {
      await registry.close();
    }
  });
});
