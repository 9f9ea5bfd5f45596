/**
 * Attacks on Bash deny rules (issue 35, target 2), made the way a model
 * would: `registry.executeToolCall` on the sdk's `buildBuiltinToolRegistry`
 * (real Bash, real temp dirs) with `deny: ["Bash(rm *)", "Bash(curl *)",
 * "Bash(git push *)"]` and every other Bash call allowed (`allow: ["Bash"]`,
 * or bypassPermissions mode). Each line below removed the file `keep` (or
 * ran `git push`) before the fix: the command was hidden from the parser (a
 * line that does not parse, a shell reading its script from a heredoc, a
 * herestring, a pipe or /dev/stdin), wrapped in `builtin`, `busybox`, `flock`,
 * `taskset`, `chrt` or `script -c`, aliased, behind
 * git's global options, or spelled $'rm\0x' (Bash ends the string at the NUL). The safe outcome: the call is not run (a
 * deny, or an ask that a host without `onAsk` refuses) and `keep` is still
 * there. Commands the parser cannot know about (interpreters, `mv`,
 * `unlink`, `find -delete`) are outside what a deny list can promise; they
 * are listed at the end as documented limits.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// The sdk depends on this package, so it is reached by path (as tests/policy does); vitest resolves its sources.
import { type BuiltinToolRegistry, buildBuiltinToolRegistry } from "../../../sdk/src/index.js";

const DENY = ["Bash(rm *)", "Bash(curl *)", "Bash(git push *)"];

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "policy-bash-deny-attack-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));
let counter = 0;

/** A registry over a fresh workdir holding `keep`, a git repository whose `origin` is a bare repository beside it. */
async function registryWith(permissions: Record<string, unknown>): Promise<{ registry: BuiltinToolRegistry; workdir: string; pushed: () => boolean }> {
  counter += 1;
  const workdir = path.join(temporary, `w${counter}`);
  const origin = path.join(temporary, `origin${counter}.git`);
  fs.mkdirSync(workdir);
  fs.writeFileSync(path.join(workdir, "keep"), "keep\n");
  const registry = await buildBuiltinToolRegistry({ workdir, dataDir: path.join(temporary, `d${counter}`), memory: false, permissions: permissions as never });
  return { registry, workdir, pushed: () => fs.existsSync(path.join(origin, "refs", "heads", "main")) };
}

async function attack(registry: BuiltinToolRegistry, command: string) {
  const explained = await registry.policy.explain({ name: "Bash", arguments: { command } });
  const result = await registry.executeToolCall({ id: "attack", name: "Bash", arguments: { command, timeout_ms: 10_000 } });
  return { explained, result };
}

const HIDDEN_OR_WRAPPED = [
  ["{rm,keep}"],
  ["builtin command rm keep"],
  ["builtin exec rm keep"],
  ["bash <<< 'rm keep'"],
  ["bash <<'EOF'\nrm keep\nEOF"],
  ["echo 'rm keep' | sh"],
  ["sh < /dev/stdin <<< 'rm keep'"],
  ["bash /dev/stdin <<< 'rm keep'"],
  ["bash <(echo rm keep)"],
  ["source /dev/stdin <<< 'rm keep'"],
  ["shopt -s expand_aliases\nalias x='rm'\nx keep"],
  ["git -c 'alias.p=!rm keep' p"],
  // Wrappers that run the rest of their words (or a -c string).
  ["busybox rm keep"],
  ["flock lockfile rm keep"],
  ["flock -n lockfile -c 'rm keep'"],
  ["taskset 1 rm keep"],
  ["chrt 0 rm keep"],
  ["script -qc 'rm keep' /dev/null"],
  ["script --command='rm keep' /dev/null"],
  // Bash's $'...' strings end at a NUL: $'rm\0x' is rm.
  ["$'rm\\x00zz' keep"],
  ["$'rm\\0' keep"],
  ["r$'m\\c@' keep"],
  ["$'rm\\u0000' keep"],
];

