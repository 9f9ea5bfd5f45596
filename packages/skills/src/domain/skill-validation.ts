/**
 * Validation of a whole skill folder from its listing and metadata text:
 * which metadata file describes it, and every problem at once (metadata,
 * symlinks, extra documents, script shebangs, sizes, counts, paths).
 */
import { parseSkillMetadata, type SkillMetadataFile } from "./skill-metadata.js";
import {
  FORBIDDEN_SKILL_DOCS,
  SKILL_LIMITS,
  SKILL_METADATA_FILES,
  type SkillFileEntry,
  type SkillIssue,
  type SkillMetadata,
  type SkillValidation,
} from "./skill-types.js";

const SCRIPT_EXTENSIONS = [".py", ".sh", ".bash"] as const;

/**
 * Picks the metadata file of a skill folder: the first of `SKILL.md`,
 * `skill.md`, `skill.json`, `README.md` present as a regular file at the top
 * level (names match exactly; nested files and symlinks do not count).
 *
 * @example
 * pickMetadataFile([{ path: "README.md", kind: "file", size: 10 }, { path: "skill.json", kind: "file", size: 40 }]); // "skill.json"
 */
export function pickMetadataFile(entries: readonly SkillFileEntry[]): SkillMetadataFile | undefined {
  const topLevelFiles = new Set(entries.filter((entry) => entry.kind === "file" && !entry.path.includes("/")).map((entry) => entry.path));
  return SKILL_METADATA_FILES.find((file) => topLevelFiles.has(file));
}

/**
 * Validates a skill folder and reports ALL issues at once: the metadata file
 * missing ({@link pickMetadataFile}) or its issues ({@link parseSkillMetadata});
 * any symlink; a forbidden extra document (README.md, INSTALLATION_GUIDE.md,
 * QUICK_REFERENCE.md, CHANGELOG.md) at any depth, except the README.md that
 * is the metadata file; `.py` / `.sh` / `.bash` files whose first line does
 * not start with `#!`; a file over 10 MB; a folder over 50 MB or 2000 files;
 * paths that are absolute or hold `..`, a backslash or a NUL.
 *
 * `metadataText` is the text of the picked metadata file (undefined when
 * there is none, or it could not be read). Directories count toward neither
 * the size nor the file count.
 *
 * @example
 * validateSkillFolder({ directoryName: "pdf", entries: [{ path: "SKILL.md", kind: "file", size: 60 }], metadataText: "---\nname: pdf\ndescription: Fill PDF forms.\n---\n" });
 * // { ok: true, metadata: { name: "pdf", ... }, issues: [] }
 */
export function validateSkillFolder(input: {
  readonly directoryName: string;
  readonly entries: readonly SkillFileEntry[];
  readonly metadataText: string | undefined;
}): SkillValidation {
  const { directoryName, entries } = input;
  const issues: SkillIssue[] = [];
  const metadataFile = pickMetadataFile(entries);
  let metadata: SkillMetadata | undefined;
  if (metadataFile === undefined) {
    issues.push({
      code: "metadata_missing",
      message: `The skill folder has no metadata file: add a SKILL.md starting with frontmatter ("---", "name: ${directoryName}", "description: ...", "---").`,
    });
  } else if (input.metadataText === undefined) {
    issues.push({ code: "metadata_missing", path: metadataFile, message: `${metadataFile} could not be read: make it a readable UTF-8 text file.` });
  } else {
    const parsed = parseSkillMetadata(metadataFile, input.metadataText, directoryName);
    metadata = parsed.metadata;
    issues.push(...parsed.issues);
  }
  issues.push(...entryIssues(entries, metadataFile));
  if (metadata !== undefined && issues.length === 0) return { ok: true, metadata, issues: [] };
  return metadata === undefined ? { ok: false, issues } : { ok: false, metadata, issues };
}

