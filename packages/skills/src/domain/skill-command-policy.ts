/**
 * The Bash guard of the skill access policy: a shell command may run a
 * script of an enabled skill (by its path or through an interpreter) and
 * copy files out of one, but may not read, list, search or change the
 * skills folder with shell tools, `cd` into it, hunt for skills with
 * `find /`, or climb out of a skill folder with `..`. Reading goes through
 * Read / Glob on `skill://<name>/...` or SkillsManager read, where the
 * policy applies.
 *
 * Best-effort: it reads the command line as written (quotes, `$'...'`,
 * braces, globs, `cd` and variables set on the line are followed), not what
 * the shell computes at run time (`$(...)`, `base64 -d`, a script's own
 * file access). With the sandbox on, the sandbox's mounts enforce the
 * policy; this guard then only explains refusals early.
 */
import { posix } from "node:path";
import { isOutputRedirect, isRedirectOperator, splitShellSegments } from "./shell-words.js";
import {
  OUTSIDE,
  type SkillLocation,
  type WordScope,
  argumentPath,
  clean,
  expandBraces,
  expandVariables,
  isAncestorOrSame,
  isRelativeWord,
  locateInRoots,
  resolveWord,
  rootMentions,
} from "./skill-command-words.js";
import { SKILL_DENIAL_SUFFIX } from "./skill-types.js";
import {
  ASSIGNMENT,
  CD_VERBS,
  COPY_VERBS,
  DECLARATIONS,
  INLINE_CODE_FLAGS,
  LINK_OR_COPY_VERBS,
  RECURSIVE_READ_VERBS,
  SHELLS,
  SKILL_CHANGE_VERBS,
  SKILL_READ_VERBS,
  SKILL_SCRIPT_RUNNERS,
  WRAPPERS,
} from "./skill-command-vocabulary.js";

export { SKILL_CHANGE_VERBS, SKILL_READ_VERBS, SKILL_SCRIPT_RUNNERS } from "./skill-command-vocabulary.js";

/** The command as the shell tool is asked to run it. */
export interface SkillCommandRequest {
  readonly command: string;
  /** The resolved absolute working directory. */
  readonly cwd: string;
  /** The cwd argument as given, if any. */
  readonly cwdInput?: string;
}

/** What the guard knows about the host. */
export interface SkillCommandFacts {
  /** Absolute skills root. */
  readonly skillsRoot: string;
  /** Other spellings of the same root (e.g. its canonical path when the root sits behind a symlink). */
  readonly skillsRootAliases?: readonly string[];
  readonly homeDir: string;
  /** Absolute workspace directory. */
  readonly workdir: string;
  isEnabled(name: string): boolean;
  /** Whether the policy lets the model change the skill's files (`skill://` write access); default never. */
  canWrite?(name: string): boolean;
  /**
   * The label of a non-local workspace the command runs on: the skill's
   * files are not there, so a command that runs, copies or works in a
   * skill's files (or runs in a skill's folder) is refused, saying so.
   */
  readonly remoteWorkspace?: string;
}

interface Context {
  readonly facts: SkillCommandFacts;
  readonly roots: readonly string[];
  /** The cwd at this point of the command line (`cd` moves it) and the variables set so far. */
  scope: WordScope;
  /** The skill the cwd sits in, if any. */
  cwdSkill: string | undefined;
}

/**
 * Checks a shell command against the skill access policy. Returns the
 * refusal message (ending with {@link SKILL_DENIAL_SUFFIX}) or undefined
 * to let it run.
 *
 * @example
 * checkSkillCommand({ command: "cat ~/.agent-tools/skills/pdf/SKILL.md", cwd: "/work" }, facts); // "Bash cannot read skill files with cat: ... Read skill://pdf/SKILL.md ..."
 * checkSkillCommand({ command: "python3 /home/u/.agent-tools/skills/pdf/scripts/fill.py", cwd: "/work" }, facts); // undefined when pdf is enabled
 */