describe("deny rules with every other Bash call allowed", () => {
  it.each(HIDDEN_OR_WRAPPED)("allow Bash: %s does not run", async (command) => {
    const { registry, workdir } = await registryWith({ allow: ["Bash"], deny: DENY });
    try {
      const { explained, result } = await attack(registry, command);
      expect(fs.existsSync(path.join(workdir, "keep"))).toBe(true);
      expect(explained.decision).not.toBe("allow");
      expect(result.isError).toBe(true);
    } finally {
      await registry.close();
    }
  });

  it.each(HIDDEN_OR_WRAPPED)("bypassPermissions: %s does not run", async (command) => {
    const { registry, workdir } = await registryWith({ defaultMode: "bypassPermissions", deny: DENY });
    try {
      const { explained, result } = await attack(registry, command);
      expect(fs.existsSync(path.join(workdir, "keep"))).toBe(true);
      expect(explained.decision).not.toBe("allow");
      expect(result.isError).toBe(true);
    } finally {
      await registry.close();
    }
  });

  it.each([[{ allow: ["Bash"] }], [{ defaultMode: "bypassPermissions" }]])("a line over the parser's 64 KiB cap does not run (%j)", async (mode) => {
    const { registry, workdir } = await registryWith({ ...mode, deny: DENY });
    try {
      const { explained, result } = await attack(registry, `rm keep;${" ".repeat(70_000)}`);
      expect(fs.existsSync(path.join(workdir, "keep"))).toBe(true);
      expect(explained.decision).not.toBe("allow");
      expect(result.isError).toBe(true);
    } finally {
      await registry.close();
    }
  });

  it.each([["echo 'rm keep' | sh"], ["bash <<< 'rm keep'"], ["{rm,keep}"]])("allow ManagedProcess: start %s does not run", async (command) => {
    const { registry, workdir } = await registryWith({ allow: ["ManagedProcess"], deny: DENY });
    try {
      const input = { action: "start", command };
      const explained = await registry.policy.explain({ name: "ManagedProcess", arguments: input });
      const result = await registry.executeToolCall({ id: "attack", name: "ManagedProcess", arguments: input });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(fs.existsSync(path.join(workdir, "keep"))).toBe(true);
      expect(explained.decision).not.toBe("allow");
      expect(result.isError).toBe(true);
    } finally {
      await registry.close();
    }
  });

  it.each([["git -C . push origin main"], ["git --git-dir=.git push origin main"], ["git -c x.y=z push origin main"], ["git --no-pager push origin main"]])(
    "%s meets Bash(git push *)",
    async (command) => {
      const { registry, workdir, pushed } = await registryWith({ allow: ["Bash"], deny: DENY });
      try {
        const origin = path.join(temporary, `origin${counter}.git`);
        const identity = "GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b";
        const setup = `git init -q -b main . && ${identity} git commit -q --allow-empty -m x && git init -q --bare ${origin} && git remote add origin ${origin}`;
        expect((await registry.executeToolCall({ id: "setup", name: "Bash", arguments: { command: setup } })).isError).toBe(false);
        const { explained, result } = await attack(registry, command);
        expect(explained).toMatchObject({ decision: "deny", rule: "Bash(git push *)" });
        expect(result.error?.code).toBe("permission_denied");
        expect(pushed()).toBe(false);
        expect(fs.existsSync(path.join(workdir, "keep"))).toBe(true);
      } finally {
        await registry.close();
      }
    },
  );

  it("what the rules allow still runs: plain lines, shells with a fixed -c string, git without -c", async () => {
    const { registry } = await registryWith({ allow: ["Bash"], deny: DENY });
    try {
      for (const command of ["echo hi | wc -l", "sh -c 'echo hi'", "git --version", "alias ll='ls -la'"]) {
        const { explained, result } = await attack(registry, command);
        expect(explained.decision, command).toBe("allow");
        expect(result.isError, command).toBe(false);
      }
    } finally {
      await registry.close();
    }
  });
});

describe("documented limits of a Bash deny list (other programs that remove a file)", () => {
  // A deny rule names a command; programs that do the same another way are not that command. These run (asserted so a change is noticed).
  it.each([["unlink keep"], ["find . -name keep -delete"], ["python3 -c 'import os; os.remove(\"keep\")'"], ["perl -e 'unlink \"keep\"'"]])(
    "%s is not caught by Bash(rm *)",
    async (command) => {
      const { registry } = await registryWith({ allow: ["Bash"], deny: DENY });
      try {
        const { explained } = await attack(registry, command);
        expect(explained.decision).toBe("allow");
      } finally {
        await registry.close();
      }
    },
  );
});
