/**
 * Path rules and modes on LSP: it is judged as a Read of its path
 * (`Read(...)` covers it, its own name takes a path specifier), a
 * workspace_symbols call without a path is judged by name only, and plan
 * mode lets it run (read-only).
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
  for (const file of ["src/a.ts", "secret/key.ts"]) {
    mkdirSync(path.dirname(path.join(ws.workdir, file)), { recursive: true });
    writeFileSync(path.join(ws.workdir, file), "export {};\n");
  }
});
afterAll(() => {
  shell.close();
  ws.remove();
});

const ASK = { approval: { defaultDecision: "ask" as const } };
const decide = (settings: PermissionSettings, input: Record<string, unknown>) =>
  decideCall(compileTest(settings, shell), ws.environment(ASK), { tool: "LSP", input });

describe("LSP under path rules and modes", () => {
  test("Read(...) names it; its own name takes a path; it resolves as a read", () => {
    expect(familyOf("Read")).toContain("LSP");
    expect(fileRuleCovers("Read", "LSP", undefined)).toBe(true);
    expect(specifierKindOf("LSP")).toBe("path");
    expect(pathIntentOf("LSP", undefined)).toBe("read");
  });

  test.each<[string, PermissionSettings, Record<string, unknown>, "allow" | "ask" | "deny"]>([
    ["a Read deny covers it", { deny: ["Read(secret/**)"] }, { action: "hover", path: "secret/key.ts", line: 1, character: 1 }, "deny"],
    ["a Read allow covers it", { allow: ["Read(src/**)"] }, { action: "document_symbols", path: "src/a.ts" }, "allow"],
    ["a Read deny elsewhere leaves it allowed (read-only)", { deny: ["Read(secret/**)"] }, { action: "document_symbols", path: "src/a.ts" }, "allow"],
    ["an LSP(...) rule names it", { deny: ["LSP(src/**)"] }, { action: "document_symbols", path: "src/a.ts" }, "deny"],
    ["workspace_symbols without a path: a Read deny does not apply", { deny: ["Read(secret/**)"] }, { action: "workspace_symbols", query: "Key" }, "allow"],
    ["plan mode lets it run", { defaultMode: "plan" }, { action: "document_symbols", path: "src/a.ts" }, "allow"],
  ])("%s", (_name, settings, input, expected) => {
    expect(decide(settings, input).decision).toBe(expected);
  });
});
