/**
 * Path rules on ApplyPatch: `Edit(...)` covers it, and every path a header
 * of the patch names is judged (added, updated, deleted, a move's
 * destination), even in a patch that does not parse; a deny on any one of
 * them denies the call, an allow must cover all of them.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ShellParser, loadShellParser } from "../shell/shell-parser.js";
import { type TestWorkspace, compileTest, createTestWorkspace, decideCall } from "./__fixtures__/rule-fixtures.js";
import type { PermissionSettings } from "./permission-settings.js";
import { callTargetsOf, fileRuleCovers, targetPathsOf } from "./rule-tools.js";

let shell: ShellParser;
let ws: TestWorkspace;
beforeAll(async () => {
  shell = await loadShellParser();
  ws = createTestWorkspace();
  for (const file of ["src/a.ts", "src/b.ts", "config/app.json", "secrets/key.txt", "docs/readme.md"]) {
    mkdirSync(path.dirname(path.join(ws.workdir, file)), { recursive: true });
    writeFileSync(path.join(ws.workdir, file), "x\n");
  }
  symlinkSync(path.join(ws.workdir, "secrets", "key.txt"), path.join(ws.workdir, "docs", "public.txt"));
});
afterAll(() => {
  shell.close();
  ws.remove();
});

const ASK = { approval: { defaultDecision: "ask" as const } };
const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");
const decide = (settings: PermissionSettings, text: string) =>
  decideCall(compileTest(settings, shell), ws.environment(ASK), { tool: "ApplyPatch", input: { patch: text } }).decision;

describe("ApplyPatch under path rules", () => {
  test("Edit(...) covers ApplyPatch", () => {
    expect(fileRuleCovers("Edit", "ApplyPatch", undefined)).toBe(true);
  });

  test("every header path is a target, with the intent its operation resolves with", () => {
    const text = patch("*** Update File: src/a.ts", "*** Move to: src/c.ts", "@@", "-x", "+y", "*** Delete File: src/b.ts", "*** Add File: docs/new.md", "+n");
    expect(targetPathsOf("ApplyPatch", { patch: text })).toEqual(["src/a.ts", "src/c.ts", "src/b.ts", "docs/new.md"]);
    expect(callTargetsOf("ApplyPatch", { patch: text }, "edit")).toEqual([
      { path: "src/a.ts", intent: "edit" },
      { path: "src/c.ts", intent: "write" },
      { path: "src/b.ts", intent: "delete" },
      { path: "docs/new.md", intent: "write" },
    ]);
  });

  const cases: Array<[string, PermissionSettings, string, "allow" | "ask" | "deny"]> = [
    [
      "an allow covering every path allows",
      { allow: ["Edit(src/**)"] },
      patch("*** Update File: src/a.ts", "@@", "-x", "+y", "*** Add File: src/new.ts", "+n"),
      "allow",
    ],
    [
      "an allow covering only some paths asks",
      { allow: ["Edit(src/**)"] },
      patch("*** Update File: src/a.ts", "@@", "-x", "+y", "*** Update File: config/app.json", "@@", "-x", "+y"),
      "ask",
    ],
    [
      "a deny on the last path denies",
      { deny: ["Edit(secrets/**)"], allow: ["Edit(src/**)"] },
      patch("*** Update File: src/a.ts", "@@", "-x", "+y", "*** Add File: secrets/new.txt", "+n"),
      "deny",
    ],
    [
      "a deny on a move destination denies",
      { deny: ["Edit(secrets/**)"] },
      patch("*** Update File: src/a.ts", "*** Move to: secrets/a.ts", "@@", "-x", "+y"),
      "deny",
    ],
    ["a deny on a deleted file denies", { deny: ["Edit(secrets/**)"] }, patch("*** Delete File: secrets/key.txt"), "deny"],
    [
      "an update through a symlink is judged where it lands",
      { deny: ["Edit(secrets/**)"] },
      patch("*** Update File: docs/public.txt", "@@", "-x", "+y"),
      "deny",
    ],
    [
      "a patch that does not parse still has its paths judged",
      { deny: ["Edit(secrets/**)"] },
      "*** Update File: src/a.ts\n-x\n+y\n*** Update File: secrets/key.txt\n-x",
      "deny",
    ],
    ["ApplyPatch(...) names the tool itself", { deny: ["ApplyPatch(config/**)"] }, patch("*** Update File: config/app.json", "@@", "-x", "+y"), "deny"],
  ];
  test.each(cases)("%s", (_name, settings, text, expected) => {
    expect(decide(settings, text)).toBe(expected);
  });
});

describe("Read(...) deny and ask rules over ApplyPatch, which shows and moves the content of the files it changes", () => {
  const cases: Array<[string, PermissionSettings, string, "allow" | "ask" | "deny"]> = [
    [
      "a Read deny denies an update of the file",
      { deny: ["Read(secrets/**)"], allow: ["Edit"] },
      patch("*** Update File: secrets/key.txt", "@@", "-x", "+y"),
      "deny",
    ],
    [
      "a Read deny denies a move out of it",
      { deny: ["Read(secrets/**)"], allow: ["Edit"] },
      patch("*** Update File: secrets/key.txt", "*** Move to: stolen.txt"),
      "deny",
    ],
    ["a Read ask asks", { ask: ["Read(secrets/**)"], allow: ["Edit"] }, patch("*** Delete File: secrets/key.txt"), "ask"],
    ["a Read deny elsewhere changes nothing", { deny: ["Read(secrets/**)"], allow: ["Edit"] }, patch("*** Update File: src/a.ts", "@@", "-x", "+y"), "allow"],
    ["a Read allow does not allow a patch", { allow: ["Read(src/**)"] }, patch("*** Update File: src/a.ts", "@@", "-x", "+y"), "ask"],
  ];
  test.each(cases)("%s", (_name, settings, text, expected) => {
    expect(decide(settings, text)).toBe(expected);
  });
});

describe("permission modes over ApplyPatch", () => {
  test("acceptEdits allows a patch whose every path is inside the workspace, and only then", () => {
    expect(decide({ defaultMode: "acceptEdits" }, patch("*** Update File: src/a.ts", "@@", "-x", "+y", "*** Add File: docs/n.md", "+n"))).toBe("allow");
    expect(
      decide(
        { defaultMode: "acceptEdits" },
        patch("*** Update File: src/a.ts", "@@", "-x", "+y", `*** Add File: ${path.join(ws.base, "elsewhere.txt")}`, "+n"),
      ),
    ).not.toBe("allow");
  });
});

describe("a patch naming more paths than the rules judge", () => {
  test("is denied without resolving its paths", () => {
    const text = patch(...Array.from({ length: 257 }, (_, index) => `*** Delete File: d/f${index}.txt`));
    expect(decide({ allow: ["Edit"] }, text)).toBe("deny");
    expect(decide({ allow: ["Edit"] }, patch(...Array.from({ length: 256 }, (_, index) => `*** Delete File: src/f${index}.txt`)))).toBe("allow");
  });
});
