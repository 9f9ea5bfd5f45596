import { randomBytes } from "node:crypto";
import { lstat, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { ToolError } from "@agent-tools/core";
import { openContainedTree } from "@agent-tools/file-io/internal";
import { SKILL_LIMITS, SKILLS_ROOT_FOLDERS, type SkillConflictMode } from "../domain/skill-types.js";

/** What a swap did with a skill that was already there. */
export type SkillSwapOutcome =
  | { readonly previous: "none" }
  | { readonly previous: "overwritten" }
  | { readonly previous: "backed_up"; readonly backupPath: string };

/** The journal of one swap: enough to finish it after a crash. Paths are relative to the skills root. */
interface SwapJournal {
  readonly name: string;
  /** The validated staged folder that becomes the skill. */
  readonly staged: string;
  /** Where the old folder goes (trash or backup). */
  readonly old: string;
}

const JOURNAL_PREFIX = "swap-";
const TRASH_PREFIX = "trash-";

/** A time stamp for folder names: `20260102T030405123Z`. */
export const folderStamp = (milliseconds: number) => new Date(milliseconds).toISOString().replace(/[-:.]/g, "");
const suffix = () => randomBytes(3).toString("hex");

/** `file` relative to `rootDir` with `/`, or undefined when it is not inside. */
function insideRoot(rootDir: string, file: string): string | undefined {
  const relative = path.isAbsolute(file) ? path.relative(rootDir, file) : path.normalize(file);
  if (relative === "" || relative === ".." || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep).join("/");
}

/**
 * Moves a validated staged folder into `<root>/<name>` with renames only,
 * each through a contained tree held at the root (no symlink on the way is
 * followed). The caller holds the write guard and has run
 * {@link recoverInterruptedSwaps}.
 *
 * - no skill there: one rename;
 * - `fail`: `conflict` "Destination already exists";
 * - `overwrite`: the old folder is renamed to `.staging/trash-*` and deleted
 *   once the new one is in place;
 * - `backup`: the old folder is renamed to `.backups/<name>-<stamp>-<suffix>`.
 *
 * Between the two renames the skill has no folder. A journal
 * (`.staging/swap-*.json`, written whole by a rename before the first
 * move and removed after the second) lets {@link recoverInterruptedSwaps}
 * finish the swap after a crash, so the skill is always the old or the
 * new version, never missing. Renames are not fsynced: the guarantee holds
 * for a killed process, not for a power cut.
 */
export async function swapSkillIntoPlace(
  rootDir: string,
  input: { readonly name: string; readonly staged: string; readonly conflict: SkillConflictMode; readonly now: number },
): Promise<SkillSwapOutcome> {
  const staged = insideRoot(rootDir, input.staged);
  if (staged === undefined) throw new Error(`the staged folder ${input.staged} is not inside ${rootDir}`);
  const tree = openContainedTree(rootDir);
  try {
    if ((await tree.lstat(input.name)) === undefined) {
      await tree.rename(staged, input.name);
      return { previous: "none" };
    }
    if (input.conflict === "fail") {
      throw new ToolError(
        "conflict",
        `Destination already exists: skill "${input.name}" is already installed. Repeat with conflict "backup" to keep a copy of the current version in ${SKILLS_ROOT_FOLDERS.backups}, or conflict "overwrite" to replace it.`,
        { details: { name: input.name, path: path.join(rootDir, input.name) } },
      );
    }
    const id = `${folderStamp(input.now)}-${suffix()}`;
    const old =
      input.conflict === "overwrite"
        ? `${SKILLS_ROOT_FOLDERS.staging}/${TRASH_PREFIX}${input.name}-${id}`
        : `${SKILLS_ROOT_FOLDERS.backups}/${input.name}-${id}`;
    const journal = `${SKILLS_ROOT_FOLDERS.staging}/${JOURNAL_PREFIX}${id}.json`;
    const record: SwapJournal = { name: input.name, staged, old };
    await tree.writeFile(journal, new TextEncoder().encode(JSON.stringify(record)));
    await tree.rename(input.name, old);
    await tree.rename(staged, input.name);
    await tree.remove(journal);
    if (input.conflict === "overwrite") {
      await rm(path.join(rootDir, old), { recursive: true, force: true });
      return { previous: "overwritten" };
    }
    return { previous: "backed_up", backupPath: path.join(rootDir, old) };
  } finally {
    tree.close();
  }
}

/**
 * Finishes swaps a crash interrupted (see {@link swapSkillIntoPlace}): for
 * each journal, when the skill folder is missing, the staged folder is moved
 * in (or, when that is gone too, the old one is moved back); then the
 * journal is removed. Only paths inside the root are moved, through a
 * contained tree. Returns the names it restored. The caller holds the
 * write guard.
 */
export async function recoverInterruptedSwaps(rootDir: string): Promise<string[]> {
  const stagingDir = path.join(rootDir, SKILLS_ROOT_FOLDERS.staging);
  const names = (await readdir(stagingDir).catch(() => [] as string[])).filter((name) => name.startsWith(JOURNAL_PREFIX) && name.endsWith(".json")).sort();
  if (names.length === 0) return [];
  const restored: string[] = [];
  const tree = openContainedTree(rootDir);
  try {
    for (const entry of names) {
      const journal = `${SKILLS_ROOT_FOLDERS.staging}/${entry}`;
      let record: Partial<SwapJournal> | undefined;
      try {
        record = JSON.parse((await tree.readFile(journal)).toString("utf8")) as Partial<SwapJournal>;
      } catch {
        record = undefined;
      }
      const name = record?.name;
      if (typeof name === "string" && name !== "" && !name.includes("/") && !name.includes("\\") && !name.startsWith(".")) {
        const staged = typeof record?.staged === "string" ? insideRoot(rootDir, record.staged) : undefined;
        const old = typeof record?.old === "string" ? insideRoot(rootDir, record.old) : undefined;
        if ((await tree.lstat(name)) === undefined) {
          if (staged !== undefined && (await tree.lstat(staged)) !== undefined) await tree.rename(staged, name);
          else if (old !== undefined && (await tree.lstat(old)) !== undefined) await tree.rename(old, name);
          restored.push(name);
        }
      }
      await tree.remove(journal).catch(() => undefined);
    }
  } finally {
    tree.close();
  }
  return restored;
}

/**
 * Cleans `.staging`: finishes interrupted swaps first, then deletes trash
 * (`trash-*`), half-written journals and anything older than
 * `SKILL_LIMITS.stagingMaxAgeMs` (by modification time). Fresh staging
 * folders of installs still running elsewhere are left alone. The caller
 * holds the write guard. Returns how many entries it removed.
 */
export async function purgeStagingFolder(rootDir: string, now: number): Promise<number> {
  await recoverInterruptedSwaps(rootDir);
  const stagingDir = path.join(rootDir, SKILLS_ROOT_FOLDERS.staging);
  const names = await readdir(stagingDir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const entry = path.join(stagingDir, name);
    const stats = await lstat(entry).catch(() => undefined);
    if (stats === undefined) continue;
    // Journals are written under the guard, so a journal's temporary file (`.swap-*.tmp`, or `*.json.tmp` of older versions) is a leftover.
    const halfWritten = name.endsWith(".json.tmp") || (name.startsWith(`.${JOURNAL_PREFIX}`) && name.endsWith(".tmp"));
    const stale = name.startsWith(TRASH_PREFIX) || halfWritten || now - stats.mtimeMs > SKILL_LIMITS.stagingMaxAgeMs;
    if (!stale) continue;
    await rm(entry, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}
