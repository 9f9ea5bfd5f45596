import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ShellParser, loadShellParser } from "../shell/shell-parser.js";
import { type TestWorkspace, compileTest, createTestWorkspace, decideCall } from "./__fixtures__/rule-fixtures.js";
import type { PermissionSettings } from "./permission-settings.js";

let shell: ShellParser;
let ws: TestWorkspace;
beforeAll(async () => {
  shell = await loadShellParser();
  ws = createTestWorkspace();
  mkdirSync(path.join(ws.workdir, ".git", "hooks"), { recursive: true });
  writeFileSync(path.join(ws.workdir, ".git", "config"), "x");
  mkdirSync(path.join(ws.base, "outside"), { recursive: true });
  // Links that hide where a write lands: into .git, into the data directory, out of the workspace.
  symlinkSync(path.join(ws.workdir, ".git"), path.join(ws.workdir, "meta"));
  symlinkSync(ws.dataDir, path.join(ws.workdir, "state"));
  symlinkSync(path.join(ws.base, "outside"), path.join(ws.workdir, "out"));
});
afterAll(() => {
  shell.close();
  ws.remove();
});

const ASK = { approval: { defaultDecision: "ask" as const } };
const decide = (settings: PermissionSettings, tool: string, input: Record<string, unknown>) =>
  decideCall(compileTest(settings, shell), ws.environment(ASK), { tool, input });

describe("modes see where a write lands (after symlinks)", () => {
  test("bypassPermissions asks for a write into .git through a link", () => {
    expect(decide({ defaultMode: "bypassPermissions" }, "Write", { path: "meta/hooks/pre-commit" })).toMatchObject({ decision: "ask", layer: "mode" });
  });
  test("bypassPermissions asks for a write into the data directory through a link", () => {
    expect(decide({ defaultMode: "bypassPermissions" }, "Edit", { path: "state/settings.json" }).reason).toMatch(/data directory/);
  });
  test("acceptEdits does not allow a write a link takes out of the workspace", () => {
    expect(decide({ defaultMode: "acceptEdits" }, "Write", { path: "out/x.txt" }).decision).toBe("ask");
    expect(decide({ defaultMode: "acceptEdits" }, "Write", { path: "in/x.txt" })).toMatchObject({ decision: "allow", layer: "mode" });
  });
  test("a deny on .git catches a write through a link", () => {
    expect(decide({ deny: ["Edit(/.git/**)"] }, "Write", { path: "meta/config" })).toMatchObject({ decision: "deny", rule: "Edit(/.git/**)" });
  });
  test("plan mode allows read-only MCP tools and denies the others", () => {
    expect(decide({ defaultMode: "plan" }, "mcp_github_list_issues", {}).decision).not.toBe("deny");
    expect(decide({ defaultMode: "plan" }, "mcp_github_create_issue", {})).toMatchObject({ decision: "deny", layer: "mode" });
  });
  test("dontAsk turns the at-least-ask of an unparsable line into a deny", () => {
    expect(decide({ defaultMode: "dontAsk", allow: ["Bash(echo *)"] }, "Bash", { command: "echo 'open" }).decision).toBe("deny");
  });
});
