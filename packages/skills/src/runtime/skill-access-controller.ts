/**
 * One session's skill access: the host's policy, the skills root, the
 * built-ins and the skills granted while the session runs (installs and
 * creates grant their new skills). It hands the same decisions to the path
 * policy (`skill://`), the shell (a command policy) and SkillsManager.
 */
import { realpathSync } from "node:fs";
import os from "node:os";
import type { PathIntent, SkillAccessDecision, SkillPathOptions } from "@agent-tools/core";
import { type SkillAccessState, decideManagerAction, decideSkillPathAccess, isSkillEnabled, isSkillProtected } from "../domain/skill-access-rules.js";
import { checkSkillCommand } from "../domain/skill-command-policy.js";
import { BUILTIN_SKILL_NAMES, type SkillAccessPolicy, type SkillsManagerAction } from "../domain/skill-types.js";
import { type SkillSandboxMounts, skillSandboxMounts } from "./skill-sandbox-mounts.js";

/** Options of {@link SkillAccessController}. */
export interface SkillAccessControllerOptions {
  /** The host's policy; default: every skill enabled, inventory and management allowed, mutation refused. */
  readonly policy?: SkillAccessPolicy;
  /** Absolute skills root (`<dataDir>/skills`). */
  readonly skillsRoot: string;
  /** Built-in skill names; default {@link BUILTIN_SKILL_NAMES}. */
  readonly builtInNames?: readonly string[];
  /** Skills granted from the start (e.g. restored from an earlier turn). */
  readonly grantedNames?: readonly string[];
  /** Home folder the shell guard expands `~` and `$HOME` to; default `os.homedir()`. */
  readonly homeDir?: string;
  /** Workspace folder, for the shell guard's `cd skills` check; default the command's cwd. */
  readonly workdir?: string;
  /**
   * The label of the workspace the tools work in when it is not this disk
   * (e.g. `ssh://dev@host:22`): its commands run where the skill's files are
   * not, so the shell guard refuses every use of a skill's files but reading
   * hints, and SkillsManager installs from no path.
   */
  readonly remoteWorkspace?: string;
}

/** What the shell asks a command policy (structurally a subset of tools-shell's `CommandPolicyRequest`). */
export interface SkillCommandPolicyRequest {
  readonly command: string;
  readonly cwd: string;
  readonly cwdInput?: string;
}

/**
 * Holds one session's skill access state (no module globals) and answers
 * for the path policy, the shell and SkillsManager.
 *
 * @example
 * const access = new SkillAccessController({ skillsRoot: "/data/skills", policy: { allowedSkillNames: ["pdf"] } });
 * createPathPolicy({ workdir, skills: access.pathOptions() });
 * createShellTools({ commandPolicy: access.commandPolicy() });
 * access.grant("new-skill"); // after an install
 */
export class SkillAccessController {
  readonly skillsRoot: string;
  readonly #policy: SkillAccessPolicy;
  readonly #builtInNames: readonly string[];
  readonly #granted: Set<string>;
  readonly #homeDir: string;
  readonly #workdir: string | undefined;
  /** The non-local workspace's label (see {@link SkillAccessControllerOptions.remoteWorkspace}); undefined on this disk. */
  readonly remoteWorkspace: string | undefined;

  constructor(options: SkillAccessControllerOptions) {
    this.skillsRoot = options.skillsRoot;
    this.#policy = options.policy ?? {};
    this.#builtInNames = options.builtInNames ?? BUILTIN_SKILL_NAMES;
    this.#granted = new Set(options.grantedNames ?? []);
    this.#homeDir = options.homeDir ?? os.homedir();
    this.#workdir = options.workdir;
    this.remoteWorkspace = options.remoteWorkspace;
  }

  /** The host's policy. */
  get policy(): SkillAccessPolicy {
    return this.#policy;
  }

  /** Enables a skill for the rest of the session (after the model installed or created it). */
  grant(name: string): void {
    this.#granted.add(name);
  }

  /** Names granted during the session, sorted. */
  grantedNames(): readonly string[] {
    return [...this.#granted].sort();
  }

  /** A snapshot of the state the pure decisions read. */
  state(): SkillAccessState {
    return { policy: this.#policy, skillsRoot: this.skillsRoot, builtInNames: this.#builtInNames, grantedNames: new Set(this.#granted) };
  }

  /** Whether the model may use the skill (see `isSkillEnabled`). */
  isEnabled(name: string): boolean {
    return isSkillEnabled(this.state(), name);
  }

  /** Whether the skill is readable but never changed (see `isSkillProtected`). */
  isProtected(name: string): boolean {
    return isSkillProtected(this.state(), name);
  }

  /** Core's `skill://` options: the root and an access hook that reads the live grants. */
  pathOptions(): SkillPathOptions {
    return {
      rootDir: this.skillsRoot,
      access: (name: string, intent: PathIntent): SkillAccessDecision => decideSkillPathAccess(this.state(), name, intent),
    };
  }

  /**
   * A shell command policy (compatible with tools-shell's `CommandPolicy`)
   * applying the Bash skill guard: best-effort, since it reads the command
   * line and not what the shell computes; with the sandbox on, the
   * sandbox's mounts ({@link SkillAccessController.sandboxMounts}) enforce.
   */
  commandPolicy(): (request: SkillCommandPolicyRequest) => string | undefined {
    return (request) => {
      const canonical = tryRealpath(this.skillsRoot);
      return checkSkillCommand(request, {
        skillsRoot: this.skillsRoot,
        skillsRootAliases: canonical !== undefined && canonical !== this.skillsRoot ? [canonical] : [],
        homeDir: this.#homeDir,
        workdir: this.#workdir ?? request.cwd,
        ...(this.remoteWorkspace === undefined ? {} : { remoteWorkspace: this.remoteWorkspace }),
        isEnabled: (name) => this.isEnabled(name),
        canWrite: (name) => {
          const decision = decideSkillPathAccess(this.state(), name, "write");
          return "access" in decision && decision.access === "write";
        },
      });
    };
  }

  /** What a confined command may see of the skills root, for the next command (see `skillSandboxMounts`). */
  sandboxMounts(): SkillSandboxMounts {
    return skillSandboxMounts(this.state());
  }

  /** The denial message for a SkillsManager action, or undefined when it may run (see `decideManagerAction`). */
  checkManagerAction(action: SkillsManagerAction, name?: string): string | undefined {
    return decideManagerAction(this.state(), action, name);
  }
}

function tryRealpath(target: string): string | undefined {
  try {
    return realpathSync(target);
  } catch {
    return undefined;
  }
}
