import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ShellParser, loadShellParser } from "../shell/shell-parser.js";
import { METADATA, type TestWorkspace, compileTest, createTestWorkspace, testVocabulary } from "./__fixtures__/rule-fixtures.js";
import { lintPermissions } from "./lint-permissions.js";
import { replayPermissions } from "./replay-permissions.js";

let shell: ShellParser;
let ws: TestWorkspace;
beforeAll(async () => {
  shell = await loadShellParser();
  ws = createTestWorkspace();
  writeFileSync(path.join(ws.workdir, "a.txt"), "x");
});
afterAll(() => {
  shell.close();
  ws.remove();
});

const kinds = (findings: readonly { rule: string; kind: string }[]) => findings.map((finding) => `${finding.kind}:${finding.rule}`);

describe("lintPermissions", () => {
  test("a rule that can never fire is a finding, not a throw", () => {
    const findings = lintPermissions({ allow: ["bash", "Bash()", "ProcessStop(x)"] }, { vocabulary: testVocabulary(), shell });
    expect(kinds(findings)).toEqual(["never-fires:bash", "never-fires:Bash()", "never-fires:ProcessStop(x)"]);
    expect(findings[0]!.message).toMatch(/Did you mean `Bash`/);
    expect(findings[2]!.message).toContain("permissions.project.allow[2]");
  });

  test("without a vocabulary every name is accepted but specifiers are still checked", () => {
    expect(kinds(lintPermissions({ allow: ["SomeTool", "Read(src/../x)"] }, { shell }))).toEqual(["never-fires:Read(src/../x)"]);
  });

  test("wildcards that match more than they seem to", () => {
    const findings = lintPermissions({ allow: ["Bash(git * main)", "Bash(*)", "Read(**)", "Edit(//**)", "mcp_*"] }, { vocabulary: testVocabulary(), shell });
    expect(kinds(findings).filter((item) => item.startsWith("broad-wildcard"))).toEqual([
      "broad-wildcard:Bash(git * main)",
      "broad-wildcard:Bash(*)",
      "broad-wildcard:Read(**)",
      "broad-wildcard:Edit(//**)",
      "broad-wildcard:mcp_*",
    ]);
    expect(findings[0]!.message).toMatch(/matches any number of words/);
  });

  test("a precise allow is no finding", () => {
    expect(lintPermissions({ allow: ["Bash(git status)", "Edit(src/**)", "mcp_github_*"] }, { vocabulary: testVocabulary(), shell })).toEqual([]);
  });

  test("an allow shadowed by a deny or ask that covers it, duplicates and redundant rules", () => {
    const findings = lintPermissions(
      {
        managed: { deny: ["Bash(curl *)"], ask: ["Edit"] },
        project: { allow: ["Bash(curl *)", "Write(src/**)", "Bash", "Bash(ls)"], ask: ["Read"], deny: ["Read"] },
      },
      { vocabulary: testVocabulary(), shell },
    );
    expect(kinds(findings)).toEqual(["duplicate:Read", "duplicate:Bash(curl *)", "shadowed:Write(src/**)", "redundant:Bash(ls)"]);
    expect(findings[0]!.message).toMatch(/the deny rule is checked first, so this one never fires/);
    expect(findings.find((item) => item.rule === "Write(src/**)")?.message).toMatch(/the ask rule "Edit" \(permissions\.managed\.ask\[0\]\)/);
  });

  test("path rules the shell can walk around, and names denied at any depth", () => {
    const findings = lintPermissions({ deny: ["Read(~/.ssh/**)", "Read(.env)"] }, { vocabulary: testVocabulary(), shell });
    expect(kinds(findings)).toEqual(["path-rule-bypassed:Read(~/.ssh/**)", "path-rule-bypassed:Read(.env)", "walk-blocked:Read(.env)"]);
    const noBash = { ...testVocabulary(), toolNames: new Set(["Read", "Grep"]) };
    expect(kinds(lintPermissions({ deny: ["Read(~/.ssh/**)"] }, { vocabulary: noBash, shell }))).toEqual([]);
  });
});

describe("replayPermissions", () => {
  const calls = [
    { toolName: "Bash", input: { command: "git status" } },
    { toolName: "Bash", input: { command: "git push origin main" } },
    { toolName: "Bash", input: { command: "rm -rf build" } },
    { toolName: "Write", input: { path: "a.txt" } },
    { toolName: "Read", input: { path: "a.txt" }, metadata: METADATA.Read! },
  ];

  test("compares the decisions of two rule sets, with the same evaluation the registry runs", () => {
    const options = { vocabulary: testVocabulary(), shell, environment: ws.environment({ paths: false, approval: { defaultDecision: "ask" } }) };
    const report = replayPermissions({ allow: ["Bash"] }, { allow: ["Bash(git status)"], deny: ["Bash(rm -rf *)"] }, calls, options);
    expect(report.calls.map((item) => [item.before.decision, item.after.decision, item.changed])).toEqual([
      ["allow", "allow", false],
      ["allow", "ask", true],
      ["allow", "deny", true],
      ["ask", "ask", false],
      ["allow", "allow", false],
    ]);
    expect(report.changed).toBe(2);
    expect(report.calls[2]!.after).toMatchObject({ rule: "Bash(rm -rf *)", layer: "project" });
  });

  test("accepts compiled permissions and refuses invalid ones as the registry would", () => {
    const options = { vocabulary: testVocabulary(), shell, environment: ws.environment() };
    const compiled = compileTest({ deny: ["Write"] }, shell);
    expect(replayPermissions(compiled, { deny: ["Write"] }, calls, options).changed).toBe(0);
    expect(() => replayPermissions({}, { deny: ["Wrte"] }, calls, options)).toThrow(/did you mean `Write`/i);
  });

  test("an unknown tool replays as a custom tool that changes state", () => {
    const options = { vocabulary: testVocabulary(), shell, environment: ws.environment({ approval: { defaultDecision: "ask" } }) };
    const report = replayPermissions({}, { defaultMode: "plan" }, [{ toolName: "Gone", input: {} }], options);
    expect(report.calls[0]).toMatchObject({ before: { decision: "ask" }, after: { decision: "deny", layer: "mode" }, changed: true });
  });
});