export function checkSkillCommand(request: SkillCommandRequest, facts: SkillCommandFacts): string | undefined {
  const roots = [facts.skillsRoot, ...(facts.skillsRootAliases ?? [])].map(clean);
  const cwd = clean(request.cwd);
  const cwdLocation = locateInRoots(roots, cwd);
  const remote = facts.remoteWorkspace;
  if (remote !== undefined && cwdLocation.kind !== "outside") {
    const name = cwdLocation.kind === "skill" ? cwdLocation.name : "<name>";
    return refuse(remoteSkillRefusal(remote, name, `a working directory in the skills folder (${request.cwdInput ?? request.cwd})`));
  }
  if (cwdLocation.kind === "root" || (cwdLocation.kind === "skill" && cwdLocation.name.startsWith("."))) {
    const shown = request.cwdInput ?? request.cwd;
    return refuse(`Bash cannot run with its cwd in the skills folder itself (${shown}). Pass cwd "skill://<name>" to work inside one skill.`);
  }
  if (cwdLocation.kind === "skill") {
    if (!facts.isEnabled(cwdLocation.name)) return refuse(notEnabled(cwdLocation.name));
    if (splitShellSegments(request.command).some((words) => words.some((word) => /(^|\/)\.\.(\/|$)/.test(word)))) {
      return refuse(
        `Bash cannot use ".." while its cwd is inside skill://${cwdLocation.name}/: commands must stay inside the skill folder. Read other skills with Read skill://<name>/SKILL.md or SkillsManager read.`,
      );
    }
  }
  const context: Context = {
    facts,
    roots,
    scope: { home: clean(facts.homeDir), cwd, variables: new Map() },
    cwdSkill: cwdLocation.kind === "skill" ? cwdLocation.name : undefined,
  };
  return checkCommandText(context, request.command, 0);
}

function checkCommandText(context: Context, command: string, depth: number): string | undefined {
  if (findHuntsSkills(context, command)) {
    return refuse(
      "Bash cannot search the file system for skills (find / or find ~). Use SkillsManager list to see the installed skills and Glob skill://<name>/** to list one skill's files.",
    );
  }
  for (const segment of splitShellSegments(command)) {
    const message = checkSegment(context, segment, depth);
    if (message !== undefined) return message;
  }
  return undefined;
}

/** One command of the line: its words after env assignments and wrappers (braces expanded), and the verb's name ("" for a skill script). */
interface SegmentCommand {
  readonly words: readonly string[];
  readonly verb: string;
  readonly verbLocation: SkillLocation;
}

function checkSegment(context: Context, segment: readonly string[], depth: number): string | undefined {
  let start = 0;
  while (start < segment.length && (ASSIGNMENT.test(segment[start] as string) || WRAPPERS.has(segment[start] as string))) start += 1;
  const words = segment.slice(start).flatMap((word) => expandBraces(word));
  const verbWord = words[0];
  if (verbWord === undefined || DECLARATIONS.has(verbWord)) {
    // `D=/x` or `export D=/x`: later words may use $D.
    rememberAssignments(context, verbWord === undefined ? segment : words.slice(1));
    return undefined;
  }
  const verbLocation = isCommandName(verbWord) ? OUTSIDE : locateWord(context, verbWord);
  const command: SegmentCommand = { words, verbLocation, verb: verbLocation.kind === "outside" ? posix.basename(verbWord) : "" };
  const refusal =
    checkInlineShell(context, command, depth) ??
    checkCdGuess(context, command) ??
    checkRecursiveRead(context, command) ??
    checkLinkOrCopyOfRoot(context, command) ??
    checkSkillPaths(context, command);
  if (refusal === undefined && CD_VERBS.has(command.verb)) followCd(context, words);
  return refusal;
}

/** Records `NAME=value` words (values expanded with what is known), for `$NAME` in later segments. */
function rememberAssignments(context: Context, words: readonly string[]): void {
  const variables = new Map(context.scope.variables);
  for (const word of words) {
    const match = ASSIGNMENT.exec(word);
    if (match) variables.set(match[1] as string, expandVariables(match[2] as string, context.scope));
  }
  context.scope = { ...context.scope, variables };
}

