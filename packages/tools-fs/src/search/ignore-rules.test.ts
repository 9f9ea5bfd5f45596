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
  const result = spawnSync(rgPath!, ["--files", ...RIPGREP_WALK_FLAGS, "--", "."], { cwd: root, encoding: "utf8", maxBuffer: 1 << 26 });
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

/** The files of the rule-shape trees: a small monorepo with build output, editor state and odd names. */
const SHAPE_SOURCES = [
  "README.md",
  "tmp/t.txt",
  "out/o.js",
  "packages/foo/dist/index.js",
  "packages/foo/dist/esm/index.js",
  "packages/foo/src/index.ts",
  "packages/foo/src/dist/keep.ts",
  "packages/foo/build/b.js",
  "packages/foo/Build/c.js",
  "packages/foo/BUILD/d.js",
  "packages/foo/coverage/lcov.info",
  "packages/foo/.gemini/settings.json",
  "packages/foo/src/.gemini",
  "packages/foo/.idea/workspace.xml",
  "packages/foo/notes.tmp",
  "packages/foo/src/deep/er/cache.tmp",
  "packages/foo/debug.log",
  "packages/foo/keep.log",
  "packages/foo/#scratch.md",
  "packages/foo/trailing.txt ",
  "packages/foo/trailing.txt",
  "packages/foo/spaces.txt",
  "packages/foo/!bang.txt",
  "packages/bar/dist/index.js",
  "packages/bar/dist/index.js.map",
  "packages/bar/build/keep/k.js",
  "packages/bar/src/a/b/c/d.ts",
  "packages/bar/c",
  "packages/bar/src/gen/g.ts",
  "packages/bar/src/gen/g.js",
  "packages/bar/docs/guide/x.tmp",
  "packages/bar/docs/x.tmp",
  "a/b/c/file.txt",
  "a/c",
  "x/a/b/c/file.txt",
  "docs/a.tmp",
  "docs/sub/b.tmp",
  "docs/sub/deeper/c.tmp",
  "docs/sub/c.md",
  "logs/app1.log",
  "logs/appA.log",
  "logs/app-.log",
  "logs/app].log",
  "lib/x.js",
  "lib/y.mjs",
  "lib/z.cjs",
  "src/foo.generated.ts",
  "src/foobar/baz.ts",
  "src/.cache/c.json",
  "vendor/a/b.js",
  "vendor/keep/b.js",
  "logs/app[.log",
  "docs/é.md",
  "docs/e.md",
  "docs/日本.md",
];

const SHAPE_CASES: Array<[string, Record<string, string>]> = [
  ["**/x/ and **/x", { ".gitignore": "**/.gemini/\n**/.idea\n**/gen\n" }],
  ["/x and a/b/c", { ".gitignore": "/tmp\n/out/\na/b/c\n" }],
  ["packages/foo/dist and wildcard heads", { ".gitignore": "packages/foo/dist\npackages/*/coverage/\n*/foo/build\n" }],
  ["*.ext with negations", { ".gitignore": "*.log\n!keep.log\n*.map\n!packages/bar/dist/index.js.map\n" }],
  [
    "a nested .gitignore re-includes what the root ignores",
    {
      ".gitignore": "[Bb]uild/\n*.log\ndist/\n*.tmp\n",
      "packages/bar/.gitignore": "!build/\n!dist/\n!*.tmp\n",
      "packages/foo/src/.gitignore": "!dist/\n",
    },
  ],
  ["character classes", { ".gitignore": "[Bb]uild/\nlogs/app[0-9].log\nlogs/app[!0-9].log\nlogs/app[]].log\nlogs/app[a-].log\n[^.]*.cjs\n" }],
  ["escaped and unescaped trailing spaces", { ".gitignore": "packages/foo/trailing.txt\\ \nspaces.txt   \n" }],
  ["escaped # and !", { ".gitignore": "\\#scratch.md\n\\!bang.txt\n# a comment\n\n   \n" }],
  ["dir/**/*.tmp and other **", { ".gitignore": "docs/**/*.tmp\npackages/**/docs/**\nx/**/c\n**/src/**/*.ts\n!**/keep.ts\n" }],
  ["trailing /** and leading **", { ".gitignore": "vendor/**\n!vendor/keep/\n**foo.generated.ts\nsrc/foo**/\n" }],
  ["alternatives", { ".gitignore": "lib/*.{mjs,cjs}\n{docs,tmp}/\n" }],
  ["invalid lines are skipped", { ".gitignore": "logs/[unclosed\n*.md\nbad\\\n{open\n" }],
  ["/** ignores everything below the file", { "packages/.gitignore": "/**\n!/bar/\n" }],
  [
    ".rgignore over .ignore over .gitignore, deeper first within a kind",
    {
      ".gitignore": "*.log\n*.md\n",
      ".ignore": "!keep.log\n*.ts\n",
      ".rgignore": "!packages/foo/src/index.ts\n",
      "packages/foo/.gitignore": "!debug.log\n",
      "packages/foo/.ignore": "!*.ts\n",
      "docs/.gitignore": "!c.md\n",
    },
  ],
  ["info/exclude is weakest", { ".git/HEAD": "ref: refs/heads/main\n", ".git/info/exclude": "*.ts\n/docs\n", ".gitignore": "!packages/**/*.ts\n" }],
  [
    "a nested repository does not stop the outer rules (--no-require-git)",
    { ".gitignore": "*.log\n", "packages/foo/.git/HEAD": "ref: x\n", "packages/foo/.gitignore": "*.tmp\n" },
  ],
  ["globset quirks: an unclosed [ is literal, a class can match /", { ".gitignore": "logs/app[.log\n*[!x]?.js\nsrc/foo[/]bar\n" }],
  ["? matches one UTF-8 byte, not one character", { ".gitignore": "docs/?.md\n/docs/??????.md\n" }],
  ["an escaped / separates; empty globs", { ".gitignore": "packages\\/foo/src\n/\nlib/\n!\\/\n", "docs/.gitignore": "*\n!\n" }],
  ["CRLF and a byte-order mark", { ".gitignore": "\uFEFF*.log\r\n/tmp\r\n!keep.log  \r\n" }],
];

