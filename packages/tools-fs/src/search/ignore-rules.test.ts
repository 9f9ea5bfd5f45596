import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { walkTree } from "./file-walker.js";
import { RIPGREP_WALK_FLAGS, locateRipgrep } from "./ripgrep.js";

const rgPath = locateRipgrep();
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function makeTree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "agent-tools-ignore-"));
  roots.push(root);
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(root, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  return root;
}

function ripgrepFiles(root: string): string[] {
  const result = spawnSync(rgPath!, ["--files", ...RIPGREP_WALK_FLAGS, "--", "."], { cwd: root, encoding: "utf8" });
  return result.stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => line.replace(/^\.\//, ""))
    .sort();
}

async function walkerFiles(root: string): Promise<string[]> {
  return (await walkTree(root)).map((entry) => entry.relativePath).sort();
}

const SOURCES = [
  "index.ts",
  "docs/api/a.md",
  "docs/keep.txt",
  "docs/readme.txt",
  "src/docs/api/b.md",
  "dist/x.js",
  "src/dist/y.js",
  "packages/p1/out/o.js",
  "packages/p1/src/s.ts",
  "packages/p2/out/o.js",
  "gen/g.ts",
  "src/gen/h.ts",
  "src/gen/h.js",
  "a/b.txt",
  "a/x/y/b.txt",
  "Build/z.js",
  "build/z.js",
  "notes.LOG",
  "notes.log",
  "important.txt",
  "#file",
  "local/l.txt",
  "sub/local/l.txt",
  "sub/other/local/l.txt",
  "sub/gen/k.ts",
  "trail.txt",
];

const CASES: Array<[string, Record<string, string>]> = [
  ["anchored rules", { ".gitignore": "/dist\ndocs/api/\npackages/*/out\n**/gen/*.ts\na/**/b.txt\n" }],
  ["negations interleaved with anchored rules", { ".gitignore": "*.txt\n!docs/keep.txt\ndocs/\n!important.txt\n" }],
  ["case-sensitive rules", { ".gitignore": "Build/\n*.LOG\n" }],
  ["nested anchored rules", { ".gitignore": "*.js\n", "sub/.gitignore": "/local\n!*.ts\n", "src/.gitignore": "/docs\n" }],
  [".ignore overrides .gitignore", { ".gitignore": "*.log\n*.txt\n", ".ignore": "!notes.log\n!docs/*.txt\n" }],
  ["a sub directory re-includes what a parent ignores by name", { ".gitignore": "gen/\n", "sub/.gitignore": "!gen/\n" }],
  ["comments, escapes and trailing spaces", { ".gitignore": "# a comment\n\\#file\ntrail.txt   \n\n  \n" }],
  ["wildcard heads", { ".gitignore": "*/api/\n?ist/\n" }],
  ["info/exclude with anchored rules", { ".git/HEAD": "ref: refs/heads/main\n", ".git/info/exclude": "/docs\nsrc/gen/\n" }],
];

describe.skipIf(!rgPath)("the walker lists what rg --files lists", () => {
  it.each(CASES)("%s", async (_label, rules) => {
    const files: Record<string, string> = { ...rules };
    for (const source of SOURCES) files[source] = "x\n";
    const root = makeTree(files);
    expect(await walkerFiles(root)).toEqual(ripgrepFiles(root));
  });

  it("agrees on random rule sets", async () => {
    const pool = [
      "*.js",
      "!*.js",
      "/dist",
      "dist/",
      "docs/",
      "!docs/keep.txt",
      "docs/api/",
      "**/gen/*.ts",
      "gen/",
      "!gen/",
      "*.txt",
      "!important.txt",
      "a/**/b.txt",
      "packages/*/out",
      "/local",
      "local/",
      "*.LOG",
      "src/",
      "!src/gen/",
      "!*.ts",
      "sub/*",
      "b.txt",
    ];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const pick = (count: number) => `${Array.from({ length: count }, () => pool[Math.floor(random() * pool.length)]!).join("\n")}\n`;
    for (let round = 0; round < Number(process.env.IGNORE_ROUNDS ?? 25); round += 1) {
      const files: Record<string, string> = { ".gitignore": pick(3), "sub/.gitignore": pick(2), ".ignore": random() < 0.3 ? pick(2) : "" };
      for (const source of SOURCES) files[source] = "x\n";
      const root = makeTree(files);
      expect(
        await walkerFiles(root),
        `round ${round}: ${JSON.stringify(files[".gitignore"])} / ${JSON.stringify(files["sub/.gitignore"])} / ${JSON.stringify(files[".ignore"])}`,
      ).toEqual(ripgrepFiles(root));
    }
  });
});
