import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SdkError, ToolError } from "../errors.js";
import { type PathIntent, type PathPolicy, createPathPolicy } from "./path-policy.js";

let base: string;
let workdir: string;
let docs: string;
let shared: string;
let outside: string;
let skills: string;
let policy: PathPolicy;

beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "paths-")));
  workdir = path.join(base, "work");
  docs = path.join(base, "docs");
  shared = path.join(base, "shared");
  outside = path.join(base, "outside");
  skills = path.join(base, "data", "skills");
  for (const dir of [workdir, path.join(workdir, "src"), docs, shared, outside, path.join(skills, "pdf")]) mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(workdir, "src", "a.ts"), "a");
  writeFileSync(path.join(workdir, "café.md"), "nfc");
  writeFileSync(path.join(docs, "guide.md"), "guide");
  writeFileSync(path.join(outside, "secret.txt"), "secret");
  writeFileSync(path.join(skills, "pdf", "SKILL.md"), "skill");
  symlinkSync(path.join(outside, "secret.txt"), path.join(workdir, "escape.txt"));
  symlinkSync(outside, path.join(workdir, "escape-dir"));
  symlinkSync(path.join(workdir, "src", "a.ts"), path.join(workdir, "inner-link.ts"));
  symlinkSync(path.join(outside, "secret.txt"), path.join(docs, "escape.txt"));
  policy = createPathPolicy({
    workdir,
    additionalRoots: [
      { alias: "docs", path: docs, access: "read" },
      { alias: "shared", path: shared, access: "write" },
    ],
    skills: { rootDir: skills },
  });
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

type Row = {
  input: () => string;
  intent?: PathIntent;
  allowExternal?: boolean;
  display?: string | (() => string);
  absolute?: () => string;
  scope?: string;
  error?: RegExp;
  code?: string;
};

