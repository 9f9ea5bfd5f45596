import { randomBytes } from "node:crypto";
import { lstat, mkdir, readdir, readFile, rename, rm, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { ToolError } from "@agent-tools/core";
import { SKILL_LIMITS, SKILLS_ROOT_FOLDERS, type SkillConflictMode } from "../domain/skill-types.js";

/** What a swap did with a skill that was already there. */
export type SkillSwapOutcome =
  | { readonly previous: "none" }
  | { readonly previous: "overwritten" }
  | { readonly previous: "backed_up"; readonly backupPath: string };

/** The journal of one swap: enough to finish it after a crash. */
interface SwapJournal {
  readonly name: string;
  /** The validated staged folder that becomes the skill. */
  readonly staged: string;
  /** Where the old folder goes (trash or backup). */
  readonly old: string;
}

const JOURNAL_PREFIX = "swap-";
const TRASH_PREFIX = "trash-";

const exists = async (file: string) =>
  lstat(file).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return false;
      throw error;
    },
  );

/** A time stamp for folder names: `20260102T030405123Z`. */
export const folderStamp = (milliseconds: number) => new Date(milliseconds).toISOString().replace(/[-:.]/g, "");
const suffix = () => randomBytes(3).toString("hex");

/**
 * Moves a validated staged folder into `<root>/<name>` with renames only.
 * The caller holds the write guard and has run {@link recoverInterruptedSwaps}.
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
  const target = path.join(rootDir, input.name);
  if (!(await exists(target))) {
    await rename(input.staged, target);
    return { previous: "none" };
  }
  if (input.conflict === "fail") {
    throw new ToolError(
      "conflict",
      `Destination already exists: skill "${input.name}" is already installed. Repeat with conflict "backup" to keep a copy of the current version in ${SKILLS_ROOT_FOLDERS.backups}, or conflict "overwrite" to replace it.`,
      { details: { name: input.name, path: target } },
    );
  }
  const stagingDir = path.join(rootDir, SKILLS_ROOT_FOLDERS.staging);
  const id = `${folderStamp(input.now)}-${suffix()}`;
  const old =
    input.conflict === "overwrite"
      ? path.join(stagingDir, `${TRASH_PREFIX}${input.name}-${id}`)
      : path.join(rootDir, SKILLS_ROOT_FOLDERS.backups, `${input.name}-${id}`);
  if (input.conflict === "backup") await mkdir(path.dirname(old), { recursive: true });
  const journal = path.join(stagingDir, `${JOURNAL_PREFIX}${id}.json`);
  const record: SwapJournal = { name: input.name, staged: input.staged, old };
  await writeFile(`${journal}.tmp`, JSON.stringify(record));
  await rename(`${journal}.tmp`, journal);
  await rename(target, old);
  await rename(input.staged, target);
  await unlink(journal);
  if (input.conflict === "overwrite") {
    await rm(old, { recursive: true, force: true });
    return { previous: "overwritten" };
  }
  return { previous: "backed_up", backupPath: old };
}

/**
 * Finishes swaps a crash interrupted (see {@link swapSkillIntoPlace}): for
 * each journal, when the skill folder is missing, the staged folder is moved
 * in (or, when that is gone too, the old one is moved back); then the
 * journal is removed. Returns the names it restored. The caller holds the
 * write guard.
 */
export async function recoverInterruptedSwaps(rootDir: string): Promise<string[]> {
  const stagingDir = path.join(rootDir, SKILLS_ROOT_FOLDERS.staging);
  const names = await readdir(stagingDir).catch(() => [] as string[]);
  const restored: string[] = [];
  for (const entry of names.filter((name) => name.startsWith(JOURNAL_PREFIX) && name.endsWith(".json")).sort()) {
    const journal = path.join(stagingDir, entry);
    let record: SwapJournal | undefined;
    try {
      record = JSON.parse(await readFile(journal, "utf8")) as SwapJournal;
    } catch {
      record = undefined;
    }
    if (record !== undefined && typeof record.name === "string" && !record.name.includes("/") && !record.name.startsWith(".")) {
      const target = path.join(rootDir, record.name);
      if (!(await exists(target))) {
        if (await exists(record.staged)) await rename(record.staged, target);
        else if (await exists(record.old)) await rename(record.old, target);
        restored.push(record.name);
      }
    }
    await unlink(journal).catch(() => undefined);
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
    const stale = name.startsWith(TRASH_PREFIX) || name.endsWith(".json.tmp") || now - stats.mtimeMs > SKILL_LIMITS.stagingMaxAgeMs;
    if (!stale) continue;
    await rm(entry, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}
