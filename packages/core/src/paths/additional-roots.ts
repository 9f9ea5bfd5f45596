import { statSync } from "node:fs";
import path from "node:path";
import { SdkError, ToolError } from "../errors.js";
import { isWithin, tryRealpath } from "./containment.js";
import { quoteForMessage, shortenForMessage } from "../quote.js";

/** Access granted to an extra directory. */
export type RootAccess = "read" | "write";

/** An extra directory the host grants, reachable as `root://<alias>/...`. */
export interface AdditionalRoot {
  /** `^[a-z][a-z0-9_-]{0,31}$`, not `workspace`, `skill`, `uploads` or `external`. */
  alias: string;
  /** Absolute path of an existing directory. */
  path: string;
  access: RootAccess;
  /** Optional id of a stored grant. */
  id?: string;
  /**
   * The canonical path recorded when the grant was made. When given and the
   * path now canonicalises elsewhere (drift, a retargeted symlink), the root
   * is `changed` and every access is refused until the host grants it again.
   */
  canonicalPath?: string;
}

/** Live state of a granted root. */
export type RootStatus = "active" | "changed" | "missing";

/** A validated root as the path policy holds it. */
export interface GrantedRoot {
  readonly alias: string;
  readonly id?: string;
  /** The path as the host gave it. */
  readonly declaredPath: string;
  /** The canonical path fixed at grant time; containment is checked against it. */
  readonly canonicalPath: string;
  readonly access: RootAccess;
}

/**
 * How a grant's declared path becomes its canonical path: the canonical
 * path of an existing directory, or the problem to report. The default reads
 * the local disk; a lexical policy (a non-local workspace) takes the path as
 * given, its host having checked it through the workspace.
 */
export type RootLocator = (declaredPath: string) => { canonicalPath: string } | { problem: string };

/** The default {@link RootLocator}: realpath and a directory check on the local disk. */
function locateOnLocalDisk(declaredPath: string): { canonicalPath: string } | { problem: string } {
  const current = tryRealpath(declaredPath);
  if (current === null) return { problem: "path does not exist." };
  return statSync(current).isDirectory() ? { canonicalPath: current } : { problem: "path is not a directory." };
}

const ALIAS_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/;
const RESERVED_ALIASES = new Set(["workspace", "skill", "uploads", "external"]);

/**
 * Validates grants when they are given (alias rules, existing directory, overlaps) and fixes each canonical path.
 * Throws {@link SdkError} (`invalid_root`) for a grant that is malformed,
 * overlaps another, equals or sits inside the workspace, or contains the
 * workspace with write access.
 */
export function validateAdditionalRoots(roots: readonly AdditionalRoot[], canonicalWorkdir: string, locate: RootLocator = locateOnLocalDisk): GrantedRoot[] {
  const granted: GrantedRoot[] = [];
  const aliases = new Set<string>();
  const ids = new Set<string>();
  for (const root of roots) {
    const alias = typeof root.alias === "string" ? root.alias : "";
    const fail = (message: string): never => {
      throw new SdkError("invalid_root", `additionalRoots: root ${quoteForMessage(alias, 40)}: ${message}`, {
        alias: shortenForMessage(alias, 40),
        path: typeof root.path === "string" ? shortenForMessage(root.path) : root.path,
      });
    };
    if (!ALIAS_PATTERN.test(alias)) fail("alias must match ^[a-z][a-z0-9_-]{0,31}$.");
    if (RESERVED_ALIASES.has(alias)) fail("alias is reserved (workspace, skill, uploads, external).");
    if (aliases.has(alias)) fail("alias is used twice.");
    aliases.add(alias);
    if (root.id !== undefined) {
      if (ids.has(root.id)) fail(`id ${quoteForMessage(root.id)} is used twice.`);
      ids.add(root.id);
    }
    if (root.access !== "read" && root.access !== "write") fail('access must be "read" or "write".');
    if (typeof root.path !== "string" || root.path.includes("\0")) fail("path must be a string without NUL bytes.");
    const declared = root.path.replace(/\\/g, "/");
    if (declared.startsWith("//")) fail("UNC paths are not accepted.");
    if (!path.isAbsolute(declared)) fail("path must be absolute.");
    let canonicalPath: string;
    if (root.canonicalPath !== undefined) {
      // A stored grant: keep the recorded canonical path; drift is detected per access (fail closed).
      canonicalPath = path.resolve(root.canonicalPath);
    } else {
      const located = locate(declared);
      if ("problem" in located) fail(located.problem);
      canonicalPath = (located as { canonicalPath: string }).canonicalPath;
    }
    if (isWithin(canonicalWorkdir, canonicalPath)) fail("path equals or sits inside the workspace; use workspace-relative paths instead.");
    if (isWithin(canonicalPath, canonicalWorkdir) && root.access === "write") {
      fail("path contains the workspace; such a root may only be granted read access.");
    }
    for (const other of granted) {
      if (isWithin(other.canonicalPath, canonicalPath) || isWithin(canonicalPath, other.canonicalPath)) {
        fail(`path overlaps root "${other.alias}" (${other.canonicalPath}).`);
      }
    }
    granted.push({ alias, id: root.id, declaredPath: path.resolve(declared), canonicalPath, access: root.access });
  }
  return granted;
}

/** Recomputes a root's status: `active` iff its declared path still canonicalises to the recorded one. */
export function rootStatus(root: GrantedRoot): RootStatus {
  const current = tryRealpath(root.declaredPath);
  if (current === null) return "missing";
  if (current !== root.canonicalPath) return "changed";
  try {
    return statSync(current).isDirectory() ? "active" : "changed";
  } catch {
    return "missing";
  }
}

/**
 * The granted root `root://<alias>/` names; an unknown alias is refused with
 * `invalid_path` listing the roots there are (`label` and `input` word the message).
 */
export function grantedRootNamed(granted: readonly GrantedRoot[], alias: string, label: string, input: string): GrantedRoot {
  const root = granted.find((candidate) => candidate.alias === alias);
  if (root !== undefined) return root;
  const available = granted.map((candidate) => `root://${candidate.alias}/ (${candidate.access === "write" ? "read/write" : "read-only"})`);
  throw new ToolError(
    "invalid_path",
    `${label} ${quoteForMessage(input)} names an unknown root ${quoteForMessage(alias, 40)}. ${available.length ? `Available roots: ${available.join(", ")}.` : "No extra roots are granted; use a workspace-relative path."}`,
    { details: {} },
  );
}

/** A granted root as `PathPolicy.roots()` lists it, with the status the policy found. */
export function grantedRootInfo(root: GrantedRoot, status: RootStatus) {
  return { alias: root.alias, id: root.id, path: root.declaredPath, canonicalPath: root.canonicalPath, access: root.access, status };
}
