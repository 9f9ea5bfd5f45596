/**
 * The writes a SkillLibrary makes in its staging folder, each through a
 * contained tree (file-io `openContainedTree`): no component on the way is
 * followed if it is a symlink, and files are written to a temporary name
 * and renamed.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { type ContainedTree, openContainedTree } from "@agent-tools/file-io/internal";
import { SKILLS_ROOT_FOLDERS } from "../domain/skill-types.js";
import { skillNameProblem } from "../domain/skill-name.js";

/** Runs `use` on a contained tree held at `root`, closing it afterwards. */
export async function withTree<T>(root: string, use: (tree: ContainedTree) => Promise<T>): Promise<T> {
  const tree = openContainedTree(root);
  try {
    return await use(tree);
  } finally {
    tree.close();
  }
}

/**
 * Makes `<rootDir>/.staging/<label>-<unique()>` (a name taken by another
 * process is skipped) and returns its path. A label that is not a plain
 * skill name (e.g. a registry's claim) becomes `install`.
 */
export async function makeStagingFolder(rootDir: string, label: string, unique: () => string): Promise<string> {
  const safeLabel = skillNameProblem(label) === undefined ? label : "install";
  const staging = SKILLS_ROOT_FOLDERS.staging;
  return withTree(rootDir, async (tree) => {
    await tree.mkdir(staging, { recursive: true });
    for (;;) {
      const name = `${safeLabel}-${unique()}`;
      try {
        await tree.mkdir(`${staging}/${name}`);
        return path.join(rootDir, staging, name);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
    }
  });
}

/** Writes `files` (relative path -> text, 0644) under `work/<folder>`; returns that folder. */
export async function writeStagedFiles(work: string, folder: string, files: Readonly<Record<string, string>>): Promise<string> {
  const encoder = new TextEncoder();
  await withTree(work, async (tree) => {
    for (const [file, content] of Object.entries(files)) await tree.writeFile(`${folder}/${file}`, encoder.encode(content), { mode: 0o644 });
  });
  return path.join(work, ...folder.split("/"));
}

/**
 * Writes a created skill under `work/<name>`: its SKILL.md and `files`, a
 * file whose content starts with `#!` executable (0755), others 0644.
 * Returns that folder.
 */
export async function writeCreatedSkill(
  work: string,
  name: string,
  skillMd: string,
  files: readonly { readonly path: string; readonly content: string }[],
): Promise<string> {
  const encoder = new TextEncoder();
  await withTree(work, async (tree) => {
    await tree.writeFile(`${name}/SKILL.md`, encoder.encode(skillMd), { mode: 0o644 });
    for (const file of files)
      await tree.writeFile(`${name}/${file.path}`, encoder.encode(file.content), { mode: file.content.startsWith("#!") ? 0o755 : 0o644 });
  });
  return path.join(work, name);
}

/** Whether `folder` holds exactly `files` (no other file, same contents). */
export async function holdsExactly(folder: string, files: Readonly<Record<string, string>>): Promise<boolean> {
  const present = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => undefined);
  if (present === undefined) return false;
  const onDisk = present
    .filter((entry) => !entry.isDirectory())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"));
  if (onDisk.length !== Object.keys(files).length) return false;
  for (const [file, content] of Object.entries(files)) {
    const text = await readFile(path.join(folder, file), "utf8").catch(() => undefined);
    if (text !== content) return false;
  }
  return true;
}
