import { lstat, readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { ToolError } from "@agent-tools/core";
import { skillPathProblem } from "../domain/skill-validation.js";
import { SKILL_LIMITS } from "../domain/skill-types.js";

/** A page of lines of a text file inside a skill. */
export interface SkillFilePage {
  readonly name: string;
  /** Relative to the skill folder, with `/`. */
  readonly path: string;
  readonly absolutePath: string;
  /** The lines of the page joined with `\n`. */
  readonly content: string;
  /** 0-based index of the first line returned. */
  readonly offset: number;
  /** Lines returned. */
  readonly lineCount: number;
  readonly totalLines: number;
  /** Where the next page starts; undefined on the last page. */
  readonly nextOffset?: number;
}

/**
 * Reads lines `offset .. offset + length` (0-based; default length
 * `SKILL_LIMITS.readDefaultLength`) of a text file inside the skill folder
 * `baseDir`. Refuses unsafe paths, symlinks (also in a parent folder),
 * folders, files over `fileMaxBytes`, binary files (a NUL byte) and
 * invalid UTF-8; a missing file is `not_found` with a hint to list the
 * skill's files.
 */
export async function readSkillFilePage(
  name: string,
  baseDir: string,
  relativePath: string,
  options: { readonly offset?: number; readonly length?: number } = {},
): Promise<SkillFilePage> {
  const offset = options.offset ?? 0;
  const length = options.length ?? SKILL_LIMITS.readDefaultLength;
  if (!Number.isInteger(offset) || offset < 0) throw new ToolError("invalid_arguments", `offset must be a whole number from 0 (got ${offset}).`);
  if (!Number.isInteger(length) || length < 1) throw new ToolError("invalid_arguments", `length must be a whole number from 1 (got ${length}).`);
  const cleaned = relativePath.replace(/^\.\//, "");
  const problem = skillPathProblem(cleaned);
  if (problem !== undefined) throw new ToolError("invalid_path", problem, { details: { path: relativePath } });
  const absolutePath = path.join(baseDir, ...cleaned.split("/"));
  const shown = `skill://${name}/${cleaned}`;
  const missing = () =>
    new ToolError(
      "not_found",
      `${shown} does not exist. List the skill's files with Glob on skill://${name}/ (or SkillsManager list for the skills), then read one of them.`,
      {
        details: { name, path: cleaned },
      },
    );
  const stats = await lstat(absolutePath).catch(() => undefined);
  if (stats === undefined) throw missing();
  if (stats.isSymbolicLink()) throw new ToolError("permission_denied", `${shown} is a symlink; skills may not contain symlinks and they are not followed.`);
  if (stats.isDirectory()) throw new ToolError("not_a_file", `${shown} is a folder. Read a file inside it; list them with Glob on ${shown}/.`);
  const realBase = await realpath(baseDir);
  if (!(await realpath(absolutePath)).startsWith(`${realBase}${path.sep}`)) {
    throw new ToolError("permission_denied", `${shown} resolves outside the skill folder (a symlinked parent folder); it is not read.`);
  }
  if (stats.size > SKILL_LIMITS.fileMaxBytes)
    throw new ToolError("too_large", `${shown} is ${stats.size} bytes; files over ${SKILL_LIMITS.fileMaxBytes} bytes are not read.`);
  const bytes = await readFile(absolutePath);
  if (bytes.includes(0)) throw new ToolError("binary_file", `${shown} is a binary file; only text files can be read here.`);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ToolError("not_utf8", `${shown} is not valid UTF-8 text; only text files can be read here.`);
  }
  const lines = text === "" ? [] : text.replace(/\n$/, "").split("\n");
  if (offset > 0 && offset >= lines.length) {
    throw new ToolError("out_of_bounds", `${shown} has ${lines.length} lines; offset ${offset} is past the end. Use an offset below ${lines.length}.`);
  }
  const page = lines.slice(offset, offset + length);
  const end = offset + page.length;
  return {
    name,
    path: cleaned,
    absolutePath,
    content: page.join("\n"),
    offset,
    lineCount: page.length,
    totalLines: lines.length,
    ...(end < lines.length ? { nextOffset: end } : {}),
  };
}
