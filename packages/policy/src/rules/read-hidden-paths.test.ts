import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compilePathPattern, matchPathPattern, type PathBases } from "./path-pattern.js";
import { type HiddenPathData, readHiddenPaths } from "./read-hidden-paths.js";

const bases: PathBases = { workdir: ["/w/repo"], home: ["/home/ada"], roots: new Map([["docs", ["/srv/docs"]]]) };

/** What the lsp fs guard does with the data (server-guard/server-fs-guard.cjs). */
function hiddenByData(entry: HiddenPathData, target: string): boolean {
  const { Minimatch } = createRequire(import.meta.url)(entry.minimatch) as typeof import("minimatch");
  const matchers = entry.globs.map((glob) => new Minimatch(glob, entry.options));
  const test = (value: string) => matchers.some((matcher) => matcher.match(value));
  if (entry.bases === null) return target.split("/").some((segment) => segment !== "" && test(segment));
  return entry.bases.some((base) => {
    if (target !== base && !target.startsWith(base.endsWith("/") ? base : `${base}/`)) return false;
    const relative = path.relative(base, target);
    return relative === "" ? entry.self : test(relative);
  });
}

const SPECIFIERS = [
  "secret/**",
  "secret",
  "/secret/*.ts",
  "*.env",
  ".env",
  "~/.ssh/**",
  "//etc/passwd",
  "root://docs/private/**",
  "../sibling/**",
  ".",
  "src/**/*.key",
  "[k]ey.ts",
];
const TARGETS = [
  "/w/repo/secret",
  "/w/repo/secret/key.ts",
  "/w/repo/secret/a/b.ts",
  "/w/repo/src/secret/x.ts",
  "/w/repo/a.env",
  "/w/repo/deep/.env",
  "/w/repo/.envrc",
  "/home/ada/.ssh/id_rsa",
  "/etc/passwd",
  "/srv/docs/private/x.md",
  "/srv/docs/public/x.md",
  "/w/sibling/x",
  "/w/repo",
  "/w/repo/src/a/b/c.key",
  "/w/repo/key.ts",
  "/w/repo/other.ts",
];

describe("readHiddenPaths", () => {
  it("hides exactly what the policy's matcher matches for Read deny and ask rules", () => {
    for (const specifier of SPECIFIERS) {
      const rule = `Read(${specifier})`;
      const [entry] = readHiddenPaths({ deny: [rule] }, bases, false);
      const pattern = compilePathPattern(rule, specifier);
      for (const target of TARGETS) {
        const expected = matchPathPattern(pattern, target, { bases, nocase: false, mode: "path" });
        expect(entry && hiddenByData(entry, target), `${rule} on ${target}`).toBe(expected);
      }
    }
  });

  it("takes deny and ask rules on Read and LSP, not allow rules or other tools", () => {
    const data = readHiddenPaths({ deny: ["Read(a/**)", "Edit(b/**)", "Bash(rm *)"], ask: ["LSP(c/**)"], allow: ["Read(d/**)"] }, bases, false);
    expect(data.map((entry) => entry.rule)).toEqual(["Read(a/**)", "LSP(c/**)"]);
  });

  it("a Read rule without a specifier hides every path", () => {
    const [entry] = readHiddenPaths({ deny: ["Read"] }, bases, false);
    expect(entry && hiddenByData(entry, "/anything/at/all")).toBe(true);
  });
});
