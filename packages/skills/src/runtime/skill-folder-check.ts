import path from "node:path";
import { pickMetadataFile, validateSkillFolder } from "../domain/skill-validation.js";
import { SKILL_LIMITS, type SkillValidation } from "../domain/skill-types.js";
import { readFileNoFollow } from "./skill-file-open.js";
import { listSkillFolder } from "./skill-folder-listing.js";

/**
 * Validates a skill folder on disk: lists it ({@link listSkillFolder}),
 * reads the metadata file it picks (when it is a regular file within the
 * per-file limit, opened without following a symlink and read from that
 * descriptor: a confined command flipping it cannot make it show another file) and runs the whole-folder validation with
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
    const read = await readFileNoFollow(path.dirname(folder), [path.basename(folder), metadataFile], SKILL_LIMITS.fileMaxBytes);
    if (read.kind === "file") metadataText = new TextDecoder().decode(read.data);
  }
  return validateSkillFolder({ directoryName, entries, metadataText });
}
