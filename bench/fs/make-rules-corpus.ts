/**
 * The "rules" benchmark repositories: a monorepo-like tree of real package
 * sources (copied from node_modules/.pnpm) with ignore files of every rule
 * shape real repositories use, root and nested:
 * `**\/x/`, `**\/x`, `/x`, `a/b/c`, `packages/foo/dist`, `*.ext`, `!keep`
 * (including nested files re-including what a parent ignores), character
 * classes, escaped and unescaped trailing spaces, escaped `#`,
 * `dir/**\/*.tmp`, comments and blank lines; plus `.ignore` and `.rgignore`.
 *
 * - rules-3k: about 3,000 tracked files, 17 ignore files, and an ignored
 *   node_modules/ of the whole pnpm store (hard links) and ignored build
 *   output;
 * - rules-60k: twenty copies of rules-3k in one git repository (each keeping
 *   its ignore files, about 340 in all) under a root .gitignore of its own.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const PNPM_STORE = path.resolve(import.meta.dirname, "../../node_modules/.pnpm");

/** Package directories copied in (short name, store entry, path inside its node_modules). */
const PACKAGES: ReadonlyArray<readonly [string, string, string]> = [
  ["zod", "zod@4.6.7", "zod"],
  ["ai", "ai@6.0.326_zod@4.6.7", "ai"],
  ["ajv", "ajv@8.20.0", "ajv"],
  ["mcp-sdk", "@modelcontextprotocol+sdk@1.32.2_zod@4.6.7", "@modelcontextprotocol/sdk"],
  ["hono", "hono@4.13.19", "hono"],
  ["yaml", "yaml@2.9.1", "yaml"],
  ["undici", "undici@6.29.1", "undici"],
  ["execa", "execa@9.6.1", "execa"],
  ["diff", "diff@9.0.0", "diff"],
  ["typedoc", "typedoc@0.28.20_typescript@5.9.3", "typedoc"],
  ["kysely", "kysely@0.28.19", "kysely"],
  ["otel-api", "@opentelemetry+api@1.10.0", "@opentelemetry/api"],
];

/** The root .gitignore of one rules tree. */
const ROOT_GITIGNORE = `# dependencies
node_modules/

# editor and agent state (anchored wildcards: every path below must be tested)
**/.gemini/
**/.idea
.DS_Store

# build output
/tmp
/out/
[Bb]uild/
packages/kysely/dist
packages/hono/dist/cjs
packages/mcp-sdk/dist/cjs/
packages/*/coverage/
packages/**/*.tmp
*.log
!keep.log
*.tsbuildinfo

# odd names
\\#scratch.md
trailing-space.txt\\ 
unescaped-trailing.txt   
.cache/
`;

/** Nested ignore files, relative to the tree's root. */
const NESTED_IGNORE_FILES: Record<string, string> = {
  "packages/zod/.gitignore": "# zod: the v3 build is generated\n/v3\nlocales/*.d.cts\n\n**/tests/\n",
  "packages/zod/src/.gitignore": "v4/**/*.test.ts\n!v4/core/keep.test.ts\n",
  "packages/ai/.gitignore": "# the docs build output is checked in here\n!build/\n*.map\n!dist/index.js.map\n/test.d.ts\n",
  "packages/ai/src/.gitignore": "**/__snapshots__\ntest/\n!test/keep.ts\n",
  "packages/ajv/.gitignore": "dist/**/*.map\ndist/refs/\n!dist/refs/json-schema-draft-07.json\n",
  "packages/mcp-sdk/.gitignore": "dist/esm/examples/\n**/*.d.ts.map\n",
  "packages/hono/.gitignore": "dist/types/jsx\n[Dd]ist/utils/[a-c]*.js\n",
  "packages/yaml/.gitignore": "browser/dist/\n\\#*\n!important.log\n",
  "packages/undici/.gitignore": "scripts/\ndocs/**/*.md\n!docs/docs/api/Dispatcher.md\n",
  "packages/undici/.ignore": "!scripts/\n",
  "packages/execa/.gitignore": "types/**\n!types/arguments/\n",
  "packages/diff/.gitignore": "libcjs\n*.mjs\n",
  "packages/diff/.rgignore": "release-notes.md\n!*.mjs\n",
  "packages/typedoc/.gitignore": "static/\ndist/lib/**/locales/\n",
  "packages/typedoc/dist/.gitignore": "*.d.ts\n!index.d.ts\n",
  "packages/kysely/.gitignore": "# everything but the sources is generated\n*.d.ts\n!outdated-typescript.d.ts\n",
};

/** The root .gitignore of rules-60k, above the twenty copies. */
const X20_ROOT_GITIGNORE = `# generated per copy
**/.gemini/
/scratch
copy-*/packages/*/coverage/
copy-07/packages/zod/v4/locales
copy-1[0-2]/packages/yaml/dist/
*.swp
`;

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false", ...args], {
    cwd,
    stdio: "ignore",
    maxBuffer: 1 << 28,
  });
}

/** Writes `relative` under `root` as a hard link of a real file (cheap, real contents). */
function linkFile(root: string, relative: string, source: string): void {
  const target = path.join(root, relative);
  mkdirSync(path.dirname(target), { recursive: true });
  if (!existsSync(target)) linkSync(source, target);
}

