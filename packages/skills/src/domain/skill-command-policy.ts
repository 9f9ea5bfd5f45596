/**
 * The Bash guard of the skill access policy: a shell command may run a
 * script of an enabled skill by its path, but may not read, list, search or
 * change the skills folder with shell tools, `cd` into it, hunt for skills
 * with `find /`, or climb out of a skill folder with `..`. Reading goes
 * through Read / Glob on `skill://<name>/...` or SkillsManager read, where
 * the policy applies. Paths are compared as POSIX paths.
 */
import { posix } from "node:path";
import { splitShellSegments } from "./shell-words.js";
import { SKILL_DENIAL_SUFFIX } from "./skill-types.js";

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
}

/** Commands that read, list or search files: refused on skill paths. */
export const SKILL_READ_VERBS: ReadonlySet<string> = new Set([
  ...["cat", "head", "tail", "less", "more", "ls", "find", "grep", "rg", "sed", "awk"],
  ...["egrep", "fgrep", "tree", "bat", "nl", "tac", "xxd", "od", "strings", "base64", "fd"],
]);

/** Commands that change files: refused on skill paths (changes go through Write / Edit / Delete or SkillsManager). */
export const SKILL_CHANGE_VERBS: ReadonlySet<string> = new Set(["rm", "rmdir", "mv", "touch", "chmod", "chown", "ln", "truncate", "tee", "mkdir"]);

