/**
 * Reading what git prints for a worktree snapshot on a workspace (`diff
 * --raw -z`, `cat-file --batch`, the path `git add` refuses), as the git
 * CLI adapter reads it for the local snapshot.
 */
import type { GitWorktreeExclusion } from "@agent-tools/core";

/** One record of `git diff --raw -z`. */
export interface WorkspaceRawChange {
  readonly path: string;
  readonly oldMode: string;
  readonly newMode: string;
  /** The new blob id (zeros when deleted). */
  readonly newObject: string;
  /** False when the name's bytes are not UTF-8. */
  readonly utf8: boolean;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** True when `bytes` are valid UTF-8. */
export function isUtf8Bytes(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Parses `git diff --raw -z` output (no renames). */
export function parseRawChanges(output: Buffer): WorkspaceRawChange[] {
  const entries: WorkspaceRawChange[] = [];
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
    entries.push({ path: name.toString("utf8"), oldMode: match[1]!, newMode: match[2]!, newObject: match[3]!, utf8: isUtf8Bytes(name) });
  }
  return entries;
}

/** The contents of `count` blobs of `git cat-file --batch` output; undefined when it is not that. */
export function parseBlobs(output: Buffer, count: number): Buffer[] | undefined {
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
export function pathRefusedByAdd(stderr: string): GitWorktreeExclusion | undefined {
  const invalid = /^error: invalid path '(.+)'$/m.exec(stderr);
  if (invalid !== null) return { path: invalid[1]!, reason: "invalid_path", detail: "git refuses this path name" };
  const special = /^error: (.+): can only add regular files, symbolic links or git-directories$/m.exec(stderr);
  if (special !== null) return { path: special[1]!, reason: "special_file", detail: "not a regular file, symbolic link or folder" };
  return undefined;
}