const rows: Array<[string, Row]> = [
  ["workspace-relative", { input: () => "src/a.ts", display: "src/a.ts", absolute: () => path.join(workdir, "src/a.ts"), scope: "workspace" }],
  ["dot and slashes collapse", { input: () => "./src//a.ts", display: "src/a.ts" }],
  ["backslashes become slashes", { input: () => "src\\a.ts", display: "src/a.ts" }],
  ["the workspace root", { input: () => ".", display: ".", absolute: () => workdir }],
  ["NFD input normalised to NFC", { input: () => "cafe\u0301.md", display: "café.md", absolute: () => path.join(workdir, "café.md") }],
  ["absolute inside the workspace", { input: () => path.join(workdir, "src/a.ts"), display: "src/a.ts", scope: "workspace" }],
  ["file:// URL", { input: () => `file://${path.join(workdir, "src/a.ts")}`, display: "src/a.ts" }],
  ["file://localhost URL, percent-decoded", { input: () => `file://localhost${path.join(workdir, "caf%C3%A9.md")}`, display: "café.md" }],
  ["file:// URL of another host", { input: () => "file://server/share/x", error: /another host/, code: "invalid_path" }],
  ["legacy workspace: prefix", { input: () => "workspace:src/a.ts", display: "src/a.ts" }],
  ["root:// read", { input: () => "root://docs/guide.md", display: "root://docs/guide.md", absolute: () => path.join(docs, "guide.md"), scope: "root" }],
  ["root:// alias is case-insensitive", { input: () => "ROOT://Docs/guide.md", display: "root://docs/guide.md" }],
  ["absolute inside a root shows root://", { input: () => path.join(docs, "guide.md"), display: "root://docs/guide.md", scope: "root" }],
  ["root:// without alias", { input: () => "root://", error: /names no root/, code: "invalid_path" }],
  [
    "unknown alias lists the available ones",
    { input: () => "root://nope/x", error: /Available roots: root:\/\/docs\/ \(read-only\), root:\/\/shared\/ \(read\/write\)/ },
  ],
  [
    "write to a read-only root",
    { input: () => "root://docs/new.md", intent: "write", error: /read-only project root root:\/\/docs/, code: "permission_denied" },
  ],
  ["edit in a read-only root", { input: () => "root://docs/guide.md", intent: "edit", code: "permission_denied" }],
  ["delete in a read-only root via absolute path", { input: () => path.join(docs, "guide.md"), intent: "delete", code: "permission_denied" }],
  ["write to a writable root", { input: () => "root://shared/out.txt", intent: "write", display: "root://shared/out.txt" }],
  ["root:// as cwd", { input: () => "root://shared", intent: "cwd", error: /working directory/, code: "permission_denied" }],
  [
    "skill:// path",
    { input: () => "skill://pdf/SKILL.md", display: "skill://pdf/SKILL.md", absolute: () => path.join(skills, "pdf", "SKILL.md"), scope: "skill" },
  ],
  ["legacy skill: prefix", { input: () => "skill:pdf/SKILL.md", display: "skill://pdf/SKILL.md" }],
  ["skills are read-only by default", { input: () => "skill://pdf/SKILL.md", intent: "write", code: "permission_denied" }],
  ["home-relative ~/ outside every root", { input: () => "~/x.txt", error: /outside the workspace/, code: "out_of_bounds" }],
  ["external absolute refused", { input: () => path.join(outside, "secret.txt"), error: /outside the workspace/, code: "out_of_bounds" }],
  [
    "external absolute allowed for Image / cwd",
    { input: () => path.join(outside, "secret.txt"), allowExternal: true, scope: "external", display: () => path.join(outside, "secret.txt") },
  ],
  [".. segment", { input: () => "src/../../outside/secret.txt", error: /"\.\." segment/, code: "invalid_path" }],
  [".. in an absolute path", { input: () => `${workdir}/../x`, code: "invalid_path" }],
  ["segment with a colon", { input: () => "src/C:evil", error: /containing ":"/, code: "invalid_path" }],
  ["NUL byte", { input: () => "src/a\u0000.ts", error: /NUL/, code: "invalid_path" }],
  ["UNC path", { input: () => "//server/share/file", error: /UNC/, code: "invalid_path" }],
  ["UNC with backslashes", { input: () => "\\\\server\\share\\file", error: /UNC/, code: "invalid_path" }],
  ["empty path", { input: () => "  ", error: /empty/, code: "invalid_path" }],
  ["symlink escape (file)", { input: () => "escape.txt", error: /resolves through a symlink/, code: "out_of_bounds" }],
  ["symlink escape (directory)", { input: () => "escape-dir/secret.txt", code: "out_of_bounds" }],
  ["symlink escape for a new file under a linked dir", { input: () => "escape-dir/new.txt", intent: "write", code: "out_of_bounds" }],
  ["symlink escape inside a root", { input: () => "root://docs/escape.txt", code: "out_of_bounds" }],
  ["symlink that stays inside", { input: () => "inner-link.ts", display: "inner-link.ts" }],
  [
    "deleting an escaping symlink removes the link itself",
    { input: () => "escape.txt", intent: "delete", display: "escape.txt", absolute: () => path.join(workdir, "escape.txt") },
  ],
  ["a new file in a new directory", { input: () => "new/dir/file.txt", intent: "write", display: "new/dir/file.txt" }],
];

describe("path policy", () => {
  it.each(rows)("%s", (_name, row) => {
    const run = () => policy.resolve(row.input(), { intent: row.intent ?? "read", allowExternal: row.allowExternal, label: "Read path" });
    if (row.error || row.code) {
      let caught: unknown;
      try {
        run();
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ToolError);
      if (row.code) expect((caught as ToolError).code).toBe(row.code);
      if (row.error) expect((caught as ToolError).message).toMatch(row.error);
      return;
    }
    const resolved = run();
    if (row.display) expect(resolved.displayPath).toBe(typeof row.display === "function" ? row.display() : row.display);
    if (row.absolute) expect(resolved.absolutePath).toBe(row.absolute());
    if (row.scope) expect(resolved.scope).toBe(row.scope);
  });

  it("rewrites absolute paths for display", () => {
    expect(policy.display(path.join(docs, "guide.md"))).toBe("root://docs/guide.md");
    expect(policy.display(path.join(workdir, "src", "a.ts"))).toBe("src/a.ts");
    expect(policy.display(path.join(outside, "x"))).toBe(path.join(outside, "x"));
  });

  it("gives a workspace nested in a broad read root its write access back (longest root wins)", () => {
    const nestedBase = realpathSync(mkdtempSync(path.join(os.tmpdir(), "nested-")));
    const project = path.join(nestedBase, "project");
    mkdirSync(project);
    const nested = createPathPolicy({ workdir: project, additionalRoots: [{ alias: "all", path: nestedBase, access: "read" }] });
    expect(nested.resolve(path.join(project, "x.txt"), { intent: "write" }).scope).toBe("workspace");
    expect(() => nested.resolve(path.join(nestedBase, "x.txt"), { intent: "write" })).toThrow(/read-only project root root:\/\/all/);
    rmSync(nestedBase, { recursive: true, force: true });
  });
});

