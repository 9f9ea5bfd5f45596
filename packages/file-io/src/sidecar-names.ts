/**
 * Names of the files an atomic write and a file lock keep beside a target for
 * a moment (Write and Edit of tools-fs, memory entries, subagent applies): the
 * temporary file of an atomic write (`.<name>.<pid>.<8 hex>.tmp`) and the
 * lock that serialises mutations across processes (`.<name>.agent-tools.lock`).
 * Listings hide them; a crashed writer's leftovers are swept by the next
 * mutation of the same file.
 */
import { randomBytes } from "node:crypto";
import { nameHash } from "./name-hash.js";

/** Longest file name most Linux and macOS file systems accept, in bytes. */
const NAME_MAX_BYTES = 255;
/** Suffix of lock files. */
export const LOCK_SUFFIX = ".agent-tools.lock";
const TEMP_PATTERN = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;
const LOCK_PATTERN = /^\..+\.agent-tools\.lock(\.stale\.[0-9a-f]+)?$/;

/**
 * The stem that names a target's sidecars: the name itself, or, when the
 * sidecar would exceed the name limit, a prefix of it with a hash of the whole.
 */
function stem(name: string, room: number): string {
  const available = NAME_MAX_BYTES - room;
  if (Buffer.byteLength(name) <= available) return name;
  const hash = nameHash(Buffer.from(name)).slice(0, 8);
  let prefix = name;
  while (Buffer.byteLength(prefix) > available - 9) prefix = prefix.slice(0, -1);
  return `${prefix}~${hash}`;
}

/** A fresh temporary name for an atomic write of `name` by this process. */
export function temporaryName(name: string): string {
  return temporaryNameFor(name, process.pid, randomBytes(4).toString("hex"));
}

function temporaryNameFor(name: string, pid: number, hex: string): string {
  const suffix = `.${pid}.${hex}.tmp`;
  return `.${stem(name, suffix.length + 1)}${suffix}`;
}

/** The lock file name of `name`. */
export function lockName(name: string): string {
  return `.${stem(name, LOCK_SUFFIX.length + 1 + 24)}${LOCK_SUFFIX}`;
}

/** True for the temporary and lock files of the file tools (hidden from listings). */
export function isToolSidecarName(name: string): boolean {
  return name.charCodeAt(0) === 46 /* . */ && (TEMP_PATTERN.test(name) || LOCK_PATTERN.test(name));
}

/** The writer's pid when `candidate` is a temporary file of `name`, else undefined. */
export function temporaryWriterPid(name: string, candidate: string): number | undefined {
  const match = TEMP_PATTERN.exec(candidate);
  if (!match) return undefined;
  const pid = Number(match[1]);
  return candidate === temporaryNameFor(name, pid, candidate.slice(-12, -4)) ? pid : undefined;
}