/** Moves the tracked cwd after an allowed `cd` (`cd` alone goes home; `cd -` and computed targets are not followed). */
function followCd(context: Context, words: readonly string[]): void {
  const target = words.slice(1).find((word) => !word.startsWith("-") || word === "-");
  if (target === "-" || target?.includes("$(")) return;
  const cwd = target === undefined ? context.scope.home : resolveWord(context.scope, target);
  const location = locateInRoots(context.roots, cwd);
  context.scope = { ...context.scope, cwd };
  context.cwdSkill = location.kind === "skill" ? location.name : undefined;
}

/** `sh -c "..."`, `bash -c "..."` and `eval ...`: checks the inline command too. */
function checkInlineShell(context: Context, { words, verb }: SegmentCommand, depth: number): string | undefined {
  if (!SHELLS.has(verb) || depth >= 3) return undefined;
  const flag = words.indexOf("-c");
  const inline = verb === "eval" ? words.slice(1).join(" ") : flag > 0 ? words[flag + 1] : undefined;
  return inline === undefined ? undefined : checkCommandText(context, inline, depth + 1);
}

/** `cd skills` and the like: a guess that skills live in the workspace. */
function checkCdGuess(context: Context, { words, verb }: SegmentCommand): string | undefined {
  if (!CD_VERBS.has(verb)) return undefined;
  const target = words.slice(1).find((word) => !word.startsWith("-"));
  if (target === undefined || !isWorkspaceSkillsGuess(context, target)) return undefined;
  return refuse(
    `Skills do not live in the workspace's skills/ folder (cd ${target}). Read a skill with Read skill://<name>/SKILL.md or SkillsManager read, and run its scripts with cwd "skill://<name>". If you mean a workspace folder named skills, pass it as the Bash cwd instead.`,
  );
}

/** True when `target` is a folder that holds the skills root (other than `/` and the home folder's ancestors). */
function holdsSkillsRoot(context: Context, target: string): boolean {
  return target !== "/" && !isAncestorOrSame(target, context.scope.home) && context.roots.some((root) => root.startsWith(`${target}/`));
}

/** A recursive read of a folder that holds the skills root. */
function checkRecursiveRead(context: Context, { words, verb }: SegmentCommand): string | undefined {
  const recursive = RECURSIVE_READ_VERBS.has(verb) || (SKILL_READ_VERBS.has(verb) && words.some((word) => /^-[A-Za-z]*[rR]|^--recursive$/.test(word)));
  if (!recursive) return undefined;
  for (const word of words.slice(1)) {
    if (holdsSkillsRoot(context, resolveWord(context.scope, argumentPath(word)))) {
      return refuse(
        `Bash cannot search or list ${word} recursively with ${verb}: it holds the skills folder. Use SkillsManager list to see the skills, and Read or Glob on skill://<name>/... to read one.`,
      );
    }
  }
  return undefined;
}

/** `ln -s <dataDir> x`, `cp -r <dataDir> /tmp/x`: a link to, or a copy of, a folder holding the skills root (the workspace aside). */
function checkLinkOrCopyOfRoot(context: Context, { words, verb }: SegmentCommand): string | undefined {
  if (!LINK_OR_COPY_VERBS.has(verb)) return undefined;
  const workdir = clean(context.facts.workdir);
  for (const word of words.slice(1)) {
    if (word.startsWith("-")) continue;
    const target = resolveWord(context.scope, word);
    if (holdsSkillsRoot(context, target) && !isAncestorOrSame(target, workdir)) {
      return refuse(
        `Bash cannot ${verb === "ln" ? "link to" : "copy"} ${word} with ${verb}: it holds the skills folder. Use SkillsManager list to see the skills, and Read or Glob on skill://<name>/... to read one.`,
      );
    }
  }
  return undefined;
}

/** One word of a segment that points into the skills root. */
interface SkillWord {
  readonly index: number;
  readonly shown: string;
  readonly location: SkillLocation;
  /** True when only a part of the word names the path (inline code such as `python3 -c "open('...')"`). */
  readonly mentioned: boolean;
}