describe.skipIf(!rgPath)("the walker lists what rg --files lists", () => {
  it.each(CASES)("%s", async (_label, rules) => {
    const files: Record<string, string> = { ...rules };
    for (const source of SOURCES) files[source] = "x\n";
    const root = makeTree(files);
    expect(await walkerFiles(root)).toEqual(ripgrepFiles(root));
  });

  it.each(SHAPE_CASES)("rule shapes: %s", async (_label, rules) => {
    const files: Record<string, string> = { ...rules };
    for (const source of SHAPE_SOURCES) files[source] ??= "x\n";
    const root = makeTree(files);
    expect(await walkerFiles(root)).toEqual(ripgrepFiles(root));
  });

  it("walks a sub-directory under its ancestors' rules, anchored ones included", async () => {
    const files: Record<string, string> = {
      ".gitignore": "packages/foo/dist\npackages/*/src/a/\ndocs/**/*.tmp\n*.log\n",
      "packages/.ignore": "foo/src/deep/\n!*.log\n",
      "packages/foo/.git/HEAD": "ref: x\n",
      "packages/foo/.git/info/exclude": "/notes.tmp\n",
    };
    for (const source of SHAPE_SOURCES) files[source] ??= "x\n";
    const root = makeTree(files);
    for (const base of ["packages", "packages/foo", "packages/foo/src", "packages/bar/src", "docs/sub"]) {
      expect(await walkerFiles(path.join(root, base)), base).toEqual(ripgrepFiles(path.join(root, base)));
    }
  });

  it("agrees on random rule sets of every shape, nested", async () => {
    const pool = [
      "**/.gemini/",
      "**/gen",
      "/tmp",
      "a/b/c",
      "packages/foo/dist",
      "packages/*/dist/",
      "*.log",
      "!keep.log",
      "!*.log",
      "[Bb]uild/",
      "!build/",
      "logs/app[0-9].log",
      "trailing.txt\\ ",
      "spaces.txt   ",
      "\\#scratch.md",
      "docs/**/*.tmp",
      "*.tmp",
      "!*.tmp",
      "dist/",
      "!dist/",
      "src/",
      "!src/",
      "**/src/**/*.ts",
      "!**/keep.ts",
      "vendor/**",
      "!vendor/keep/",
      "*.{mjs,cjs}",
      "c",
      "!c",
      "/**",
      "*/foo/build",
      "# comment",
    ];
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const pick = (count: number) => `${Array.from({ length: count }, () => pool[Math.floor(random() * pool.length)]!).join("\n")}\n`;
    const places = [".gitignore", "packages/.gitignore", "packages/foo/.gitignore", "packages/bar/src/.gitignore", ".ignore", "packages/foo/.rgignore"];
    for (let round = 0; round < Number(process.env.IGNORE_ROUNDS ?? 40); round += 1) {
      const files: Record<string, string> = {};
      for (const place of places) if (random() < 0.6) files[place] = pick(1 + Math.floor(random() * 4));
      for (const source of SHAPE_SOURCES) files[source] ??= "x\n";
      const root = makeTree(files);
      const rules = places.filter((place) => files[place]).map((place) => `${place}: ${JSON.stringify(files[place])}`);
      expect(await walkerFiles(root), `round ${round}: ${rules.join(" / ")}`).toEqual(ripgrepFiles(root));
    }
  });

  it("agrees on random globs of every token (classes, escapes, alternatives, non-ASCII names)", async () => {
    const names = ["a", "b", "ab", "a-b", "a]b", "A", "x.ts", ".x", "a b", "a  ", "é", "日本", "[a]", "{a}", "a,b", "!a", "#a", "a\\b", "-"];
    const atoms = [
      "a",
      "b",
      "*",
      "?",
      "**",
      "[ab]",
      "[!a]",
      "[^a]",
      "[a-c]",
      "[]a]",
      "[a-]",
      "\\*",
      "\\[",
      "{a,b}",
      "{ab,x.*}",
      ".",
      "x",
      "é",
      "\\ ",
      " ",
      "[z-a]",
      "[",
      "]",
      "\\",
      "\\/",
    ];
    let seed = 5;
    const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
    const files: Record<string, string> = {};
    for (let index = 0; index < 40; index += 1) {
      const file = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(names)).join("/");
      // A name cannot be both a file and a directory.
      if (!Object.keys(files).some((other) => other.startsWith(`${file}/`) || file.startsWith(`${other}/`))) files[file] = "x\n";
    }
    for (let round = 0; round < Number(process.env.IGNORE_ROUNDS ?? 40); round += 1) {
      const lines = Array.from({ length: 1 + Math.floor(random() * 4) }, () => {
        const segments = Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
          Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(atoms)).join(""),
        );
        let line = segments.join("/");
        if (random() < 0.3) line = `/${line}`;
        if (random() < 0.2) line += "/";
        return random() < 0.25 ? `!${line}` : line;
      });
      const root = makeTree({ ...files, ".gitignore": `${lines.join("\n")}\n` });
      expect(await walkerFiles(root), `round ${round}: ${JSON.stringify(lines)}`).toEqual(ripgrepFiles(root));
    }
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
