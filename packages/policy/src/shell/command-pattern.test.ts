import { SdkError } from "@agent-tools/core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type CommandPattern, commandPatternTraits, compileCommandPattern, matchesCommandPart } from "./command-pattern.js";
import { loadShellParser, type ShellParser } from "./shell-parser.js";

let shell: ShellParser;
beforeAll(async () => {
  shell = await loadShellParser();
});
afterAll(() => shell.close());

function pattern(specifier: string): CommandPattern {
  return compileCommandPattern(shell, specifier);
}

/** Whether the pattern matches the first part of `line` (the whole simple command). */
function matches(specifier: string, line: string, purpose: "allow" | "deny"): boolean {
  const parsed = shell.parse(line);
  expect(parsed.parts.length).toBeGreaterThan(0);
  return matchesCommandPart(pattern(specifier), parsed.parts[0], purpose);
}

/** For each part of `line`, whether the pattern matches it. */
function perPart(specifier: string, line: string, purpose: "allow" | "deny"): boolean[] {
  const compiled = pattern(specifier);
  return shell.parse(line).parts.map((part) => matchesCommandPart(compiled, part, purpose));
}

describe("literal words", () => {
  test.each([
    ["git status", "git status", true],
    ["git status", "git  status", true],
    ["git status", "git 'status'", true],
    ["git status", "git status -s", false],
    ["git status", "git stash", false],
    ["git status", "git", false],
    ['"git" "status"', "git status", true],
    ["echo 'a b'", 'echo "a b"', true],
    ["echo 'a b'", "echo a b", false],
    ["echo '$HOME'", "echo '$HOME'", true],
  ])("%s vs %s -> %s", (specifier, line, expected) => {
    expect(matches(specifier, line, "allow")).toBe(expected);
    expect(matches(specifier, line, "deny")).toBe(expected);
  });
});

test("a quoted '$HOME' in a pattern is the text; the expansion $HOME matches it only for deny", () => {
  expect(matches("echo '$HOME'", "echo $HOME", "allow")).toBe(false);
  expect(matches("echo '$HOME'", "echo $HOME", "deny")).toBe(true);
});

describe("wildcards", () => {
  test("a trailing standalone * matches any words, none included: `ls *` matches bare `ls`", () => {
    for (const line of ["ls", "ls -la", "ls -la src docs"]) expect(matches("ls *", line, "allow")).toBe(true);
    expect(matches("ls *", "lsof", "allow")).toBe(false);
    expect(matches("ls", "ls -la", "allow")).toBe(false);
  });

  test("`git * main` matches `git push --force origin main` (the broad rule the linter flags)", () => {
    expect(matches("git * main", "git push --force origin main", "allow")).toBe(true);
    expect(matches("git * main", "git checkout main", "allow")).toBe(true);
    expect(matches("git * main", "git main", "allow")).toBe(true);
    expect(matches("git * main", "git push origin main-backup", "allow")).toBe(false);
    expect(commandPatternTraits(pattern("git * main"))).toEqual({ matchesEverything: false, wildcardInMiddle: true, legacyPrefix: false });
  });

  test("a * inside a word matches characters within that word only", () => {
    expect(matches("git checkout feature/*", "git checkout feature/login", "allow")).toBe(true);
    expect(matches("git checkout feature/*", "git checkout feature/", "allow")).toBe(true);
    expect(matches("git checkout feature/*", "git checkout main", "allow")).toBe(false);
    expect(matches("git checkout feature/*", "git checkout feature/a extra", "allow")).toBe(false);
    expect(matches("npm run test*", "npm run test:unit", "allow")).toBe(true);
    expect(matches("*.sh", "./build.sh", "deny")).toBe(true);
    expect(matches("a*b*c", "aXbYbZc", "allow")).toBe(true);
    expect(matches("a*b*c", "aXcYb", "allow")).toBe(false);
    expect(matches("ab*ba", "aba", "allow")).toBe(false);
  });

  test('a quoted "*" or escaped \\* is a literal star', () => {
    for (const specifier of ['echo "*"', "echo '*'", "echo \\*"]) {
      expect(matches(specifier, "echo '*'", "allow")).toBe(true);
      expect(matches(specifier, "echo hello", "allow")).toBe(false);
      expect(matches(specifier, "echo hello", "deny")).toBe(false);
    }
    expect(matches('git checkout "feature/*"', "git checkout feature/login", "allow")).toBe(false);
  });

  test("legacy `:*` is a prefix on a word boundary", () => {
    expect(matches("npm run test:*", "npm run test", "allow")).toBe(true);
    expect(matches("npm run test:*", "npm run test --watch src", "allow")).toBe(true);
    expect(matches("npm run test:*", "npm run test:unit", "allow")).toBe(false);
    expect(matches("npm run test:*", "npm run testing", "allow")).toBe(false);
    expect(matches("npm run test:*", "npm run build", "deny")).toBe(false);
    expect(commandPatternTraits(pattern("npm run test:*"))).toEqual({ matchesEverything: false, wildcardInMiddle: false, legacyPrefix: true });
  });

  test("`*` alone matches every command; traits say so", () => {
    expect(matches("*", "rm -rf /", "allow")).toBe(true);
    expect(commandPatternTraits(pattern("*")).matchesEverything).toBe(true);
    expect(commandPatternTraits(pattern("* *")).matchesEverything).toBe(true);
    expect(commandPatternTraits(pattern("git *"))).toEqual({ matchesEverything: false, wildcardInMiddle: false, legacyPrefix: false });
  });
});

