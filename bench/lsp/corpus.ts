/**
 * The 3,000-file TypeScript corpus of the language-server benchmark and of the
 * definition/references test on it: the declarations aws-cdk-lib publishes
 * (2,941 `.d.ts` of its own modules, 3 example `.ts`, 60 `.d.ts` of its bundled
 * dependencies) with its peer dependency `constructs`, both as `npm pack`
 * fetches them from the npm registry (the only source CI reaches). Code we did
 * not write, on the registry, pinned by version and integrity.
 *
 * No npm package found in the time given (issue 38) ships 3,000 `.ts` sources;
 * the checked ones ship declarations (@babylonjs/core 3,382, @pulumi/aws 2,715)
 * or fewer sources (effect about 680, @tensorflow/tfjs-core none).
 *
 *   pnpm exec tsx bench/lsp/corpus.ts [--dir=PATH]
 *
 * fetches it into `bench/lsp/.corpus` (gitignored) unless it is there, and
 * prints the manifest. Each tarball's sha512 is checked against the pinned
 * integrity and against the registry's metadata (`npm view <spec>
 * dist.integrity`) before anything is extracted. The project folder is
 * written beside its final place and renamed into it when complete, so a
 * concurrent or interrupted fetch never leaves half a corpus behind.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ExecaProcessRunner } from "@agent-tools/node";

/** One pinned npm tarball of the corpus. */
export interface CorpusPackage {
  readonly name: string;
  readonly version: string;
  /** The registry's `dist.integrity` of that version (checked again against the registry when fetched). */
  readonly integrity: string;
  /** Where it goes, relative to the project folder (`.` for the project itself). */
  readonly into: string;
}

/** The project package and its peer dependency, pinned. */
export const CORPUS_PACKAGES: readonly CorpusPackage[] = [
  {
    name: "aws-cdk-lib",
    version: "2.278.0",
    integrity: "sha512-E5OfaAeWGpZk9TWUodhsNLLCPzM8ObydK5BewEgfOGwYt6UA+8po/+SyLLuFr4DoSjw17vMZg9eCNP6nlymNJg==",
    into: ".",
  },
  {
    name: "constructs",
    version: "10.5.1",
    integrity: "sha512-f/TfFXiS3G/yVIXDjOQn9oTlyu9Wo7Fxyjj7lb8r92iO81jR2uST+9MstxZTmDGx/CgIbxCXkFXgupnLTNxQZg==",
    into: "node_modules/constructs",
  },
];

/** What `manifest.json` in the corpus folder records. */
export interface CorpusManifest {
  readonly packages: ReadonlyArray<{ name: string; version: string; integrity: string }>;
  /** `.ts`/`.d.ts` files the tsconfig includes (the project's own, node_modules excluded). */
  readonly projectFiles: number;
  /** `.ts`/`.d.ts` files in the folder, bundled dependencies and constructs included. */
  readonly typeScriptFiles: number;
  readonly fetchedAt: string;
}

/** A fetched corpus. */
export interface Corpus {
  /** The project folder: the tsconfig and the declarations. */
  readonly root: string;
  readonly manifest: CorpusManifest;
}

/**
 * The tsconfig written at the project root: every declaration of the package
 * checked (no skipLibCheck: declarations are all the project has), no ambient
 * `@types` (the package ships none; its imports of `fs` or `@aws-sdk/*` are
 * among the errors the project has as published).
 */
export const CORPUS_TSCONFIG = {
  compilerOptions: { target: "ES2022", lib: ["ES2022"], module: "commonjs", moduleResolution: "node10", strict: true, noEmit: true, types: [] },
  include: ["**/*.ts"],
  exclude: ["node_modules"],
} as const;

/** The default cache folder of the bench (gitignored). */
export const DEFAULT_CORPUS_DIR = path.join(import.meta.dirname, ".corpus");

/** The folder name of the corpus under a cache folder, keyed by the pinned versions. */
export function corpusFolderName(): string {
  return CORPUS_PACKAGES.map((item) => `${item.name}-${item.version}`).join("+");
}

