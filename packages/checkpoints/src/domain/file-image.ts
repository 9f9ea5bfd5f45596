/**
 * The state of one path at one moment, as a checkpoint keeps it: a regular
 * file (exact bytes and permission bits), a symlink (its target, never
 * followed), a directory (its permission bits), or nothing.
 */

/** The kinds of entry a checkpoint records. */
export const FILE_IMAGE_KINDS = ["file", "symlink", "directory", "absent"] as const;

/** One of {@link FILE_IMAGE_KINDS}. */
export type FileImageKind = (typeof FILE_IMAGE_KINDS)[number];

/**
 * What identifies a state without its bytes: enough to tell whether a path
 * still holds it. A post-image is kept in this form only.
 */
export interface FileImageSummary {
  readonly kind: FileImageKind;
  /** Permission bits (`mode & 0o7777`) of a file or directory; 0 otherwise. */
  readonly mode: number;
  /** Lower-case hex SHA-256 of a file's bytes, or of a symlink's target; "" otherwise. */
  readonly sha256: string;
  /** A symlink's target as stored in the link; "" otherwise. */
  readonly linkTarget: string;
}

/** A state with its bytes: what a rewind writes back. */
export interface FileImage extends FileImageSummary {
  /** A file's exact bytes; empty for other kinds. */
  readonly content: Uint8Array;
}

/** The summary of an image (drops the bytes). */
export function summarize(image: FileImageSummary): FileImageSummary {
  return { kind: image.kind, mode: image.mode, sha256: image.sha256, linkTarget: image.linkTarget };
}

/**
 * True when two states are the same for a rewind: same kind, and for a file
 * the same bytes (by hash) and permission bits, for a symlink the same
 * target, for a directory the same permission bits.
 */
export function sameImage(left: FileImageSummary, right: FileImageSummary): boolean {
  if (left.kind !== right.kind) return false;
  switch (left.kind) {
    case "file":
      return left.sha256 === right.sha256 && left.mode === right.mode;
    case "symlink":
      return left.linkTarget === right.linkTarget;
    case "directory":
      return left.mode === right.mode;
    default:
      return true;
  }
}

/** How a state reads in a message: `a file (0755)`, `a symlink to x`, `a directory`, `nothing`. */
export function describeImage(image: FileImageSummary): string {
  switch (image.kind) {
    case "file":
      return `a file (mode ${image.mode.toString(8).padStart(4, "0")}, sha256 ${image.sha256.slice(0, 12)})`;
    case "symlink":
      return `a symlink to ${JSON.stringify(image.linkTarget)}`;
    case "directory":
      return `a directory (mode ${image.mode.toString(8).padStart(4, "0")})`;
    default:
      return "nothing";
  }
}
