import path from "node:path";
import { SdkError } from "../errors.js";
import { shortenForMessage } from "../quote.js";
import { type GrantedRoot, validateAdditionalRoots } from "./additional-roots.js";
import { tryRealpath } from "./containment.js";
import type { PathPolicyOptions, SkillPathOptions } from "./path-policy-types.js";

/** Where `skill://` paths live, as the policy holds it. */
export interface SkillsState {
  /** `options.rootDir`, made absolute (not canonicalised: the directory may appear later). */
  readonly rootDir: string;
  /** The host's options, kept whole so `access` is called as the host's method. */
  readonly options: SkillPathOptions;
}

/**
 * Everything the path policy decides from, fixed once from the options and
 * frozen. The functions of `paths/` take it as their first argument; what
 * may change on disk (a root's status, a skill directory) is read on each
 * call, never cached here.
 */
export interface PathPolicyState {
  /** The canonical workspace directory (symlinks resolved when the policy was built). */
  readonly workdir: string;
  /** The workspace directory as the host gave it, made absolute; may differ from `workdir` through symlinks. */
  readonly declaredWorkdir: string;
  /** Validated extra roots, in the host's order. */
  readonly granted: readonly GrantedRoot[];
  /** `skill://` resolution; undefined when the host gave none (such paths are refused). */
  readonly skills: SkillsState | undefined;
  /** `options.uploadsDir`, made absolute (not canonicalised: the directory may appear later); undefined = no uploads scope. */
  readonly uploadsDir: string | undefined;
}

/**
 * Validates the options of a path policy and builds its frozen state.
 * Throws {@link SdkError} (`invalid_options`) for a missing, relative or
 * non-existent workdir, and (`invalid_root`) for a malformed extra root.
 *
 * @example
 * const state = createPolicyState({ workdir: "/repo" });
 * state.workdir; // "/repo" (canonical)
 */
export function createPolicyState(options: PathPolicyOptions): PathPolicyState {
  if (typeof options.workdir !== "string" || options.workdir.trim() === "") {
    throw new SdkError("invalid_options", "workdir is required: pass the absolute project directory.");
  }
  if (!path.isAbsolute(options.workdir)) throw new SdkError("invalid_options", `workdir must be absolute: ${shortenForMessage(options.workdir)}`);
  const workdir = tryRealpath(options.workdir);
  if (workdir === null) throw new SdkError("invalid_options", `workdir does not exist: ${shortenForMessage(options.workdir)}`);
  const granted = validateAdditionalRoots(options.additionalRoots ?? [], workdir).map((root) => Object.freeze(root));
  const skills = options.skills ? Object.freeze({ rootDir: path.resolve(options.skills.rootDir), options: options.skills }) : undefined;
  if (
    options.uploadsDir !== undefined &&
    (typeof options.uploadsDir !== "string" || !path.isAbsolute(options.uploadsDir) || options.uploadsDir.includes("\0"))
  ) {
    throw new SdkError("invalid_options", "uploadsDir must be an absolute directory path, e.g. <dataDir>/uploads.");
  }
  const uploadsDir = options.uploadsDir === undefined ? undefined : path.resolve(options.uploadsDir);
  return Object.freeze({ workdir, declaredWorkdir: path.resolve(options.workdir), granted: Object.freeze(granted), skills, uploadsDir });
}
