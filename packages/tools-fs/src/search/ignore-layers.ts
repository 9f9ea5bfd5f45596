import { readFileSync } from "node:fs";
import path from "node:path";
import { compileIgnoreFile } from "./compile-ignore-file.js";
import type { CompiledIgnoreFile } from "./gitignore-matcher.js";
import type { SearchCaches } from "./search-caches.js";

/**
 * The rules of one ignore file, applying to paths below `directory`.
 * Matching is ripgrep's: each entry is judged by its own path relative to
 * the file's directory (the walk never enters an ignored directory, so
 * parents need no test); the last matching rule of the file wins;
 * case-sensitive.
 */
export class IgnoreLayer {
  readonly compiled: CompiledIgnoreFile;

  constructor(
    /** Absolute directory the rules are relative to. */
    readonly directory: string,
    rules: string,
    /**
     * Precedence class, as ripgrep ranks ignore files: 0 `.rgignore`, 1
     * `.ignore`, 2 `.gitignore`, 3 `.git/info/exclude`. A lower class wins at
     * any depth; within a class the deeper directory wins.
     */
    readonly category: number,
    /** The bundle's caches (compiled files are shared by text); none compiles afresh. */
    caches?: SearchCaches,
  ) {
    this.compiled = compileIgnoreFile(rules, caches);
  }

  /** Whether the file has no rule at all (only comments or blank lines). */
  get isEmpty(): boolean {
    return this.compiled.isEmpty;
  }
}

/** Ignore files read in each directory, highest precedence first (as ripgrep orders them). */
export const DIRECTORY_IGNORE_FILES = [".rgignore", ".ignore", ".gitignore"] as const;

function readRules(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

function layerOf(directory: string, file: string, category: number, caches: SearchCaches | undefined): IgnoreLayer | null {
  return layerOfRules(directory, readRules(file), category, caches);
}

/**
 * The layer of an ignore file's text (null: no file, or no rule in it):
 * the pure part of {@link directoryLayers}, for walks that read the ignore
 * files elsewhere (through a workspace's file system).
 */
export function layerOfRules(directory: string, rules: string | null, category: number, caches: SearchCaches | undefined): IgnoreLayer | null {
  if (rules === null || rules.trim() === "") return null;
  const layer = new IgnoreLayer(directory, rules, category, caches);
  return layer.isEmpty ? null : layer;
}

/**
 * The ignore layers a directory adds, highest precedence first: `.rgignore`,
 * `.ignore`, `.gitignore`, then `.git/info/exclude` when the directory holds
 * a `.git`. Honoured whether or not the directory is inside a git repository.
 *
 * @param has whether the directory has an entry of that name, when already
 *   known (saves failed reads); undefined tries every file
 * @param caches the bundle's caches; undefined compiles every file afresh
 */
export function directoryLayers(directory: string, has?: (name: string) => boolean, caches?: SearchCaches): IgnoreLayer[] {
  const layers: IgnoreLayer[] = [];
  DIRECTORY_IGNORE_FILES.forEach((name, category) => {
    if (has && !has(name)) return;
    const layer = layerOf(directory, path.join(directory, name), category, caches);
    if (layer) layers.push(layer);
  });
  if (!has || has(".git")) {
    const layer = layerOf(directory, path.join(directory, ".git", "info", "exclude"), 3, caches);
    if (layer) layers.push(layer);
  }
  return layers;
}
