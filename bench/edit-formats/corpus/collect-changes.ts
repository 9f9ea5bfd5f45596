/**
 * Walks a repository's history (a local git directory, bare or not) and takes
 * modified text files of real commits: old text, new text and git's unified
 * diff with 3 lines of context. Commits are visited in a seeded order and at
 * most `perCommit` files of each are taken, so one large commit does not fill
 * the quota. Files that a patch cannot express are left out and counted.
 */
import { execFileSync } from "node:child_process";
import type { CorpusCase } from "./corpus-types.js";
import { type RandomSource, shuffled } from "./seeded-random.js";

/** What {@link collectChanges} takes from one repository. */
export interface CollectOptions {
  readonly gitDir: string;
  /** The commit whose history is walked (default: HEAD). */
  readonly head?: string;
  /** `owner/name`, for the case ids. */
  readonly repo: string;
  readonly random: RandomSource;
  /** How many files to take. */
  readonly files: number;
  /** At most this many files of one commit (default 2). */
  readonly perCommit?: number;
  /** Files larger than this are left out (default 100,000 bytes). */
  readonly maxBytes?: number;
  /** Counts of files left out, by reason (added to). */
  readonly skipped: Record<string, number>;
}

/** The cases taken and the commits they came from. */
export interface CollectedChanges {
  readonly head: string;
  readonly commits: string[];
  readonly cases: CorpusCase[];
}

const decoder = new TextDecoder("utf-8", { fatal: true });

function git(gitDir: string, args: string[]): Buffer {
  return execFileSync("git", ["--git-dir", gitDir, "-c", "core.quotePath=false", ...args], {
    maxBuffer: 256 * 1024 * 1024,
    stdio: ["ignore", "pipe", "ignore"],
  });
}

/** Takes up to `files` modified text files of the repository's commits. */
export function collectChanges(options: CollectOptions): CollectedChanges {
  const { gitDir, repo, random, skipped } = options;
  const perCommit = options.perCommit ?? 2;
  const maxBytes = options.maxBytes ?? 100_000;
  const head = git(gitDir, ["rev-parse", `${options.head ?? "HEAD"}^{commit}`])
    .toString("utf8")
    .trim();
  const commits = git(gitDir, ["rev-list", "--no-merges", "--parents", head])
    .toString("utf8")
    .split("\n")
    .map((line) => line.split(" "))
    .filter((ids) => ids.length === 2) as Array<[string, string]>;
  const cases: CorpusCase[] = [];
  const used: string[] = [];
  const skip = (reason: string) => {
    skipped[reason] = (skipped[reason] ?? 0) + 1;
  };
  for (const [commit, parent] of shuffled(commits, random)) {
    if (cases.length >= options.files) break;
    const raw = git(gitDir, ["diff-tree", "-r", "-z", "--no-renames", "--diff-filter=M", "--raw", parent, commit]).toString("utf8");
    const paths = modifiedPaths(raw);
    let taken = 0;
    for (const filePath of shuffled(paths, random)) {
      if (taken >= perCommit || cases.length >= options.files) break;
      const oldBytes = git(gitDir, ["cat-file", "blob", `${parent}:${filePath}`]);
      const newBytes = git(gitDir, ["cat-file", "blob", `${commit}:${filePath}`]);
      const reason = unexpressible(oldBytes, newBytes, maxBytes);
      if (reason) {
        skip(reason);
        continue;
      }
      const diff = git(gitDir, ["diff", "--no-ext-diff", "--no-color", "--no-renames", "-U3", parent, commit, "--", filePath]).toString("utf8");
      const hunks = diff.split("\n").filter((line) => line.startsWith("@@ ")).length;
      if (hunks === 0 || hunks > 20) {
        skip(hunks === 0 ? "no text hunk" : "more than 20 hunks");
        continue;
      }
      cases.push({
        id: `${repo}@${commit.slice(0, 10)}:${filePath}`,
        repo,
        commit,
        parent,
        path: filePath,
        oldText: decoder.decode(oldBytes),
        newText: decoder.decode(newBytes),
        diff,
      });
      taken++;
    }
    if (taken > 0) used.push(commit);
  }
  return { head, commits: used, cases };
}

/** The paths of a `diff-tree -z --raw` listing of modified regular files. */
function modifiedPaths(raw: string): string[] {
  const fields = raw.split("\0");
  const paths: string[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const meta = fields[index] as string;
    // ":100644 100644 <old> <new> M": regular files on both sides (no symlinks, submodules, mode-only changes).
    if (/^:100(644|755) 100(644|755) /.test(meta)) paths.push(fields[index + 1] as string);
  }
  return paths;
}

/**
 * Why a V4A patch or an Edit pair could not express this change, or
 * undefined: binary or non-UTF-8 text, an empty or large side, a change of
 * the final newline, the BOM or the line endings (the format keeps the file's
 * own; it cannot change them).
 */
export function unexpressible(oldBytes: Buffer, newBytes: Buffer, maxBytes: number): string | undefined {
  if (oldBytes.length === 0 || newBytes.length === 0) return "empty side";
  if (oldBytes.length > maxBytes || newBytes.length > maxBytes) return "larger than the size cap";
  if (oldBytes.includes(0) || newBytes.includes(0)) return "binary (NUL byte)";
  try {
    decoder.decode(oldBytes);
    decoder.decode(newBytes);
  } catch {
    return "not UTF-8";
  }
  if (oldBytes.equals(newBytes)) return "no content change";
  const endsWithNewline = (bytes: Buffer) => bytes[bytes.length - 1] === 10;
  if (endsWithNewline(oldBytes) !== endsWithNewline(newBytes)) return "final newline changed";
  const bom = (bytes: Buffer) => bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]));
  if (bom(oldBytes) !== bom(newBytes)) return "BOM changed";
  const style = (bytes: Buffer) => lineEndingStyle(bytes.toString("latin1"));
  const oldStyle = style(oldBytes);
  if (oldStyle === "mixed" || oldStyle !== style(newBytes)) return "mixed or changed line endings";
  return undefined;
}

function lineEndingStyle(text: string): "lf" | "crlf" | "mixed" {
  const crs = text.split("\r").length - 1;
  if (crs === 0) return "lf";
  const crlfs = text.split("\r\n").length - 1;
  const lfs = text.split("\n").length - 1;
  return crs === crlfs && crlfs === lfs ? "crlf" : "mixed";
}
