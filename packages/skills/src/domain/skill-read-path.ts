/**
 * The `path` of the read action: which skill, and which file inside it.
 */
import { ToolError } from "@agent-tools/core";

const FORMS = 'Use skill://<name>/SKILL.md (or skill://<name>/<file>, "<name>/<file>", or just "<name>").';

/** A parsed read path: the skill's name and a file inside its folder (with `/`). */
export interface SkillReadPath {
  readonly skillName: string;
  readonly relativePath: string;
}

/**
 * Parses the `path` of the read action. Accepted forms: `skill://x/SKILL.md`,
 * `skill:x/...`, `x/SKILL.md`, and `x` alone (meaning `x/SKILL.md`). Empty
 * and `.` segments are dropped; absolute paths, `~`, `..`, backslashes and
 * NUL characters are rejected, since a read never leaves the skill folder.
 *
 * @throws ToolError `invalid_arguments` pointing at `skill://<name>/SKILL.md`.
 * @example
 * parseSkillReadPath("skill://pdf/scripts/run.py"); // { skillName: "pdf", relativePath: "scripts/run.py" }
 * parseSkillReadPath("pdf"); // { skillName: "pdf", relativePath: "SKILL.md" }
 */
export function parseSkillReadPath(input: string): SkillReadPath {
  const trimmed = input.trim();
  const shown = JSON.stringify(input);
  if (trimmed === "") throw invalid(`"path" is empty. ${FORMS}`);
  let rest = trimmed;
  if (/^skill:\/\//i.test(rest)) rest = rest.slice("skill://".length);
  else if (/^skill:/i.test(rest)) rest = rest.slice("skill:".length);
  if (rest.startsWith("/") || /^[A-Za-z]:[\\/]/.test(rest)) {
    throw invalid(`"path" ${shown} is absolute; read only reads inside skill folders. ${FORMS}`);
  }
  if (rest.startsWith("~")) throw invalid(`"path" ${shown} points into a home folder; read only reads inside skill folders. ${FORMS}`);
  if (rest.includes("\\")) throw invalid(`"path" ${shown} holds a backslash: separate folders with "/". ${FORMS}`);
  if (rest.includes("\0")) throw invalid(`"path" ${shown} holds a NUL character. ${FORMS}`);
  const segments = rest.split("/").filter((segment) => segment !== "" && segment !== ".");
  if (segments.includes("..")) throw invalid(`"path" ${shown} holds "..": a read stays inside one skill folder. ${FORMS}`);
  const [skillName, ...file] = segments;
  if (skillName === undefined) throw invalid(`"path" ${shown} names no skill. ${FORMS}`);
  return { skillName, relativePath: file.length === 0 ? "SKILL.md" : file.join("/") };
}

function invalid(message: string): ToolError {
  return new ToolError("invalid_arguments", message);
}