/** Fetches the corpus into `cacheDir` unless a complete copy is there; returns its folder and manifest. */
export async function fetchCorpus(cacheDir: string = DEFAULT_CORPUS_DIR): Promise<Corpus> {
  const root = path.join(cacheDir, corpusFolderName());
  const manifestPath = path.join(root, "corpus-manifest.json");
  if (existsSync(manifestPath)) return { root, manifest: JSON.parse(readFileSync(manifestPath, "utf8")) as CorpusManifest };
  mkdirSync(cacheDir, { recursive: true });
  const staging = `${root}.partial-${process.pid}-${Date.now()}`;
  const tarballs = path.join(staging, ".tarballs");
  mkdirSync(tarballs, { recursive: true });
  const runner = new ExecaProcessRunner();
  try {
    for (const item of CORPUS_PACKAGES) {
      const spec = `${item.name}@${item.version}`;
      const registryIntegrity = (await run(runner, "npm", ["view", spec, "dist.integrity"], staging)).trim();
      if (registryIntegrity !== item.integrity) throw new Error(`${spec}: the registry's integrity ${registryIntegrity} is not the pinned ${item.integrity}`);
      const packed = await run(runner, "npm", ["pack", spec, "--pack-destination", tarballs, "--json"], staging);
      const filename = (JSON.parse(packed) as Array<{ filename: string }>)[0]?.filename;
      if (!filename) throw new Error(`npm pack ${spec} named no tarball`);
      const tarball = path.join(tarballs, path.basename(filename));
      const actual = `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`;
      if (actual !== item.integrity) throw new Error(`${spec}: the tarball's sha512 ${actual} is not the pinned ${item.integrity}`);
      const into = path.join(staging, item.into);
      mkdirSync(into, { recursive: true });
      // Declarations, sources and package.json files only: the compiled JavaScript is not part of the project.
      await run(runner, "tar", ["-xzf", tarball, "-C", into, "--strip-components=1", "--no-same-owner", "--wildcards", "*.ts", "*package.json"], staging);
    }
    rmSync(tarballs, { recursive: true, force: true });
    writeFileSync(path.join(staging, "tsconfig.json"), `${JSON.stringify(CORPUS_TSCONFIG, null, 2)}\n`);
    const manifest: CorpusManifest = {
      packages: CORPUS_PACKAGES.map(({ name, version, integrity }) => ({ name, version, integrity })),
      projectFiles: typeScriptFiles(staging, false).length,
      typeScriptFiles: typeScriptFiles(staging, true).length,
      fetchedAt: new Date().toISOString(),
    };
    writeFileSync(path.join(staging, "corpus-manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    try {
      renameSync(staging, root);
    } catch (error) {
      // Another process finished first: keep its copy.
      if (!existsSync(manifestPath)) throw error;
      rmSync(staging, { recursive: true, force: true });
    }
    return { root, manifest: JSON.parse(readFileSync(manifestPath, "utf8")) as CorpusManifest };
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  } finally {
    await runner.close();
  }
}

/** The corpus's `.ts` and `.d.ts` files (absolute, sorted); with `withNodeModules` false, those the tsconfig includes. */
export function typeScriptFiles(root: string, withNodeModules: boolean): string[] {
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name === ".tarballs" || (!withNodeModules && entry.name === "node_modules")) continue;
        walk(full);
      } else if (entry.isFile() && entry.name.endsWith(".ts")) found.push(full);
    }
  };
  walk(root);
  return found.sort();
}

async function run(runner: ExecaProcessRunner, command: string, args: readonly string[], cwd: string): Promise<string> {
  const child = runner.spawn({ command, args, cwd, env: { npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" } });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.onOutput((chunk) => (chunk.stream === "stdout" ? stdout : stderr).push(chunk.data));
  const exit = await child.exited;
  await child.outputClosed;
  if (exit.exitCode !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed (${exit.exitCode ?? exit.signal}): ${Buffer.concat(stderr).toString("utf8").slice(-2000)}`);
  }
  return Buffer.concat(stdout).toString("utf8");
}

async function main(): Promise<void> {
  const dirFlag = process.argv.slice(2).find((argument) => argument.startsWith("--dir="));
  const corpus = await fetchCorpus(dirFlag ? path.resolve(dirFlag.slice("--dir=".length)) : DEFAULT_CORPUS_DIR);
  process.stdout.write(`${corpus.root}\n${JSON.stringify(corpus.manifest, null, 2)}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) await main();