/** The words of a segment that point into the skills root: whole words (after a redirection, an option's `=`) and paths written inside longer words. */
function skillWords(context: Context, { words, verbLocation }: SegmentCommand): SkillWord[] {
  const found: SkillWord[] = [];
  for (const [index, word] of words.entries()) {
    if (isRedirectOperator(word) || !namesFile(words[index - 1], word)) continue;
    const shown = argumentPath(word);
    const location = index === 0 ? verbLocation : locateWord(context, shown);
    if (location.kind !== "outside") {
      found.push({ index, shown, location, mentioned: false });
      continue;
    }
    for (const mention of rootMentions(expandVariables(word, context.scope), context.roots)) {
      found.push({ index, shown: mention, location: locateInRoots(context.roots, mention), mentioned: true });
    }
  }
  return found;
}

/**
 * Every word that points into the skills root. A skill that is not enabled
 * is refused outright. In an enabled skill: reading with a read verb, `cd`,
 * and changes (a change verb, an output redirection, a copy's destination)
 * unless the policy lets the model change the skill, are refused; running
 * its scripts (by path or through an interpreter, with the skill's files as
 * their arguments), copying out of it and relative paths inside the cwd's
 * own skill are allowed; anything else is refused (the guard cannot tell
 * what an unknown program does with the path).
 */
function checkSkillPaths(context: Context, command: SegmentCommand): string | undefined {
  const { words, verb } = command;
  const found = skillWords(context, command);
  if (found.length === 0) return undefined;
  const runsScript = runsSkillScript(context, command);
  const destination = COPY_VERBS.has(verb) ? copyDestinationIndex(verb, words) : undefined;
  for (const { index, shown, location, mentioned } of found) {
    if (location.kind === "outside") continue;
    if (location.kind === "root" || location.name.startsWith(".")) {
      return refuse(
        `Bash cannot use the skills folder itself (${shown}). Use SkillsManager list to see the skills and Read skill://<name>/SKILL.md to read one.`,
      );
    }
    const { name } = location;
    if (!context.facts.isEnabled(name)) return refuse(notEnabled(name));
    const skillPath = `skill://${name}/${location.rest}`;
    const remote = context.facts.remoteWorkspace;
    if (remote !== undefined && !SKILL_READ_VERBS.has(verb)) return refuse(remoteSkillRefusal(remote, name, `${verb || "running"} ${shown}`));
    const writable = context.facts.canWrite?.(name) === true;
    const redirected = isOutputRedirect(words[index - 1] ?? "");
    const writes = SKILL_CHANGE_VERBS.has(verb) || index === destination || redirected;
    if (writes && !writable) {
      return refuse(
        `Bash cannot change skill files (${redirected ? "redirecting output to" : verb} ${shown}). Change ${skillPath} with Write, Edit or Delete where the host allows it, or use SkillsManager create or install.`,
      );
    }
    if (!mentioned && context.cwdSkill === name && isRelativeWord(context.scope, shown)) continue;
    if (SKILL_READ_VERBS.has(verb)) {
      return refuse(
        `Bash cannot read skill files with ${verb}: ${shown} is inside the skills folder. Read ${skillPath} with Read (or list it with Glob skill://${name}/**), or use SkillsManager read.`,
      );
    }
    if (CD_VERBS.has(verb)) {
      return refuse(
        `Bash cannot ${verb} into the skills folder (${shown}). Pass cwd "skill://${name}" to run the skill's scripts from its folder, and read its files with Read ${location.rest ? skillPath : `${skillPath}SKILL.md`} or SkillsManager read.`,
      );
    }
    if (writable || runsScript || (COPY_VERBS.has(verb) && !mentioned)) continue;
    return refuse(
      `Bash may use the files of skill://${name}/ only to run its scripts (by path, or through an interpreter such as python3 or node) or to copy them out with cp, so ${verb || "this command"} with ${shown} is refused. Read ${skillPath} with Read, and run the skill's scripts with cwd "skill://${name}".`,
    );
  }
  return undefined;
}

/** False for what follows a redirection but names no file: a here-document's delimiter, a here-string, `2>&1`'s descriptor. */
function namesFile(previous: string | undefined, word: string): boolean {
  if (previous === undefined || !isRedirectOperator(previous)) return true;
  if (/<<$|<<-$|<<<$/.test(previous)) return false;
  return !(/&$/.test(previous) && /^(?:\d+|-)$/.test(word));
}

