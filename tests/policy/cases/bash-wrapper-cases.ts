/**
 * Wrappers and nested shells: `env`, `sudo`, `xargs`, `timeout`, `nice`,
 * `nohup`, `time`, `command`, `exec`, `stdbuf` add their inner command as an
 * extra part while the whole text stays a part (deny `rm *` catches
 * `sudo rm`, allow `git status` does not allow `sudo git status`);
 * `sh -c '<static>'` and `eval <static>` are parsed again; a dynamic `-c`
 * string or a shell reading a script is not allowable by a rule.
 */
import { bashRows } from "./case-builders.js";
import { ALLOW_FALLBACK, ASK_FALLBACK, type CaseGroup } from "./case-types.js";

const innerDenied = bashRows({ permissions: { deny: ["Bash(rm -rf *)"] }, approval: ALLOW_FALLBACK }, [
  ["sudo: the inner command is denied", "sudo rm -rf build", "deny", "Bash(rm -rf *)"],
  ["sudo with options: the inner command is denied", "sudo -n -u root rm -rf build", "deny", "Bash(rm -rf *)"],
  ["env: the inner command is denied", "env rm -rf build", "deny", "Bash(rm -rf *)"],
  ["env with assignments: the inner command is denied", "env -i FOO=1 rm -rf build", "deny", "Bash(rm -rf *)"],
  ["xargs: the inner command is denied", "echo build | xargs rm -rf", "deny", "Bash(rm -rf *)"],
  ["xargs with options: the inner command is denied", "ls | xargs -n 1 rm -rf", "deny", "Bash(rm -rf *)"],
  ["timeout: the inner command is denied", "timeout 5 rm -rf build", "deny", "Bash(rm -rf *)"],
  ["nice: the inner command is denied", "nice -n 10 rm -rf build", "deny", "Bash(rm -rf *)"],
  ["nohup: the inner command is denied", "nohup rm -rf build", "deny", "Bash(rm -rf *)"],
  ["time: the inner command is denied", "time rm -rf build", "deny", "Bash(rm -rf *)"],
  ["command: the inner command is denied", "command rm -rf build", "deny", "Bash(rm -rf *)"],
  ["exec: the inner command is denied", "exec rm -rf build", "deny", "Bash(rm -rf *)"],
  ["stdbuf: the inner command is denied", "stdbuf -oL rm -rf build", "deny", "Bash(rm -rf *)"],
  ["wrappers nest: sudo env timeout", "sudo env timeout 5 rm -rf build", "deny", "Bash(rm -rf *)"],
  ["sh -c with a static string is parsed", "sh -c 'rm -rf build'", "deny", "Bash(rm -rf *)"],
  ["bash -c with a double-quoted static string", 'bash -c "echo a; rm -rf build"', "deny", "Bash(rm -rf *)"],
  ["zsh/dash -c are shells too", "dash -c 'rm -rf build'", "deny", "Bash(rm -rf *)"],
  ["sh -c nested in sh -c", "sh -c \"sh -c 'rm -rf build'\"", "deny", "Bash(rm -rf *)"],
  ["eval of static words is parsed", "eval rm -rf build", "deny", "Bash(rm -rf *)"],
  ["eval of a quoted string is parsed", "eval 'rm -rf build'", "deny", "Bash(rm -rf *)"],
  ["sh -c inside $(...)", "echo $(sh -c 'rm -rf build')", "deny", "Bash(rm -rf *)"],
  ["a wrapped command not denied follows the fallback", "timeout 5 echo fine", "allow"],
]);

const wholeTextStays = bashRows({ permissions: { allow: ["Bash(git status)", "Bash(echo *)", "Bash(true)"] }, approval: ASK_FALLBACK }, [
  ["allow 'git status' does not allow sudo git status", "sudo git status", "ask"],
  ["allow 'echo *' does not allow env echo", "env echo hi", "ask"],
  ["allow 'echo *' does not allow xargs echo", "ls | xargs echo", "ask"],
  ["allow 'echo *' does not allow timeout echo", "timeout 5 echo hi", "ask"],
  ["allow 'echo *' does not allow sh -c 'echo'", "sh -c 'echo hi'", "ask"],
  ["allow 'echo *' does not allow eval echo", "eval echo hi", "ask"],
  ["allow 'true' does not allow nohup true", "nohup true", "ask"],
]);

const wrapperAllowed = bashRows(
  {
    permissions: {
      allow: [
        "Bash(echo *)",
        "Bash(env *)",
        "Bash(timeout *)",
        "Bash(xargs *)",
        "Bash(ls *)",
        "Bash(sh -c *)",
        "Bash(bash -c *)",
        "Bash(eval *)",
        "Bash(sh *)",
      ],
    },
    approval: ASK_FALLBACK,
  },
  [
    ["env and its inner command both allowed", "env NODE_ENV=test echo hi", "allow"],
    ["timeout and its inner command both allowed", "timeout 5 echo hi", "allow"],
    ["xargs and its inner command both allowed", "ls | xargs echo", "allow"],
    ["sh -c with every inner part allowed", "sh -c 'echo a && echo b'", "allow"],
    ["bash -c with every inner part allowed", 'bash -c "ls | xargs echo"', "allow"],
    ["eval with the inner command allowed", "eval echo hi", "allow"],
    ["sh -c with an inner part not allowed", "sh -c 'echo a; touch made-{n}'", "ask"],
    ["env with an inner command not allowed", "env touch made-{n}", "ask"],
    ["xargs with an inner command not allowed", "echo made-{n} | xargs touch", "ask"],
    ["timeout with an inner command not allowed", "timeout 5 touch made-{n}", "ask"],
    ["sh -c with a dynamic string is not allowable", 'sh -c "$SCRIPT"', "ask", undefined, { explainOnly: "runs whatever $SCRIPT holds" }],
    ["sh -c with a partly dynamic string is not allowable", 'sh -c "echo $(cat x)"', "ask"],
    ["eval of a dynamic word is not allowable", "eval $CMD", "ask", undefined, { explainOnly: "runs whatever $CMD holds" }],
    ["a shell reading a script file is not allowable", "sh script-{n}.sh", "ask"],
    ["a shell reading stdin from a pipe is not allowable", "echo 'echo hi' | sh", "ask"],
    ["a shell reading a script by redirection is not allowable", "sh < script-{n}.sh", "ask"],
    ["env with an unsafe assignment for the inner command", "env PATH=/tmp echo hi", "ask", undefined, { open: "env VAR=x treated like a VAR=x prefix" }],
  ],
);

/** Wrapper and nested-shell rows. */
export const bashWrapperCases: CaseGroup = { group: "bash wrappers and nested shells", cases: [...innerDenied, ...wholeTextStays, ...wrapperAllowed] };
