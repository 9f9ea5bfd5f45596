import { constants } from "node:fs";
import { lstat, open, readdir } from "node:fs/promises";
import path from "node:path";
import { SKILL_LIMITS, type SkillFileEntry } from "../domain/skill-types.js";

/** Extensions whose first line is read (the shebang rule of scripts). */
const SCRIPT_EXTENSIONS = new Set([".py", ".sh", ".bash"]);
/** Longest first line kept, in characters. */
const FIRST_LINE_MAX = 256;

/**
 * Lists a skill folder for validation: every file, directory and symlink
 * below `dir`, paths relative to it with `/`, sorted by plain string order.
 * Symlinks are reported as `symlink` and never followed. Scripts (`.py`,
 * `.sh`, `.bash`) carry their first line. The walk stops once it has seen
 * more than `SKILL_LIMITS.skillMaxFiles` non-directory entries, so a huge
 * folder costs little: the listing then holds `skillMaxFiles + 1` of them,
 * enough for validation to report `too_many_files`.
 *
 * @example
 * const entries = await listSkillFolder("/home/me/.agent-tools/skills/pdf-tools");
 * // [{ path: "SKILL.md", kind: "file", size: 812 }, { path: "scripts", kind: "directory", size: 0 }, ...]
 */
export async function listSkillFolder(dir: string): Promise<SkillFileEntry[]> {
  const entries: SkillFileEntry[] = [];
  let files = 0;
  const limit = SKILL_LIMITS.skillMaxFiles + 1;
  const walk = async (relative: string): Promise<boolean> => {
    const names = (await readdir(relative === "" ? dir : path.join(dir, relative))).sort();
    for (const name of names) {
      const entryPath = relative === "" ? name : `${relative}/${name}`;
      const absolute = path.join(dir, entryPath);
      const stats = await lstat(absolute);
      if (stats.isDirectory()) {
        entries.push({ path: entryPath, kind: "directory", size: 0 });
        if (!(await walk(entryPath))) return false;
        continue;
      }
      if (stats.isSymbolicLink()) {
        entries.push({ path: entryPath, kind: "symlink", size: 0 });
      } else {
        const firstLine = stats.isFile() && SCRIPT_EXTENSIONS.has(path.extname(name).toLowerCase()) ? await readFirstLine(absolute) : undefined;
        entries.push(
          firstLine === undefined ? { path: entryPath, kind: "file", size: stats.size } : { path: entryPath, kind: "file", size: stats.size, firstLine },
        );
      }
      files += 1;
      if (files >= limit) return false;
    }
    return true;
  };
  await walk("");
  return entries.sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
}

/** Opens without following a symlink and without waiting on a FIFO (a confined command may have swapped the entry since its lstat). */
const FIRST_LINE_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0);

/** The first line of a regular file (without `\r`), up to {@link FIRST_LINE_MAX} characters; undefined for anything else. */
async function readFirstLine(file: string): Promise<string | undefined> {
  const handle = await open(file, FIRST_LINE_FLAGS).catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    if (!(await handle.stat()).isFile()) return undefined;
    const buffer = Buffer.alloc(FIRST_LINE_MAX * 4);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, bytesRead).toString("utf8");
    const end = text.indexOf("\n");
    return (end === -1 ? text : text.slice(0, end)).replace(/\r$/, "").slice(0, FIRST_LINE_MAX);
  } finally {
    await handle.close();
  }
}
