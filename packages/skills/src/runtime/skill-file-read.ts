import path from "node:path";
import { ToolError } from "@agent-tools/core";
import { skillPathProblem } from "../domain/skill-validation.js";
import { SKILL_LIMITS } from "../domain/skill-types.js";
import { readFileNoFollow } from "./skill-file-open.js";

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
 * skill's files. The file is opened without following a symlink anywhere
 * below the skills root (the skill folder included) and read from that
 * descriptor ({@link readFileNoFollow}): a file a confined command flips to
 * a symlink or a FIFO is refused, never read through or waited on.
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
  const read = await readFileNoFollow(path.dirname(baseDir), [path.basename(baseDir), ...cleaned.split("/")], SKILL_LIMITS.fileMaxBytes);
  switch (read.kind) {
    case "missing":
      throw missing();
    case "symlink":
      throw new ToolError("permission_denied", `${shown} is or lies under a symlink; skills may not contain symlinks and they are not followed.`);
    case "directory":
      throw new ToolError("not_a_file", `${shown} is a folder. Read a file inside it; list them with Glob on ${shown}/.`);
    case "special":
      throw new ToolError("not_a_file", `${shown} is not a regular file (a FIFO, socket or device); only files of a skill can be read.`);
    case "too_large":
      throw new ToolError("too_large", `${shown} is ${read.size} bytes; files over ${SKILL_LIMITS.fileMaxBytes} bytes are not read.`);
  }
  const bytes = Buffer.from(read.data.buffer, read.data.byteOffset, read.data.byteLength);
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
