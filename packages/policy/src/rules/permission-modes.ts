/**
 * What the permission modes add to the rules: plan mode's refusal of tools
 * that change state, acceptEdits' allowance of file changes inside the
 * workspace roots, and the paths bypassPermissions still asks about (any
 * `.git` folder and the SDK's data directory).
 */
import path from "node:path";
import { type ToolMetadata, resolveToolAnnotations } from "@agent-tools/core";
import { isWithin, tryRealpath } from "@agent-tools/core/internal";
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

/**
 * Why bypassPermissions still asks for the call, or undefined: a file change
 * in a `.git` folder or the SDK's data directory, or a command line whose
 * words name one (or that did not parse).
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
  for (const part of command.parts) {
    // The text too: a redirection target (`> .git/hooks/x`) is no word.
    if (GIT_IN_TEXT.test(part.text)) return `the command "${part.text}" names a .git folder`;
    if (places.dataDirs.some((dir) => part.text.includes(dir))) return `the command "${part.text}" names the SDK's data directory`;
    for (const word of part.words) {
      if (hasGitSegment(word.text)) return `the command "${part.text}" names a .git folder`;
      const resolved = path.resolve(places.workdir, word.text);
      if (word.text !== "" && (inDataDir(resolved, places) || places.dataDirs.some((dir) => word.text.includes(dir)))) {
        return `the command "${part.text}" names the SDK's data directory`;
      }
    }
  }
  return undefined;
}
