/**
 * Builds the corpus of the edit-format benchmark from real commits of public
 * repositories: for each repository, modified text files of commits taken in
 * a seeded order (at most 2 per commit), their old text, new text and git's
 * unified diff. The corpus is a generated cache outside git:
 * `bench/edit-formats/.corpus/cases.jsonl` and `manifest.json` (repositories,
 * the commit each walk started from, the commits used, files left out).
 *
 * Rebuild (the same seed and heads give the same corpus):
 *
 *   pnpm exec tsx bench/edit-formats/build-corpus.ts [--files=1500] [--seed=37] [--git-dir=owner/name=PATH ...]
 *
 * Each repository is read from `--git-dir`, else from the local mirror
 * `/work/.mirror/<owner>+<name>/repo`; without either, clone it first:
 * `git clone --bare https://github.com/<owner>/<name>.git /tmp/<name>.git`
 * and pass `--git-dir=<owner>/<name>=/tmp/<name>.git`.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { collectChanges } from "./corpus/collect-changes.js";
import type { CorpusCase, CorpusManifest, CorpusRepository } from "./corpus/corpus-types.js";
import { createRandomSource, seedOf } from "./corpus/seeded-random.js";

/** The repositories of the measured corpus and the commit each walk started from (their newest commit when fetched). */
export const CORPUS_REPOSITORIES: ReadonlyArray<{ repo: string; head: string; language: string }> = [
  { repo: "expressjs/express", head: "a3714473feb3d2908add734d340e7755fd85e0a3", language: "JavaScript" },
  { repo: "psf/requests", head: "1f6589ec3a1ee910f9a65cc3ceac60b26677bc0e", language: "Python" },
  { repo: "BurntSushi/ripgrep", head: "3fce3b5bb0236da2df6d99672afb8a719642eca7", language: "Rust" },
  { repo: "sindresorhus/got", head: "d00d845a0b435365ec73ea5a1fca6e17ee677184", language: "TypeScript" },
  { repo: "spf13/cobra", head: "adbc8813901bba65827259daa8e22ff94ec1f30e", language: "Go" },
  { repo: "jqlang/jq", head: "579e6f76cffd7643ba4002a2c3618a5ea710589a", language: "C" },
];

/** The default corpus folder (gitignored). */
export const DEFAULT_CORPUS_DIR = path.join(import.meta.dirname, ".corpus");

/** What {@link buildCorpus} reads and writes. */
export interface BuildCorpusOptions {
  readonly repositories: ReadonlyArray<{ repo: string; gitDir: string; head?: string }>;
  readonly files: number;
  readonly seed: number;
  readonly outDir: string;
  readonly perCommit?: number;
}

/** Builds the corpus into `outDir` and returns its manifest and cases. */
export function buildCorpus(options: BuildCorpusOptions): { manifest: CorpusManifest; cases: CorpusCase[] } {
  const skipped: Record<string, number> = {};
  const cases: CorpusCase[] = [];
  const repositories: CorpusRepository[] = [];
  const count = options.repositories.length;
  options.repositories.forEach((source, index) => {
    // An even share per repository; the last ones take what earlier ones could not fill.
    const share = Math.ceil((options.files - cases.length) / (count - index));
    const random = createRandomSource(options.seed ^ seedOf(source.repo));
    const collected = collectChanges({ ...source, random, files: share, skipped, ...(options.perCommit ? { perCommit: options.perCommit } : {}) });
    cases.push(...collected.cases);
    repositories.push({ repo: source.repo, head: collected.head, commits: collected.commits, files: collected.cases.length });
  });
  const manifest: CorpusManifest = {
    seed: options.seed,
    maxFiles: options.files,
    builtAt: new Date().toISOString(),
    repositories,
    skipped,
    rebuild: `pnpm exec tsx bench/edit-formats/build-corpus.ts --files=${options.files} --seed=${options.seed}`,
  };
  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(path.join(options.outDir, "cases.jsonl"), `${cases.map((item) => JSON.stringify(item)).join("\n")}\n`);
  writeFileSync(path.join(options.outDir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  return { manifest, cases };
}

function main(): void {
  const flags = new Map<string, string[]>();
  for (const argument of process.argv.slice(2)) {
    const match = /^--([a-z-]+)=(.*)$/.exec(argument);
    if (!match) throw new Error(`unknown argument ${argument}: use --files=N --seed=N --git-dir=owner/name=PATH --out=DIR`);
    flags.set(match[1] as string, [...(flags.get(match[1] as string) ?? []), match[2] as string]);
  }
  const gitDirs = new Map((flags.get("git-dir") ?? []).map((value) => [value.slice(0, value.indexOf("=")), value.slice(value.indexOf("=") + 1)]));
  const repositories = CORPUS_REPOSITORIES.map(({ repo, head }) => {
    const gitDir = gitDirs.get(repo) ?? `/work/.mirror/${repo.replace("/", "+")}/repo`;
    if (!existsSync(gitDir)) {
      const name = repo.split("/")[1];
      throw new Error(
        `no git directory for ${repo}: clone it (git clone --bare https://github.com/${repo}.git /tmp/${name}.git) and pass --git-dir=${repo}=/tmp/${name}.git`,
      );
    }
    return { repo, gitDir, head };
  });
  const files = Number(flags.get("files")?.[0] ?? 1500);
  const seed = Number(flags.get("seed")?.[0] ?? 37);
  const outDir = flags.get("out")?.[0] ?? DEFAULT_CORPUS_DIR;
  const { manifest, cases } = buildCorpus({ repositories, files, seed, outDir });
  for (const repository of manifest.repositories) console.log(`${repository.repo}: ${repository.files} files of ${repository.commits.length} commits`);
  console.log(`${cases.length} files written to ${outDir}; left out: ${JSON.stringify(manifest.skipped)}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