/** Read verbs that walk folders without a flag. */
const RECURSIVE_READ_VERBS: ReadonlySet<string> = new Set(["find", "rg", "tree", "fd"]);
const COPY_VERBS: ReadonlySet<string> = new Set(["cp", "rsync", "install"]);
const CD_VERBS: ReadonlySet<string> = new Set(["cd", "pushd"]);
const WRAPPERS: ReadonlySet<string> = new Set(["sudo", "env", "command", "exec", "nohup", "time", "nice", "xargs", "builtin"]);
const SHELLS: ReadonlySet<string> = new Set(["sh", "bash", "zsh", "dash", "ksh", "eval"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const REDIRECT = /^\d*(?:>>|>\||>&|&>>|&>|>|<<<|<<|<&|<)/;
const GLOB = /[*?[]/;

/** Where a path falls relative to the skills root. */
type Location = { readonly kind: "outside" } | { readonly kind: "root" } | { readonly kind: "skill"; readonly name: string; readonly rest: string };

const OUTSIDE: Location = { kind: "outside" };

interface Context {
  readonly facts: SkillCommandFacts;
  readonly roots: readonly string[];
  readonly cwd: string;
  /** The skill the cwd sits in, if any. */
  readonly cwdSkill?: string;
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
  const base = { facts, roots, cwd: clean(request.cwd) };
  const cwdLocation = locate(base, base.cwd);
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
  const context: Context = cwdLocation.kind === "skill" ? { ...base, cwdSkill: cwdLocation.name } : base;
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

/** One command of the line: its words after env assignments and wrappers, and the verb's name ("" for a skill script). */
interface SegmentCommand {
  readonly words: readonly string[];
  readonly verb: string;
  readonly verbLocation: Location;
}

function checkSegment(context: Context, segment: readonly string[], depth: number): string | undefined {
  let start = 0;
  while (start < segment.length && (ASSIGNMENT.test(segment[start] as string) || WRAPPERS.has(segment[start] as string))) start += 1;
  const words = segment.slice(start);
  const verbWord = words[0];
  if (verbWord === undefined) return undefined;
  const verbLocation = isCommandName(verbWord) ? OUTSIDE : locate(context, resolveWord(context, verbWord));
  const command: SegmentCommand = { words, verbLocation, verb: verbLocation.kind === "outside" ? posix.basename(verbWord) : "" };
  return (
    checkInlineShell(context, command, depth) ?? checkCdGuess(context, command) ?? checkRecursiveRead(context, command) ?? checkSkillPaths(context, command)
  );
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

/** A recursive read of a folder that holds the skills root (other than `/` and the home folder's ancestors). */
function checkRecursiveRead(context: Context, { words, verb }: SegmentCommand): string | undefined {
  const recursive = RECURSIVE_READ_VERBS.has(verb) || (SKILL_READ_VERBS.has(verb) && words.some((word) => /^-[A-Za-z]*[rR]|^--recursive$/.test(word)));
  if (!recursive) return undefined;
  const home = clean(context.facts.homeDir);
  for (const word of words.slice(1)) {
    const target = clean(posix.normalize(resolveWord(context, argumentPath(word))));
    if (target !== "/" && !isAncestorOrSame(target, home) && context.roots.some((root) => root.startsWith(`${target}/`))) {
      return refuse(
        `Bash cannot search or list ${word} recursively with ${verb}: it holds the skills folder. Use SkillsManager list to see the skills, and Read or Glob on skill://<name>/... to read one.`,
      );
    }
  }
  return undefined;
}

/** Every word that points into the skills root: allowed only to run an enabled skill's scripts (or relative to the current skill). */
function checkSkillPaths(context: Context, { words, verb, verbLocation }: SegmentCommand): string | undefined {
  const destination = COPY_VERBS.has(verb) ? words[words.length - 1] : undefined;
  for (const [index, word] of words.entries()) {
    const location = index === 0 ? verbLocation : locate(context, resolveWord(context, argumentPath(word)));
    if (location.kind === "outside") continue;
    const shown = argumentPath(word);
    if (location.kind === "root" || location.name.startsWith(".")) {
      return refuse(
        `Bash cannot use the skills folder itself (${shown}). Use SkillsManager list to see the skills and Read skill://<name>/SKILL.md to read one.`,
      );
    }
    const { name } = location;
    if (!context.facts.isEnabled(name)) return refuse(notEnabled(name));
    if (context.cwdSkill === name && isRelative(shown)) continue;
    const skillPath = `skill://${name}/${location.rest}`;
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
    const redirected = (REDIRECT.test(word) && word.replace(/^\d*/, "").startsWith(">")) || isAfterOutputRedirect(words, index);
    if (SKILL_CHANGE_VERBS.has(verb) || word === destination || redirected) {
      return refuse(
        `Bash cannot change skill files (${redirected ? "redirecting output to" : verb} ${shown}). Change ${skillPath} with Write, Edit or Delete where the host allows it, or use SkillsManager create or install.`,
      );
    }
  }
  return undefined;
}

/** True when `ancestor` is `path` or one of its parent folders. */
function isAncestorOrSame(ancestor: string, path: string): boolean {
  return ancestor === path || ancestor === "/" || path.startsWith(`${ancestor}/`);
}

/** True when the word before `index` is a bare output redirection (`>` or `>>`). */
function isAfterOutputRedirect(words: readonly string[], index: number): boolean {
  const previous = words[index - 1];
  return previous !== undefined && /^\d*(?:>>|>\||&>>|&>|>)$/.test(previous);
}

/** The path part of a word: without a leading redirection, or the value of `--option=value`. */
function argumentPath(word: string): string {
  const redirect = REDIRECT.exec(word);
  if (redirect) return word.slice(redirect[0].length);
  const option = /^--?[A-Za-z0-9-]+=(.*)$/.exec(word);
  return option ? (option[1] as string) : word;
}

/** A bare command name (looked up in PATH, not a path). */
function isCommandName(word: string): boolean {
  return !word.includes("/") && isRelative(word);
}

function isRelative(word: string): boolean {
  return !word.startsWith("/") && !word.startsWith("~") && !/^\$\{?HOME\b/.test(word);
}

/** Expands `~`, `$HOME` and `${HOME}` and resolves a relative word against the cwd. */
function resolveWord(context: Context, word: string): string {
  const home = clean(context.facts.homeDir);
  let expanded = word;
  if (word === "~" || word.startsWith("~/")) expanded = home + word.slice(1);
  else {
    const variable = /^\$(?:HOME\b|\{HOME\})/.exec(word);
    if (variable) expanded = home + word.slice(variable[0].length);
  }
  return posix.isAbsolute(expanded) ? expanded : posix.join(context.cwd, expanded);
}

/** Where an absolute (possibly globbed) path falls: outside, on the root itself, or in a skill. */
function locate(context: Pick<Context, "roots">, absolute: string): Location {
  const glob = GLOB.exec(absolute);
  const cut = glob ? absolute.lastIndexOf("/", glob.index) : -1;
  const normal = clean(posix.normalize(glob ? absolute.slice(0, cut + 1) || "/" : absolute));
  const tail = glob ? absolute.slice(cut + 1) : "";
  for (const root of context.roots) {
    if (normal === root) return { kind: "root" };
    if (normal.startsWith(`${root}/`)) {
      const [name = "", ...rest] = normal.slice(root.length + 1).split("/");
      return { kind: "skill", name, rest: [...rest, tail].filter((part) => part !== "").join("/") };
    }
    if (glob && normal === posix.dirname(root) && globMatches(tail.split("/")[0] as string, posix.basename(root))) return { kind: "root" };
  }
  return { kind: "outside" };
}

function globMatches(pattern: string, name: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  try {
    return new RegExp(`^${source}$`).test(name);
  } catch {
    return true;
  }
}

/** True for `find` (or `locate`) over `/` or the home folder when the command mentions skills. */
function findHuntsSkills(context: Context, command: string): boolean {
  if (!/skill/i.test(command)) return false;
  const home = clean(context.facts.homeDir);
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
      const target = clean(posix.normalize(resolveWord(context, word)));
      return isAncestorOrSame(target, home) || context.roots.some((root) => target !== root && isAncestorOrSame(target, root));
    });
  });
}

/** True for `cd skills`, `cd ./skills/x` or `cd <workdir>/skills/...`: a guess that skills live in the workspace. */
function isWorkspaceSkillsGuess(context: Context, target: string): boolean {
  if (/^(?:\.\/)*\.?skills(?:\/|$)/.test(target)) return true;
  const workdir = clean(context.facts.workdir);
  const resolved = clean(posix.normalize(resolveWord(context, target)));
  return (
    resolved === `${workdir}/skills` ||
    resolved.startsWith(`${workdir}/skills/`) ||
    resolved === `${workdir}/.skills` ||
    resolved.startsWith(`${workdir}/.skills/`)
  );
}

function notEnabled(name: string): string {
  return `Skill "${name}" is not enabled for this session, so Bash may not run, read or change anything in its folder. Use SkillsManager list to see the enabled skills.`;
}

function refuse(message: string): string {
  return `${message} ${SKILL_DENIAL_SUFFIX}`;
}

function clean(path: string): string {
  const slashed = path.replace(/\\/g, "/");
  return slashed.length > 1 ? slashed.replace(/\/+$/, "") : slashed;
}
