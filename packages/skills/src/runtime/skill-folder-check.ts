import { lstat, readFile } from "node:fs/promises";
import path from "node:path";
import { pickMetadataFile, validateSkillFolder } from "../domain/skill-validation.js";
import { SKILL_LIMITS, type SkillValidation } from "../domain/skill-types.js";
import { listSkillFolder } from "./skill-folder-listing.js";

/**
 * Validates a skill folder on disk: lists it ({@link listSkillFolder}),
 * reads the metadata file it picks (when it is a regular file within the
 * per-file limit) and runs the whole-folder validation with
 * `directoryName` as the name the skill must carry.
 *
 * @example
 * const validation = await checkSkillFolder("/root/.staging/x/staged/pdf", "pdf");
 */
export async function checkSkillFolder(folder: string, directoryName: string): Promise<SkillValidation> {
  const entries = await listSkillFolder(folder);
  const metadataFile = pickMetadataFile(entries);
  let metadataText: string | undefined;
  if (metadataFile !== undefined) {
    const file = path.join(folder, metadataFile);
    const stats = await lstat(file);
    if (stats.isFile() && stats.size <= SKILL_LIMITS.fileMaxBytes) metadataText = await readFile(file, "utf8");
  }
  return validateSkillFolder({ directoryName, entries, metadataText });
}