/**
 * True when the segment runs a script of an enabled skill: by its path, or
 * as an interpreter's first argument (not inline code given with `-c`/`-e`).
 */
function runsSkillScript(context: Context, { words, verb, verbLocation }: SegmentCommand): boolean {
  if (verbLocation.kind === "skill") return true;
  if (!SKILL_SCRIPT_RUNNERS.has(verb)) return false;
  for (const word of words.slice(1)) {
    if (INLINE_CODE_FLAGS.has(word)) return false;
    if (word.startsWith("-")) continue;
    const location = locateWord(context, word);
    return location.kind === "skill" || (context.cwdSkill !== undefined && isRelativeWord(context.scope, word));
  }
  return false;
}

/** The index of a copy's destination: the value of cp's or install's `-t` / `--target-directory`, else the last operand. */
function copyDestinationIndex(verb: string, words: readonly string[]): number | undefined {
  if (verb !== "rsync") {
    for (const [index, word] of words.entries()) {
      if (word === "-t" || word === "--target-directory") return index + 1;
      if (word.startsWith("--target-directory=") || /^-t[/.~$]/.test(word)) return index;
    }
  }
  let last: number | undefined;
  for (const [index, word] of words.entries()) {
    if (index > 0 && !word.startsWith("-") && !isRedirectOperator(word) && !isRedirectOperator(words[index - 1] ?? "")) last = index;
  }
  return last;
}

/** Where a word points: the root for a glob or brace that may reach it, a skill, or outside. */
function locateWord(context: Context, word: string): SkillLocation {
  return locateInRoots(context.roots, resolveWord(context.scope, word));
}

/** A bare command name (looked up in PATH, not a path). */
function isCommandName(word: string): boolean {
  return !word.includes("/") && !word.startsWith("~") && !word.startsWith("$");
}

/** True for `find` (or `locate`) over `/` or the home folder when the command mentions skills. */
function findHuntsSkills(context: Context, command: string): boolean {
  if (!/skill/i.test(command)) return false;
  const home = context.scope.home;
  return splitShellSegments(command).some((words) => {
    const start = words.findIndex((word) => ["find", "locate", "mlocate", "plocate"].includes(posix.basename(word)));
    if (start < 0) return false;
    if (posix.basename(words[start] as string) !== "find") return true;
    const paths = [];
    for (const word of words.slice(start + 1)) {
      if (word.startsWith("-") || word === "(" || word === "!") break;
      paths.push(word);
    }
    return paths.some((word) => {
      const target = resolveWord(context.scope, word);
      return isAncestorOrSame(target, home) || context.roots.some((root) => target !== root && isAncestorOrSame(target, root));
    });
  });
}

/** True for `cd skills`, `cd ./skills/x` or `cd <workdir>/skills/...`: a guess that skills live in the workspace. */
function isWorkspaceSkillsGuess(context: Context, target: string): boolean {
  if (/^(?:\.\/)*\.?skills(?:\/|$)/.test(target)) return true;
  const workdir = clean(context.facts.workdir);
  const resolved = resolveWord(context.scope, target);
  return (
    resolved === `${workdir}/skills` ||
    resolved.startsWith(`${workdir}/skills/`) ||
    resolved === `${workdir}/.skills` ||
    resolved.startsWith(`${workdir}/.skills/`)
  );
}

/** Why a command may not use a skill's files on a non-local workspace, and what to do instead. */
function remoteSkillRefusal(workspace: string, name: string, what: string): string {
  return `Bash runs on ${workspace}, where the skill's files are not: skills live on the host, so ${what} is refused there (and nothing of the skill runs on the host either). Read the skill's instructions and files with Read skill://${name}/... or SkillsManager read, and do its work with the workspace's own tools; to run a skill's scripts on ${workspace}, the host installs the skill's files there as project files, or uses a local workspace.`;
}

function notEnabled(name: string): string {
  return `Skill "${name}" is not enabled for this session, so Bash may not run, read or change anything in its folder. Use SkillsManager list to see the enabled skills.`;
}

function refuse(message: string): string {
  return `${message} ${SKILL_DENIAL_SUFFIX}`;
}
