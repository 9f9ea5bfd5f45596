/**
 * Reads the source files of the real corpus from a directory that is either a
 * plain checkout (`git clone --depth 1`, files on disk) or a git directory
 * without a work tree (the mirrors: read with `git --git-dir=<dir> show HEAD:<path>`).
 * The data is never part of this repository.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** Default location of the REALTALK mirror. */
export const DEFAULT_REALTALK_DIR = "/work/.mirror/danny911kr+REALTALK/repo";
/** Default location of the FriendsQA mirror. */
export const DEFAULT_FRIENDSQA_DIR = "/work/.mirror/emorynlp+FriendsQA/repo";

/** Files of one source repository, by path inside it. */
export interface DataSource {
  /** Where the files come from, for messages. */
  readonly description: string;
  /** Paths (relative to the repository root) under `folder` whose name matches `pattern`, sorted. */
  list(folder: string, pattern: RegExp): string[];
  /** The text of one file. */
  read(file: string): string;
}

/**
 * A source over `dir`: plain files when `dir/<probe>` exists on disk, else the
 * git directory `git -C dir rev-parse --git-dir` names, read at HEAD. Throws
 * an Error naming the directory and how to get the data when neither works.
 */
export function openDataSource(dir: string, probe: string, howToGet: string): DataSource {
  const root = path.resolve(dir);
  if (fs.existsSync(path.join(root, probe))) {
    return {
      description: `${root} (files)`,
      list: (folder, pattern) =>
        fs
          .readdirSync(path.join(root, folder))
          .filter((name) => pattern.test(name))
          .sort()
          .map((name) => `${folder}/${name}`),
      read: (file) => fs.readFileSync(path.join(root, file), "utf8"),
    };
  }
  let gitDir: string;
  try {
    const found = execFileSync("git", ["-C", root, "rev-parse", "--git-dir"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
    gitDir = path.resolve(root, found);
  } catch {
    gitDir = "";
  }
  // Only the directory's own repository: not one that merely encloses it.
  if (gitDir !== root && gitDir !== path.join(root, ".git")) {
    throw new Error(`no data at ${root}: neither ${probe} on disk nor a git directory there. ${howToGet}`);
  }
  const git = (args: string[]): string => execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return {
    description: `${gitDir} (git HEAD)`,
    list: (folder, pattern) =>
      git(["ls-tree", "--name-only", "HEAD", `${folder}/`])
        .split("\n")
        .filter((file) => file !== "" && pattern.test(path.posix.basename(file)))
        .sort(),
    read: (file) => git(["show", `HEAD:${file}`]),
  };
}