describe("granting roots", () => {
  const grant = (roots: Parameters<typeof createPathPolicy>[0]["additionalRoots"]) => () => createPathPolicy({ workdir, additionalRoots: roots });

  it.each([
    ["a bad alias", [{ alias: "Docs!", path: "/tmp", access: "read" }], /alias must match/],
    ["a reserved alias", [{ alias: "workspace", path: "/tmp", access: "read" }], /reserved/],
    [
      "a duplicate alias",
      [
        { alias: "a", path: "/tmp", access: "read" },
        { alias: "a", path: "/usr", access: "read" },
      ],
      /used twice/,
    ],
    ["a relative path", [{ alias: "a", path: "rel", access: "read" }], /absolute/],
    ["a missing path", [{ alias: "a", path: "/definitely/missing", access: "read" }], /does not exist/],
    ["a file", [{ alias: "a", path: "/etc/hostname", access: "read" }], /not a directory/],
    ["the workspace itself", [{ alias: "a", path: "WORKDIR", access: "read" }], /inside the workspace/],
    ["a directory inside the workspace", [{ alias: "a", path: "WORKDIR/src", access: "read" }], /inside the workspace/],
    ["a writable parent of the workspace", [{ alias: "a", path: "BASE", access: "write" }], /only be granted read access/],
    [
      "overlapping grants",
      [
        { alias: "a", path: "BASE/docs", access: "read" },
        { alias: "b", path: "BASE/docs/../docs", access: "read" },
      ],
      /overlaps|\.\./,
    ],
    ["a UNC path", [{ alias: "a", path: "//server/share", access: "read" }], /UNC/],
  ])("refuses %s", (_name, roots, pattern) => {
    const substituted = (roots as Array<{ alias: string; path: string; access: "read" | "write" }>).map((r) => ({
      ...r,
      path: r.path.replace("WORKDIR", workdir).replace("BASE", base),
    }));
    expect(grant(substituted)).toThrow(SdkError);
    expect(grant(substituted)).toThrow(pattern);
  });

  it("fails closed when a root is replaced by a symlink after the grant", () => {
    const rootBase = realpathSync(mkdtempSync(path.join(os.tmpdir(), "drift-")));
    const granted = path.join(rootBase, "granted");
    const elsewhere = path.join(rootBase, "elsewhere");
    mkdirSync(granted);
    mkdirSync(elsewhere);
    writeFileSync(path.join(granted, "a.txt"), "a");
    writeFileSync(path.join(elsewhere, "a.txt"), "other");
    const drifting = createPathPolicy({ workdir, additionalRoots: [{ alias: "data", path: granted, access: "write" }] });
    expect(drifting.resolve("root://data/a.txt", { intent: "read" }).absolutePath).toBe(path.join(granted, "a.txt"));
    renameSync(granted, path.join(rootBase, "moved"));
    symlinkSync(elsewhere, granted);
    for (const intent of ["read", "list", "search", "write", "edit", "delete"] as const) {
      expect(() => drifting.resolve("root://data/a.txt", { intent })).toThrow(/changed since it was granted/);
      expect(() => drifting.resolve(path.join(granted, "a.txt"), { intent })).toThrow(ToolError);
    }
    expect(drifting.roots()[0]).toMatchObject({ alias: "data", status: "changed" });
    rmSync(granted);
    expect(drifting.roots()[0]?.status).toBe("missing");
    expect(() => drifting.resolve("root://data/a.txt", { intent: "read" })).toThrow(/missing/);
    rmSync(rootBase, { recursive: true, force: true });
  });

  it("fails closed for a stored grant whose recorded canonical path no longer matches", () => {
    const stale = createPathPolicy({ workdir, additionalRoots: [{ alias: "docs", path: docs, access: "read", canonicalPath: shared }] });
    expect(stale.roots()[0]?.status).toBe("changed");
    expect(() => stale.resolve("root://docs/guide.md", { intent: "read" })).toThrow(/changed since it was granted/);
  });
});
