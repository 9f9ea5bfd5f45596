import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ShellParser, loadShellParser } from "../shell/shell-parser.js";
import { type TestWorkspace, compileTest, createTestWorkspace, decideCall } from "./__fixtures__/rule-fixtures.js";
import { isCaseInsensitive } from "./call-paths.js";
import { compilePathPattern, matchPathPattern } from "./path-pattern.js";
import type { PermissionSettings } from "./permission-settings.js";

let shell: ShellParser;
let ws: TestWorkspace;
beforeAll(async () => {
  shell = await loadShellParser();
  ws = createTestWorkspace();
  const files = ["src/a.ts", "src/deep/b.ts", "src/deep/c.md", "config/app.json", ".env", "sub/.env", "certs/site.pem", "docs/readme.md", "secrets/key.txt"];
  for (const file of files) {
    mkdirSync(path.dirname(path.join(ws.workdir, file)), { recursive: true });
    writeFileSync(path.join(ws.workdir, file), "x");
  }
  mkdirSync(path.join(ws.home, ".ssh"), { recursive: true });
  writeFileSync(path.join(ws.home, ".ssh", "id_rsa"), "key");
  writeFileSync(path.join(ws.extra, "notes.md"), "x");
  mkdirSync(path.join(ws.base, "outside"), { recursive: true });
  writeFileSync(path.join(ws.base, "outside", "target.txt"), "x");
  // A link inside the workspace to the home's .ssh, one from src to outside, and a public name for a secret file.
  symlinkSync(path.join(ws.home, ".ssh"), path.join(ws.workdir, "keys"));
  symlinkSync(path.join(ws.base, "outside"), path.join(ws.workdir, "src", "escape"));
  symlinkSync(path.join(ws.workdir, "secrets", "key.txt"), path.join(ws.workdir, "docs", "public.txt"));
  symlinkSync(path.join(ws.workdir, "docs"), path.join(ws.workdir, "alias-of-docs"));
});
afterAll(() => {
  shell.close();
  ws.remove();
});

const ASK = { approval: { defaultDecision: "ask" as const } };
const decide = (settings: PermissionSettings, tool: string, input: Record<string, unknown>, environment = ws.environment(ASK)) =>
  decideCall(compileTest(settings, shell), environment, { tool, input });