function entryIssues(entries: readonly SkillFileEntry[], metadataFile: SkillMetadataFile | undefined): SkillIssue[] {
  const issues: SkillIssue[] = [];
  const forbidden: readonly string[] = FORBIDDEN_SKILL_DOCS;
  let totalBytes = 0;
  let fileCount = 0;
  for (const entry of entries) {
    const pathProblem = skillPathProblem(entry.path);
    if (pathProblem !== undefined) {
      issues.push({ code: "path_invalid", path: entry.path, message: pathProblem });
      continue;
    }
    if (entry.kind === "symlink") {
      issues.push({
        code: "symlink",
        path: entry.path,
        message: `${entry.path} is a symbolic link; skills may not hold links. Replace it with a copy of the file it points to.`,
      });
      continue;
    }
    if (entry.kind !== "file") continue;
    fileCount++;
    totalBytes += entry.size;
    const baseName = entry.path.slice(entry.path.lastIndexOf("/") + 1);
    if (forbidden.includes(baseName) && !(entry.path === "README.md" && metadataFile === "README.md")) {
      issues.push({
        code: "forbidden_doc",
        path: entry.path,
        message: `${entry.path} is not allowed in a skill: put what the model needs in SKILL.md (or a file it links to) and delete ${entry.path}.`,
      });
    }
    if (SCRIPT_EXTENSIONS.some((extension) => baseName.endsWith(extension)) && !(entry.firstLine ?? "").startsWith("#!")) {
      issues.push({
        code: "shebang_missing",
        path: entry.path,
        message: `${entry.path} is a script without a shebang: make its first line one such as "${baseName.endsWith(".py") ? "#!/usr/bin/env python3" : "#!/usr/bin/env bash"}".`,
      });
    }
    if (entry.size > SKILL_LIMITS.fileMaxBytes) {
      issues.push({
        code: "file_too_large",
        path: entry.path,
        message: `${entry.path} is ${formatBytes(entry.size)}; a skill file may be at most ${formatBytes(SKILL_LIMITS.fileMaxBytes)}.`,
      });
    }
  }
  if (totalBytes > SKILL_LIMITS.skillMaxBytes) {
    issues.push({
      code: "skill_too_large",
      message: `The skill holds ${formatBytes(totalBytes)}; a skill may be at most ${formatBytes(SKILL_LIMITS.skillMaxBytes)}. Remove large files.`,
    });
  }
  if (fileCount > SKILL_LIMITS.skillMaxFiles) {
    issues.push({
      code: "too_many_files",
      message: `The skill holds ${fileCount} files; a skill may hold at most ${SKILL_LIMITS.skillMaxFiles}. Remove files it does not need.`,
    });
  }
  return issues;
}

/**
 * Why a path inside a skill folder is unsafe, or undefined when it is fine:
 * it must be relative, use `/`, and hold no `..` segment and no NUL.
 */
export function skillPathProblem(path: string): string | undefined {
  const shown = JSON.stringify(path);
  if (path === "") return "A file path is empty: give a path relative to the skill folder, such as scripts/run.py.";
  if (path.includes("\0")) return `The path ${shown} holds a NUL character: use a plain relative path.`;
  if (path.includes("\\")) return `The path ${shown} holds a backslash: separate folders with "/".`;
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return `The path ${shown} is absolute: give it relative to the skill folder, such as scripts/run.py.`;
  if (path.split("/").includes("..")) return `The path ${shown} holds "..": paths must stay inside the skill folder.`;
  return undefined;
}

/**
 * Renders validation issues as a readable list for the model, ending with
 * what to do next. An empty list reads as a pass.
 *
 * @example
 * renderSkillIssues("pdf", [{ code: "symlink", path: "x", message: "x is a symbolic link; ..." }]);
 * // 'Skill "pdf" has 1 problem:\n- [symlink] x is a symbolic link; ...\nFix ...'
 */
export function renderSkillIssues(name: string, issues: readonly SkillIssue[]): string {
  if (issues.length === 0) return `Skill "${name}" is valid.`;
  const lines = issues.map((issue) => `- [${issue.code}] ${issue.message}`);
  const count = issues.length === 1 ? "1 problem" : `${issues.length} problems`;
  return [
    `Skill "${name}" has ${count}:`,
    ...lines,
    `Fix every problem above (edit the files under skill://${name}/ or the source), then run SkillsManager action "validate" with name "${name}" again.`,
  ].join("\n");
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "")} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, "")} KB`;
  return `${bytes} bytes`;
}
