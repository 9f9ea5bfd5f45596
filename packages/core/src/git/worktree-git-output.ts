/**
 * Reading what git prints for a worktree snapshot: `diff --raw -z`,
 * `cat-file --batch`, and the path `git add` names when it refuses one.
 * Shared by the git CLI adapter (a local snapshot) and the subagents'
 * workspace worktrees (git run through a workspace's processes).
 */

import type { GitWorktreeExclusion } from "../ports/git-client.js";

/** One record of `git diff --raw -z`. */
export interface RawChange {
  readonly path: string;
  readonly oldMode: string;
  readonly newMode: string;
  /** The new blob id (zeros when deleted). */
  readonly newObject: string;
  /** False when the name's bytes are not UTF-8 (`path` then holds U+FFFD where they were, a name the file system does not have). */
  readonly utf8: boolean;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** True when `bytes` are valid UTF-8. */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Parses `git diff --raw -z` output (no renames). */
export function parseRaw(output: Buffer): RawChange[] {
  const entries: RawChange[] = [];
  let offset = 0;
  const field = (): Buffer | undefined => {
    const end = output.indexOf(0, offset);
    if (end === -1) return undefined;
    const bytes = output.subarray(offset, end);
    offset = end + 1;
    return bytes;
  };
  for (;;) {
    const header = field();
    const name = field();
    if (header === undefined || name === undefined) break;
    const match = /^:(\d{6}) (\d{6}) [0-9a-f]+ ([0-9a-f]+) [A-Z]/.exec(header.toString("latin1"));
    if (match === null) break;
    entries.push({ path: name.toString("utf8"), oldMode: match[1]!, newMode: match[2]!, newObject: match[3]!, utf8: isUtf8(name) });
  }
  return entries;
}

/** The contents of `count` blobs of `git cat-file --batch` output (`<id> blob <size>\n<bytes>\n` each); undefined when it is not that. */
export function parseBlobBatch(output: Buffer, count: number): Buffer[] | undefined {
  const blobs: Buffer[] = [];
  let offset = 0;
  for (let index = 0; index < count; index += 1) {
    const newline = output.indexOf(10, offset);
    if (newline === -1) return undefined;
    const header = output.subarray(offset, newline).toString("utf8").split(" ");
    const size = Number(header[2]);
    if (header[1] !== "blob" || !Number.isSafeInteger(size) || newline + 1 + size > output.length) return undefined;
    blobs.push(output.subarray(newline + 1, newline + 1 + size));
    offset = newline + 1 + size + 1;
  }
  return blobs;
}

/** The path `git add` named when it refused one, and why. */
export function refusedByAdd(stderr: string): GitWorktreeExclusion | undefined {
  const invalid = /^error: invalid path '(.+)'$/m.exec(stderr);
  if (invalid !== null) return { path: invalid[1]!, reason: "invalid_path", detail: "git refuses this path name" };
  const special = /^error: (.+): can only add regular files, symbolic links or git-directories$/m.exec(stderr);
  if (special !== null) return { path: special[1]!, reason: "special_file", detail: "not a regular file, symbolic link or folder" };
  return undefined;
}