describe("dynamic words", () => {
  test("allow: a dynamic word matches only a standalone *", () => {
    expect(matches("echo *", "echo $HOME", "allow")).toBe(true);
    expect(matches("echo hi", "echo $GREETING", "allow")).toBe(false);
    expect(matches("echo h*", "echo $GREETING", "allow")).toBe(false);
    expect(matches("cat *.ts", "cat *.ts", "allow")).toBe(false);
    expect(matches("cat *", "cat *.ts", "allow")).toBe(true);
    expect(matches("git add *", 'git add "$f"', "allow")).toBe(true);
  });

  test("allow: a dynamic command name never matches, not even *", () => {
    expect(matches("*", "$EDITOR notes.txt", "allow")).toBe(false);
    expect(matches("*", "$(which git) status", "allow")).toBe(false);
  });

  test("deny: a dynamic word matches any words, fail closed", () => {
    expect(matches("git push --force *", "git push $FLAGS origin", "deny")).toBe(true);
    expect(matches("git push origin main", "git $ARGS", "deny")).toBe(true);
    expect(matches("rm -rf *", "$CMD -rf build", "deny")).toBe(true);
    expect(matches("rm -rf /", "rm -rf /*", "deny")).toBe(true);
    expect(matches("rm -rf /", "rm $(echo -rf) /", "deny")).toBe(true);
    expect(matches("git push --force", "git status $X", "deny")).toBe(false);
  });

  test("deny matches the command's base name; allow does not", () => {
    expect(matches("rm -rf *", "/bin/rm -rf build", "deny")).toBe(true);
    expect(matches("rm -rf *", "/bin/rm -rf build", "allow")).toBe(false);
    expect(matches("/bin/rm *", "rm x", "deny")).toBe(false);
  });
});

describe("parts of a line", () => {
  test("allow `git status` does not allow `sudo git status` (the whole stays a part); deny `rm -rf *` catches sudo and xargs", () => {
    expect(perPart("git status", "sudo git status", "allow")).toEqual([false, true]);
    expect(perPart("rm -rf *", "sudo rm -rf /", "deny")).toEqual([false, true]);
    expect(perPart("rm -rf *", "find . -name '*.o' | xargs rm -rf", "deny")).toEqual([false, false, true]);
    expect(perPart("rm -rf *", "bash -c 'cd /tmp && rm -rf x'", "deny")).toEqual([false, false, true]);
    expect(perPart("rm -rf *", "find . -name node_modules -exec rm -rf {} +", "deny")).toEqual([false, true]);
    expect(perPart("rm *", "find . -exec rm {} ;", "allow")).toEqual([false, true]);
    expect(perPart("rm x", "find . -exec rm {} ;", "allow")).toEqual([false, false]);
  });

  test("a part that is not allowable is never allowed, but deny still matches it", () => {
    expect(perPart("git status", "PATH=/tmp/evil git status", "allow")).toEqual([false]);
    expect(perPart("git status", "PATH=/tmp/evil git status", "deny")).toEqual([true]);
    expect(perPart("git log *", "git log > out.txt", "allow")).toEqual([false]);
    expect(perPart("git log *", "NODE_ENV=x git log > /dev/null", "allow")).toEqual([true]);
  });

  test("an unparsable line still yields its readable parts for deny", () => {
    const parsed = shell.parse("rm -rf / 'unclosed");
    expect(parsed.ok).toBe(false);
    expect(parsed.parts.some((part) => matchesCommandPart(pattern("rm -rf *"), part, "deny"))).toBe(true);
  });

  test("a bare assignment part (no words) matches nothing", () => {
    const [part] = shell.parse("PATH=/x").parts;
    expect(matchesCommandPart(pattern("*"), part, "deny")).toBe(false);
  });

  test("a long line matches without recursion", () => {
    const line = `echo ${Array.from({ length: 5000 }, (_unused, index) => `w${index}`).join(" ")}`;
    expect(matches("echo * w4999", line, "allow")).toBe(true);
    expect(matches("echo * w5000", line, "allow")).toBe(false);
  });
});

describe("invalid patterns are an SdkError naming the pattern", () => {
  test.each([
    ["", /is empty/],
    ["   ", /is empty/],
    [":*", /has no command before ":\*"/],
    ["echo 'unclosed", /does not parse as a shell command/],
    ["echo $(", /does not parse as a shell command/],
    ["ls; rm x", /must be one simple command/],
    ["ls | wc", /must be one simple command/],
    ["ls && pwd", /must be one simple command/],
    ["git status # note", /must be one simple command/],
    ["(ls)", /must be one simple command/],
    ["ls > out.txt", /must be one simple command|must not hold a redirection/],
    ["FOO=1 npm test", /starts with FOO=\.\.\.: assignments are removed/],
    ["echo $HOME", /holds the expansion "\$HOME"/],
    ["git log $(date)", /holds the expansion/],
  ])("%j", (specifier, message) => {
    let error: unknown;
    try {
      compileCommandPattern(shell, specifier);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).code).toBe("invalid_options");
    expect((error as SdkError).message).toContain(`"${specifier}"`);
    expect((error as SdkError).message).toMatch(message);
  });

  test("the source is kept as written", () => {
    expect(pattern(" npm run test:* ").source).toBe(" npm run test:* ");
  });
});
