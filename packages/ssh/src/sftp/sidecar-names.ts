/**
 * Names of the files the SFTP file system keeps beside a target for a
 * moment: the temporary file of an atomic write (`.<name>.ssh-<12 hex>.tmp`)
 * and the lock file (`.<name>.agent-tools-lock`). Both start with a dot and
 * contain the target's name; a long name is shortened with a hash so the
 * sidecar stays within 255 bytes.
 */
import { createHash, randomBytes } from "node:crypto";

const NAME_MAX_BYTES = 255;
/** Suffix of the lock file of a target. */
export const SSH_LOCK_SUFFIX = ".agent-tools-lock";

function stem(name: string, room: number): string {
  const available = NAME_MAX_BYTES - 1 - room;
  if (Buffer.byteLength(name) <= available) return name;
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
  let prefix = name;
  while (Buffer.byteLength(prefix) > available - 9) prefix = prefix.slice(0, -1);
  return `${prefix}~${hash}`;
}

/** A fresh temporary name for an atomic write of `name`. */
export function temporaryName(name: string): string {
  const suffix = `.ssh-${randomBytes(6).toString("hex")}.tmp`;
  return `.${stem(name, suffix.length)}${suffix}`;
}

/** The lock file name of `name`. */
export function lockFileName(name: string): string {
  return `.${stem(name, SSH_LOCK_SUFFIX.length + 24)}${SSH_LOCK_SUFFIX}`;
}
