/**
 * Attacks on a Bash allow-list (issue 35, target 1), made the way a model
 * would: `registry.executeToolCall` on a registry of the sdk's
 * `buildBuiltinToolRegistry` (real Bash, real temp dirs), with
 * `allow: ["Bash(git status)", "Bash(echo *)", "Bash(ls *)", "Bash(npm run test:*)"]`
 * in `dontAsk` mode. Each line below ran `touch pwned` before the fix although
 * no allow rule covers `touch`: Bash evaluated a variable's value as code
 * (arithmetic on a value holding `a[$(cmd)]`, `${!x}`, `[[ -v ]]`, `${x@P}`),
 * or tree-sitter-bash left a command substitution unparsed inside `${...}`;
 * or a `for` loop set PATH, so `ls` was another program.
 * The safe outcome: the call is refused and nothing ran.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The sdk depends on this package, so it is reached by path (as tests/policy does); vitest resolves its sources.
import { type BuiltinToolRegistry, buildBuiltinToolRegistry } from "../../../sdk/src/index.js";

const ALLOW = ["Bash(git status)", "Bash(echo *)", "Bash(ls *)", "Bash(npm run test:*)"];

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "policy-bash-allow-attack-")));
const workdir = path.join(temporary, "work");
const marker = path.join(workdir, "pwned");
let registry: BuiltinToolRegistry;

beforeAll(async () => {
  fs.mkdirSync(workdir);
  registry = await buildBuiltinToolRegistry({
    workdir,
    dataDir: path.join(temporary, "data"),
    memory: false,
    permissions: { allow: ALLOW, defaultMode: "dontAsk" },
  });
});
afterAll(async () => {
  await registry?.close();
  fs.rmSync(temporary, { recursive: true, force: true });
});

const textOf = (result: { content: ReadonlyArray<{ type: string; text?: string }> }) => result.content.map((block) => block.text ?? "").join("");

/** Runs `command` as the model would; returns whether the marker appeared and the result. */
async function attack(command: string) {
  fs.rmSync(marker, { force: true });
  const explained = await registry.policy.explain({ name: "Bash", arguments: { command } });
  const result = await registry.executeToolCall({ id: "attack", name: "Bash", arguments: { command, timeout_ms: 10_000 } });
  return { ran: fs.existsSync(marker), explained, result };
}

describe("a Bash allow-list (echo, ls, git status, npm run test:*) in dontAsk", () => {
  it.each([
    // A safe variable (TZ, LC_*, COLUMNS are allowed before a command) holding `a[$(cmd)]`, then evaluated as arithmetic.
    ["TZ='a[$(touch pwned)]'; echo $((TZ))"],
    ["COLUMNS='a[$(touch pwned)]'; echo $[COLUMNS]"],
    ["for x in 'a[$(touch pwned)]'; do echo $((x)); done"],
    ["echo $(( 'a[$(touch pwned)]' ))"],
    ["echo x && [[ 'a[$(touch pwned)]' -eq 0 ]]"],
    // `${x:=value}` assigns inside an allowed echo; the value is then read as an index, an offset, a name or a prompt.
    ["echo ${x:='a[$(touch pwned)]'} ${a[x]}"],
    ["echo ${x:='a[$(touch pwned)]'} ${x:x}"],
    ["echo ${x:='a[$(touch pwned)]'} ${!x}"],
    ["echo ${x:='a[$(touch pwned)]'} && [[ -v $x ]]"],
    ["echo ${x:='a[$(touch pwned)]'}; (( x ))"],
    ["TZ='$(touch pwned)'; echo ${TZ@P}"],
    ["LC_X='$(touch pwned)'; echo ${LC_X@P}"],
    // Command substitutions tree-sitter-bash leaves as text inside `${...}`: a default value, a pattern.
    ["echo ${x:=`touch pwned`}"],
    ['echo "${x:-`touch pwned`}"'],
    ["echo ${x:=a} ${x#`touch pwned`}"],
    ["echo ${x:-${y:-`touch pwned`}}"],
    ["echo ${x:=a} ${x%%$(touch pwned)}"],
    ['echo "${x:=a}" "${x/#a/$(touch pwned)}"'],
    [`echo "\${x:-'\`touch pwned\`'}"`],
    // Where tree-sitter-bash and Bash split lines differently: a backslash before CR-LF (a continuation to the parser, a quoted CR and
    // a line end to Bash), and a heredoc delimiter written $'EOF' (Bash ends the body at EOF, the parser at $'EOF').
    ["echo x\\\r\ntouch pwned"],
    ["echo x \\\r\ntouch pwned"],
    ["echo <<$'EOF'\nx\nEOF\ntouch pwned\n$'EOF'\n"],
    ['echo <<$"EOF"\nx\nEOF\ntouch pwned\n$"EOF"\n'],
  ])("refuses %s and nothing runs", async (command) => {
    const { ran, explained, result } = await attack(command);
    expect(ran).toBe(false);
    expect(explained.decision).toBe("deny");
    expect(result.error?.code).toBe("permission_denied");
  });

  it.each([["ls"], ["git status"]])("a for loop over PATH does not run another program for %s", async (allowed) => {
    // A program named like an allowed one, in a folder the model knows (here made by the test: a stand-in for any writable folder).
    const bin = path.join(temporary, "bin");
    fs.mkdirSync(bin, { recursive: true });
    for (const name of ["ls", "git"]) fs.writeFileSync(path.join(bin, name), "#!/bin/sh\n: > pwned\n", { mode: 0o755 });
    for (const command of [`for PATH in ${bin}; do ${allowed}; done`, `for LD_PRELOAD in x; do ${allowed}; done`]) {
      const { ran, explained, result } = await attack(command);
      expect(ran, command).toBe(false);
      expect(explained.decision, command).toBe("deny");
      expect(result.error?.code, command).toBe("permission_denied");
    }
  });

  it("a for loop over an ordinary lower-case variable is still allowed", async () => {
    const { ran, explained, result } = await attack("for f in a b; do echo $f; done");
    expect(ran).toBe(false);
    expect(explained.decision).toBe("allow");
    expect(textOf(result)).toContain("b");
  });

  it("still runs what the rules allow: literal arithmetic, plain expansions, a number index", async () => {
    const { ran, explained, result } = await attack('echo $((1 + 2)) ${a[1]} ${x:-y} ${#x} ${x%.txt} "${x:-z}"');
    expect(ran).toBe(false);
    expect(explained.decision).toBe("allow");
    expect(result.isError).toBe(false);
    expect(textOf(result)).toContain("3");
  });
});
