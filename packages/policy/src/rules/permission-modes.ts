/**
 * What the permission modes add to the rules: plan mode's refusal of tools
 * that change state, acceptEdits' allowance of file changes inside the
 * workspace roots, and the paths bypassPermissions still asks about (any
 * `.git` folder and the SDK's data directory).
 */
import path from "node:path";
import { type ToolMetadata, resolveToolAnnotations } from "@agent-tools/core";
import { canonicalizeTarget, isWithin, tryRealpath } from "@agent-tools/core/internal";
import { minimatch } from "minimatch";
import type { CallFacts } from "./rule-match.js";
import { isFileChangingTool } from "./rule-tools.js";

/** True when plan mode refuses the tool: it is not read-only and not one plan mode is for (asking the user, presenting the plan, agents). */
export function planModeRefuses(metadata: ToolMetadata): boolean {
  const annotations = resolveToolAnnotations(metadata);
  return !annotations.readOnly && annotations.listedInPlanMode !== true;
}

/** True when acceptEdits allows the call: a file-changing tool whose every path lies inside a workspace root (the workdir or a granted root). */
export function acceptEditsAllows(facts: CallFacts): boolean {
  if (!isFileChangingTool(facts.toolName, facts.metadata) || facts.paths.length === 0) return false;
  const roots = [...facts.bases.workdir, ...[...facts.bases.roots.values()].flat()];
  return facts.paths.every((item) => {
    if (item.canonical === undefined) return false;
    if (item.scope !== undefined) return item.scope === "workspace" || item.scope === "root";
    return roots.some((root) => isWithin(root, item.canonical!));
  });
}

const GIT_IN_TEXT = /(^|[\s/'"=<>])\.git([\s/'"]|$)/;

const hasGitSegment = (target: string): boolean => target.split(/[\\/]/).includes(".git");

/** What bypassPermissions still protects. */
export interface ProtectedPlaces {
  readonly dataDirs: readonly string[];
  readonly workdir: string;
}

/** The data directory in its given and canonical forms. */
export function protectedPlacesOf(dataDir: string, workdir: string): ProtectedPlaces {
  return { dataDirs: [...new Set([dataDir, tryRealpath(dataDir) ?? dataDir])], workdir };
}

const inDataDir = (target: string, places: ProtectedPlaces): boolean => places.dataDirs.some((dir) => isWithin(dir, target));

/** True when a segment of `word` is a glob (or brace expansion) the shell could expand to `.git`. */
const globCouldNameGit = (word: string): boolean => word.split("/").some((segment) => /[*?[{]/.test(segment) && minimatch(".git", segment));

/** The path a word or cwd names, with its symlinks resolved (the longest existing prefix); undefined when it cannot be. */
function canonicalOf(target: string): string | undefined {
  try {
    return canonicalizeTarget(target, { keepLeafSymlink: false }).canonicalPath;
  } catch {
    return undefined;
  }
}

/**
 * Why a shell word or working directory reaches a protected place: it names
 * a `.git` segment (itself, as a glob that could expand to one, or through a
 * symlink), or lies in the data directory. `base` is where the command runs.
 */
function protectedBy(text: string, base: string, places: ProtectedPlaces): string | undefined {
  if (text === "") return undefined;
  if (hasGitSegment(text) || globCouldNameGit(text)) return "a .git folder";
  const resolved = path.resolve(base, text);
  const canonical = canonicalOf(resolved);
  if (canonical !== undefined && hasGitSegment(canonical)) return "a .git folder";
  if (inDataDir(resolved, places) || (canonical !== undefined && inDataDir(canonical, places)) || places.dataDirs.some((dir) => text.includes(dir))) {
    return "the SDK's data directory";
  }
  return undefined;
}

/**
 * Why bypassPermissions still asks for the call, or undefined: a file change
 * in a `.git` folder or the SDK's data directory, or a command line whose
 * words name one (directly, as a glob that could expand to `.git`, or
 * through a symlink), that runs in one (`cwd`), or that did not parse.
 */
export function bypassStillAsks(facts: CallFacts, places: ProtectedPlaces): string | undefined {
  if (isFileChangingTool(facts.toolName, facts.metadata)) {
    for (const item of facts.paths) {
      // Every form of the path: where it lands after symlinks (also when the path policy refused it) and as written.
      const targets = item.denyTargets;
      if (targets.length === 0) return `the path "${item.input}" could not be resolved`;
      if (targets.some(hasGitSegment)) return `"${item.input}" is inside a .git folder`;
      if (targets.some((target) => inDataDir(target, places))) return `"${item.input}" is inside the SDK's data directory`;
    }
    return undefined;
  }
  const command = facts.command;
  if (command === undefined) return undefined;
  if (!command.ok) return `the command line could not be parsed (${command.reason})`;
  // The command runs in its cwd: a cwd in .git or the data directory changes files there without naming them.
  const base = path.resolve(places.workdir, facts.cwd ?? ".");
  if (facts.cwd !== undefined) {
    const place = protectedBy(facts.cwd, places.workdir, places);
    if (place !== undefined) return `the command runs in ${place} (cwd "${facts.cwd}")`;
  }
  for (const part of command.parts) {
    // The text too: a redirection target (`> .git/hooks/x`) is no word.
    if (GIT_IN_TEXT.test(part.text)) return `the command "${part.text}" names a .git folder`;
    if (places.dataDirs.some((dir) => part.text.includes(dir))) return `the command "${part.text}" names the SDK's data directory`;
    for (const word of part.words) {
      const place = protectedBy(word.text, base, places);
      if (place !== undefined) return `the command "${part.text}" names ${place}`;
    }
  }
  return undefined;
}
