/**
 * Path rules and modes on NotebookEdit: `Edit(...)` covers it (as Write,
 * ApplyPatch and Delete), its own name takes a path specifier, it
 * resolves its path as an edit, acceptEdits allows it inside the
 * workspace, and plan mode refuses it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ShellParser, loadShellParser } from "../shell/shell-parser.js";
import { type TestWorkspace, compileTest, createTestWorkspace, decideCall } from "./__fixtures__/rule-fixtures.js";
import type { PermissionSettings } from "./permission-settings.js";
import { familyOf, fileRuleCovers, pathIntentOf, specifierKindOf } from "./rule-tools.js";

let shell: ShellParser;
let ws: TestWorkspace;
beforeAll(async () => {
  shell = await loadShellParser();
  ws = createTestWorkspace();
  for (const file of ["nb/analysis.ipynb", "secret/keys.ipynb"]) {
    mkdirSync(path.dirname(path.join(ws.workdir, file)), { recursive: true });
    writeFileSync(path.join(ws.workdir, file), "{}\n");
  }
});
afterAll(() => {
  shell.close();
  ws.remove();
});

const ASK = { approval: { defaultDecision: "ask" as const } };
const decide = (settings: PermissionSettings, notebook: string) =>
  decideCall(compileTest(settings, shell), ws.environment(ASK), { tool: "NotebookEdit", input: { path: notebook, cell_index: 1, new_source: "x" } });

describe("NotebookEdit under path rules and modes", () => {
  test("Edit(...) names it, without its metadata too; its own name takes a path; it resolves as an edit", () => {
    expect(familyOf("Edit")).toContain("NotebookEdit");
    expect(fileRuleCovers("Edit", "NotebookEdit", undefined)).toBe(true);
    expect(specifierKindOf("NotebookEdit")).toBe("path");
    expect(pathIntentOf("NotebookEdit", undefined)).toBe("edit");
  });

  test.each<[string, PermissionSettings, string, "allow" | "ask" | "deny"]>([
    ["an Edit deny covers it", { deny: ["Edit(secret/**)"] }, "secret/keys.ipynb", "deny"],
    ["an Edit allow covers it", { allow: ["Edit(nb/**)"] }, "nb/analysis.ipynb", "allow"],
    ["an Edit allow elsewhere leaves it asked", { allow: ["Edit(nb/**)"] }, "secret/keys.ipynb", "ask"],
    ["a NotebookEdit(...) rule names it", { deny: ["NotebookEdit(nb/**)"] }, "nb/analysis.ipynb", "deny"],
    ["acceptEdits allows it inside the workspace", { defaultMode: "acceptEdits" }, "nb/analysis.ipynb", "allow"],
    ["plan mode refuses it", { defaultMode: "plan" }, "nb/analysis.ipynb", "deny"],
  ])("%s", (_name, settings, notebook, expected) => {
    expect(decide(settings, notebook).decision).toBe(expected);
  });
});
