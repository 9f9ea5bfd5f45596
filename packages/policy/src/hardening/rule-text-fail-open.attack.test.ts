/**
 * Rule texts that were accepted at build but could never match what they
 * say (issue 35, target 4: a mistake must be an `SdkError`, never a deny
 * that silently does not fire), and path globs whose syntax minimatch and
 * the rules' literal-prefix shortcut read differently. Built through the
 * sdk's `buildBuiltinToolRegistry`, called with `registry.policy.explain`
 * and `executeToolCall` on real files.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SdkError } from "@agent-tools/core";
import { afterAll, describe, expect, it } from "vitest";
// The sdk depends on this package, so it is reached by path (as tests/policy does); vitest resolves its sources.
import { buildBuiltinToolRegistry } from "../../../sdk/src/index.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "policy-rule-text-attack-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));
let counter = 0;

/** A fresh workdir with secret/key.txt, secret/a and a file named #secret; plus an additional root `shared`. */
function fresh(): { workdir: string; dataDir: string; shared: string } {
  counter += 1;
  const workdir = path.join(temporary, `w${counter}`);
  const shared = path.join(temporary, `shared${counter}`);
  fs.mkdirSync(path.join(workdir, "secret"), { recursive: true });
  fs.mkdirSync(shared);
  fs.writeFileSync(path.join(workdir, "secret", "key.txt"), "SECRET-KEY\n");
  fs.writeFileSync(path.join(workdir, "secret", "a"), "SECRET-A\n");
  fs.writeFileSync(path.join(workdir, "#secret"), "SECRET-HASH\n");
  fs.writeFileSync(path.join(shared, "notes.txt"), "SHARED\n");
  return { workdir, dataDir: path.join(temporary, `d${counter}`), shared };
}

async function build(deny: string[]) {
  const { workdir, dataDir, shared } = fresh();
  return buildBuiltinToolRegistry({
    workdir,
    dataDir,
    memory: false,
    additionalRoots: [{ alias: "shared", path: shared, access: "read" }],
    permissions: { deny, allow: ["Read"] },
  });
}

const textOf = (result: { content: ReadonlyArray<{ type: string; text?: string }> }) => result.content.map((block) => block.text ?? "").join("");

describe("rule texts that could never match are refused at build", () => {
  it.each([
    ["a root alias the registry does not have", "Read(root://sharde/**)", /root:\/\/shared/],
    ["a leading ! (gitignore's negation)", "Read(!secret/**)", /!/],
    ["a no-break space inside a Bash pattern", "Bash(rm\u00a0*)", /U\+00A0/],
    ["a NUL inside a Bash pattern", "Bash(rm\u0000)", /U\+0000/],
    ["a zero-width space inside a path", "Read(sec\u200bret/**)", /U\+200B/],
    ["a carriage return at the end of a Bash pattern", "Bash(rm *\r)", /U\+000D/],
  ])("%s: %s", async (_name, rule, named) => {
    const attempt = build([rule]);
    await expect(attempt).rejects.toThrow(SdkError);
    await expect(build([rule])).rejects.toThrow(named);
  });
});

describe("path globs deny what they name", () => {
  it.each([
    ["a one-character class", "Read(secret/[k]ey.txt)", "secret/key.txt", "SECRET-KEY"],
    ["a brace expansion", "Read(secret/{a,b})", "secret/a", "SECRET-A"],
    ["a name starting with #", "Read(#secret)", "#secret", "SECRET-HASH"],
  ])("%s: %s denies %s", async (_name, rule, target, content) => {
    const registry = await build([rule]);
    try {
      expect(await registry.policy.explain({ name: "Read", arguments: { path: target } })).toMatchObject({ decision: "deny", rule });
      const result = await registry.executeToolCall({ id: "read", name: "Read", arguments: { path: target } });
      expect(result.error?.code).toBe("permission_denied");
      expect(textOf(result)).not.toContain(content);
    } finally {
      await registry.close();
    }
  });

  it("a rule on an existing root alias is accepted and applies", async () => {
    const registry = await build(["Read(root://shared/**)"]);
    try {
      const result = await registry.executeToolCall({ id: "read", name: "Read", arguments: { path: "root://shared/notes.txt" } });
      expect(result.error?.code).toBe("permission_denied");
    } finally {
      await registry.close();
    }
  });
});