describe("path rules on the canonical path", () => {
  const cases: [string, PermissionSettings, string, Record<string, unknown>, "allow" | "ask" | "deny"][] = [
    ["** crosses folders", { allow: ["Edit(src/**)"] }, "Write", { path: "src/deep/new.ts" }, "allow"],
    ["a glob relative to the workdir", { allow: ["Edit(src/**)"] }, "Edit", { path: "config/app.json" }, "ask"],
    ["* stays within one folder", { allow: ["Edit(src/*)"] }, "Edit", { path: "src/a.ts" }, "allow"],
    ["* does not cross folders", { allow: ["Edit(src/*)"] }, "Edit", { path: "src/deep/b.ts" }, "ask"],
    ["/ is the project root", { allow: ["Edit(/src/**)"] }, "Write", { path: "src/x.ts" }, "allow"],
    ["./ is the workdir", { allow: ["Edit(./src/**)"] }, "Write", { path: "./src/x.ts" }, "allow"],
    ["an absolute input inside the workspace", { allow: ["Edit(/src/**)"] }, "Write", { path: "WORK/src/x.ts" }, "allow"],
    ["a trailing / is the folder and all below", { allow: ["Read(docs/)"] }, "Read", { path: "docs/readme.md" }, "allow"],
    ["a literal folder covers what is below it", { deny: ["Read(/config)"] }, "Read", { path: "config/app.json" }, "deny"],
    ["// is absolute", { deny: ["Read(//etc/**)"] }, "Read", { path: "/etc/hosts" }, "deny"],
    ["~/ is the home", { deny: ["Read(~/.ssh/**)"] }, "Read", { path: "HOME/.ssh/id_rsa" }, "deny"],
    ["~/ literal folder", { deny: ["Read(~/.ssh)"] }, "Read", { path: "HOME/.ssh/id_rsa" }, "deny"],
    ["a name without / matches at any depth", { deny: ["Read(.env)"] }, "Read", { path: "sub/.env" }, "deny"],
    ["a name glob at any depth", { deny: ["Read(*.pem)"] }, "Read", { path: "certs/site.pem" }, "deny"],
    ["a name glob does not match other names", { deny: ["Read(*.pem)"] }, "Read", { path: "src/a.ts" }, "allow"],
    ["dotfiles match * (dot: true)", { allow: ["Read(/**)"], ask: ["Read(/*)"] }, "Read", { path: ".env" }, "ask"],
    ["root://alias/", { allow: ["Edit(root://extra/**)"] }, "Write", { path: "root://extra/notes.md" }, "allow"],
    ["root://alias/ of another root", { deny: ["Edit(root://extra/**)"] }, "Write", { path: "src/a.ts" }, "ask"],
    ["a .. in the call is resolved first", { deny: ["Edit(/config/**)"] }, "Write", { path: "src/../config/app.json" }, "deny"],
    ["a leading .. in the rule is the parent of the workdir", { deny: ["Read(../outside/**)"] }, "Read", { path: "BASE/outside/target.txt" }, "deny"],
    ["a Read deny covers Grep", { deny: ["Read(/secrets/**)"] }, "Grep", { pattern: "x", path: "secrets/key.txt" }, "deny"],
    ["a Read deny covers Image paths", { deny: ["Read(*.pem)"] }, "Image", { paths: ["src/a.ts", "certs/site.pem"] }, "deny"],
    ["an Edit deny covers Delete", { deny: ["Edit(/config/**)"] }, "Delete", { path: "config/app.json" }, "deny"],
    ["a Write rule covers only Write", { deny: ["Write(/config/**)"] }, "Edit", { path: "config/app.json" }, "ask"],
    ["case matters on this file system", { deny: ["Read(/SECRETS/**)"] }, "Read", { path: "secrets/key.txt" }, "allow"],
  ];
  test.each(cases)("%s", (_name, settings, tool, input, decision) => {
    const replaced = Object.fromEntries(
      Object.entries(input).map(([key, value]) => [
        key,
        typeof value === "string" ? value.replace(/^WORK/, ws.workdir).replace(/^HOME/, ws.home).replace(/^BASE/, ws.base) : value,
      ]),
    );
    expect(decide(settings, tool, replaced).decision).toBe(decision);
  });
});

describe("symlinks", () => {
  test("a deny on the target of a symlink catches the link (canonical path)", () => {
    const verdict = decide({ deny: ["Read(~/.ssh/**)"] }, "Read", { path: "keys/id_rsa" });
    expect(verdict).toMatchObject({ decision: "deny", rule: "Read(~/.ssh/**)" });
    expect(verdict.reason).toContain('for the path "keys/id_rsa"');
  });
  test("a public name of a secret file is denied by the secret's rule", () => {
    expect(decide({ deny: ["Read(/secrets/**)"] }, "Read", { path: "docs/public.txt" }).decision).toBe("deny");
  });
  test("an allow does not follow a link out of what it covers", () => {
    expect(decide({ allow: ["Edit(src/**)"] }, "Write", { path: "src/escape/target.txt" })).toMatchObject({ decision: "ask", layer: "approval" });
  });
  test("an allow of the link's own name does not allow its target", () => {
    expect(
      decide({ allow: ["Read(docs/**)"] }, "Read", { path: "docs/public.txt" }, ws.environment({ approval: { policies: { Read: "ask" } } })).decision,
    ).toBe("ask");
  });
  test("a deny also matches the lexical path (before symlinks)", () => {
    expect(decide({ deny: ["Read(/alias-of-docs/**)"] }, "Read", { path: "alias-of-docs/readme.md" }).decision).toBe("deny");
    expect(
      decide({ allow: ["Read(/alias-of-docs/**)"] }, "Read", { path: "alias-of-docs/readme.md" }, ws.environment({ approval: { policies: { Read: "ask" } } }))
        .decision,
    ).toBe("ask");
  });
});