/** The ignored and re-included odds and ends every package gets (hard links of its own README/package.json). */
function addGeneratedFiles(root: string, packageDirectory: string, index: number): void {
  const base = path.join(root, packageDirectory);
  const source = path.join(base, "package.json");
  const files = [
    "build/index.js",
    "build/index.d.ts",
    "build/chunks/a.js",
    "coverage/lcov.info",
    "coverage/lcov-report/index.html",
    ".gemini/settings.json",
    ".idea/workspace.xml",
    "debug.log",
    "keep.log",
    "important.log",
    "notes.tmp",
    "src/deep/nested/cache.tmp",
    "#scratch.md",
    "trailing-space.txt ",
    "trailing-space.txt",
    "unescaped-trailing.txt",
    ".cache/entry.json",
    "tmp/kept.txt",
    "tsconfig.tsbuildinfo",
    "__snapshots__/a.snap",
    "src/__snapshots__/b.snap",
  ];
  if (index % 3 === 0) files.push("Build/out.js", "BUILD/kept.js");
  for (const file of files) linkFile(base, file, source);
}

/** Builds one rules tree (no .git) under `root`. */
function makeRulesTree(root: string, withNodeModules: boolean): void {
  mkdirSync(root, { recursive: true });
  PACKAGES.forEach(([short, storeEntry, inner], index) => {
    const source = path.join(PNPM_STORE, storeEntry, "node_modules", inner);
    if (!existsSync(source)) return;
    const target = path.join(root, "packages", short);
    cpSync(source, target, { recursive: true, dereference: false, filter: (item) => !lstatSync(item).isSymbolicLink() });
    addGeneratedFiles(root, path.join("packages", short), index);
  });
  for (const [relative, text] of Object.entries(NESTED_IGNORE_FILES)) {
    mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    writeFileSync(path.join(root, relative), text);
  }
  // Files the nested re-inclusions are about.
  const readme = path.join(root, "packages", "zod", "package.json");
  for (const file of [
    "packages/zod/src/v4/core/keep.test.ts",
    "packages/zod/src/v4/core/a.test.ts",
    "packages/ai/src/test/keep.ts",
    "packages/ai/src/test/other.ts",
  ]) {
    linkFile(root, file, readme);
  }
  writeFileSync(path.join(root, ".gitignore"), ROOT_GITIGNORE);
  writeFileSync(path.join(root, "README.md"), "# rules bench repository\n");
  linkFile(root, "tmp/ignored.txt", readme);
  linkFile(root, "out/ignored.js", readme);
  linkFile(root, ".DS_Store", readme);
  if (withNodeModules) {
    const target = path.join(root, "node_modules", "store");
    mkdirSync(target, { recursive: true });
    execFileSync("cp", ["-al", `${PNPM_STORE}/.`, target]);
  }
}

function countTracked(repository: string): number {
  return execFileSync("git", ["ls-files"], { cwd: repository, maxBuffer: 1 << 28 })
    .toString()
    .split("\n")
    .filter(Boolean).length;
}

function countIgnoreFiles(directory: string): number {
  let count = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (entry.name !== ".git" && entry.name !== "node_modules") count += countIgnoreFiles(path.join(directory, entry.name));
    } else if (entry.name === ".gitignore" || entry.name === ".ignore" || entry.name === ".rgignore") count += 1;
  }
  return count;
}

/** Paths and sizes of the rules repositories. */
export interface RulesRepositories {
  rules3k: string;
  rules60k: string;
  tracked3k: number;
  tracked60k: number;
  /** Ignore files (.gitignore, .ignore, .rgignore) outside node_modules. */
  ignoreFiles3k: number;
  ignoreFiles60k: number;
}

/**
 * Creates (or reuses) rules-3k and rules-60k under `root` (the benchmark
 * directory of make-repository.ts); a marker file says they are complete.
 */
export function ensureRulesRepositories(root: string): RulesRepositories {
  const rules3k = path.join(root, "rules-3k");
  const rules60k = path.join(root, "rules-60k");
  const marker = path.join(root, "ready-rules-v1");
  if (!existsSync(marker)) {
    execFileSync("rm", ["-rf", rules3k, rules60k]);
    console.log(`building the rules benchmark repositories in ${root} (once) ...`);
    makeRulesTree(rules3k, true);
    git(rules3k, "init", "-q", "-b", "main");
    git(rules3k, "add", "-A");
    git(rules3k, "commit", "-q", "-m", "rules bench repository");
    mkdirSync(rules60k, { recursive: true });
    for (let index = 1; index <= 20; index += 1) {
      const target = path.join(rules60k, `copy-${String(index).padStart(2, "0")}`);
      mkdirSync(target);
      for (const entry of readdirSync(rules3k)) {
        if (entry !== ".git") execFileSync("cp", ["-al", path.join(rules3k, entry), target]);
      }
    }
    writeFileSync(path.join(rules60k, ".gitignore"), X20_ROOT_GITIGNORE);
    linkFile(rules60k, "scratch/ignored.txt", path.join(rules3k, "README.md"));
    git(rules60k, "init", "-q", "-b", "main");
    git(rules60k, "add", "-A");
    git(rules60k, "commit", "-q", "-m", "rules bench repository x20");
    writeFileSync(marker, "ok\n");
  }
  return {
    rules3k,
    rules60k,
    tracked3k: countTracked(rules3k),
    tracked60k: countTracked(rules60k),
    ignoreFiles3k: countIgnoreFiles(rules3k),
    ignoreFiles60k: countIgnoreFiles(rules60k),
  };
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  console.log(ensureRulesRepositories(path.join(os.tmpdir(), "agent-tools-bench-fs")));
}