describe("walk tools (List, Glob, Grep) on a folder", () => {
  test("a deny that could match anything below the folder denies the walk, naming the rule", () => {
    const verdict = decide({ deny: ["Read(/secrets/**)"] }, "Grep", { pattern: "x", path: "." });
    expect(verdict).toMatchObject({ decision: "deny", rule: "Read(/secrets/**)" });
    expect(decide({ deny: ["Read(/secrets/**)"] }, "Glob", { pattern: "**/*.ts" }).decision).toBe("deny");
    expect(decide({ deny: ["Read(~/.ssh/**)"] }, "List", { path: ws.base }).decision).toBe("deny");
  });
  test("a walk beside the denied folder is not denied", () => {
    expect(decide({ deny: ["Read(/secrets/**)"] }, "Grep", { pattern: "x", path: "src" }).decision).toBe("allow");
  });
  test("a name denied at any depth denies every walk that could reach it (fail closed)", () => {
    expect(decide({ deny: ["Read(.env)"] }, "Grep", { pattern: "x", path: "src" }).decision).toBe("deny");
  });
  test("an allow allows a walk only when it covers everything below the folder", () => {
    const approval = ws.environment({ approval: { policies: { Grep: "ask", List: "ask" } } });
    expect(decide({ allow: ["Read(src/**)"] }, "Grep", { pattern: "x", path: "src" }, approval).decision).toBe("allow");
    expect(decide({ allow: ["Read(src/**)"] }, "Grep", { pattern: "x", path: "src/deep" }, approval).decision).toBe("allow");
    expect(decide({ allow: ["Read(src/**/*.ts)"] }, "Grep", { pattern: "x", path: "src" }, approval).decision).toBe("ask");
    expect(decide({ allow: ["Read(src/*)"] }, "List", { path: "src" }, approval).decision).toBe("ask");
    expect(decide({ allow: ["Read(src/**)"] }, "List", { path: "." }, approval).decision).toBe("ask");
  });
  test("Glob on a file walks its folder", () => {
    expect(decide({ deny: ["Read(/src/deep/**)"] }, "Glob", { pattern: "*.md", path: "src/deep/b.ts" }).decision).toBe("deny");
    expect(decide({ deny: ["Read(/src/deep/c.md)"] }, "Glob", { pattern: "*", path: "src/a.ts" }).decision).toBe("deny");
    expect(decide({ deny: ["Read(/config/**)"] }, "Glob", { pattern: "*", path: "src/a.ts" }).decision).toBe("allow");
  });
  test("Grep on a file is matched as that file", () => {
    const approval = ws.environment({ approval: { policies: { Grep: "ask" } } });
    expect(decide({ allow: ["Read(src/*.ts)"] }, "Grep", { pattern: "x", path: "src/a.ts" }, approval).decision).toBe("allow");
  });
});

describe("without a path policy (lint, replay)", () => {
  test("paths resolve lexically against the workdir", () => {
    const environment = ws.environment({ ...ASK, paths: false });
    expect(decide({ allow: ["Edit(src/**)"] }, "Write", { path: "src/new.ts" }, environment).decision).toBe("allow");
    expect(decide({ deny: ["Edit(/config/**)"] }, "Write", { path: "src/../config/x" }, environment).decision).toBe("deny");
  });
});

describe("case-insensitive file systems", () => {
  test("the probe answers per folder and is remembered", () => {
    const memory = new Map<string, boolean>();
    expect(isCaseInsensitive(ws.workdir, memory)).toBe(false);
    expect(memory.get(ws.workdir)).toBe(false);
  });
  test("with nocase, patterns match names in any case", () => {
    const pattern = compilePathPattern("Read(/Secrets/**)", "/Secrets/**");
    const bases = { workdir: [ws.workdir], home: [ws.home], roots: new Map() };
    const target = path.join(ws.workdir, "secrets", "key.txt");
    expect(matchPathPattern(pattern, target, { bases, nocase: true, mode: "path" })).toBe(true);
    expect(matchPathPattern(pattern, target, { bases, nocase: false, mode: "path" })).toBe(false);
  });
});
