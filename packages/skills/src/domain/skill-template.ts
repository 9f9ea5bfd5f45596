/**
 * What `create` writes: the SKILL.md of a new skill, and the checks on the
 * extra files the model asks for.
 */
import { skillPathProblem } from "./skill-validation.js";
import { SKILL_LIMITS, SKILL_METADATA_FILES, type SkillIssue } from "./skill-types.js";

/**
 * Quotes text as a YAML double-quoted scalar. JSON's escapes are valid YAML;
 * the characters YAML counts as non-printable but JSON leaves alone (DEL and
 * the C1 controls) are escaped too, so the scalar always reads back equal.
 */
function yamlDoubleQuoted(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\u009f]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** `pdf-form-tools` -> `Pdf Form Tools`. */
function titleCase(name: string): string {
  return name
    .split("-")
    .filter((word) => word !== "")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

function defaultBody(name: string): string {
  return [
    `# ${titleCase(name)}`,
    "",
    "Instructions are best written in English, even when the skill serves other languages.",
    "",
    "## Workflow",
    "",
    "1. Describe when to use this skill and what to gather first.",
    "2. List the steps to follow, naming any scripts or reference files in this folder.",
    "3. Say how to check the result before reporting back.",
    "",
  ].join("\n");
}

/**
 * Renders the SKILL.md of a new skill: frontmatter with the name and the
 * description (as a double-quoted YAML string), a blank line, then `body`
 * or, when it is absent or blank, a default template (a title from the
 * name, a note that instructions are best written in English, and a
 * `## Workflow` section with three numbered steps). Does not check the name
 * or description: validate them first.
 *
 * @example
 * renderSkillTemplate({ name: "pdf-tools", description: "Fill PDF forms." });
 * // '---\nname: pdf-tools\ndescription: "Fill PDF forms."\n---\n\n# Pdf Tools\n\n...'
 */
export function renderSkillTemplate(input: { readonly name: string; readonly description: string; readonly body?: string }): string {
  const body = input.body === undefined || input.body.trim() === "" ? defaultBody(input.name) : input.body;
  return `---\nname: ${input.name}\ndescription: ${yamlDoubleQuoted(input.description)}\n---\n\n${body}`;
}

/**
 * Checks the extra files of a `create` call and returns every issue (empty
 * when all are fine): each path relative, with `/`, no `..`, no backslash
 * or NUL, not ending in `/` ({@link skillPathProblem}); not a metadata file
 * name at the top level (SKILL.md is written from `name`, `description`
 * and `body`), compared case-insensitively; no two paths the same
 * ignoring case and `.` segments; each content at most 10 MB in UTF-8.
 *
 * @example
 * validateCreateFiles([{ path: "scripts/run.py", content: "#!/usr/bin/env python3\n" }]); // []
 */
export function validateCreateFiles(files: readonly { readonly path: string; readonly content: string }[]): SkillIssue[] {
  const issues: SkillIssue[] = [];
  const metadataNames = new Set(SKILL_METADATA_FILES.map((name) => name.toLowerCase()));
  const seen = new Map<string, string>();
  const encoder = new TextEncoder();
  for (const { path, content } of files) {
    const problem =
      skillPathProblem(path) ?? (path.endsWith("/") ? `The path ${JSON.stringify(path)} ends with "/": name a file, such as scripts/run.py.` : undefined);
    if (problem !== undefined) {
      issues.push({ code: "path_invalid", path, message: problem });
      continue;
    }
    const key = path
      .split("/")
      .filter((segment) => segment !== "" && segment !== ".")
      .join("/")
      .toLowerCase();
    if (metadataNames.has(key)) {
      issues.push({
        code: "path_invalid",
        path,
        message: `${path} cannot be given in "files": SKILL.md is written from "name", "description" and "body", and no other metadata file may sit beside it. Put the instructions in "body".`,
      });
      continue;
    }
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      issues.push({
        code: "path_invalid",
        path,
        message: `${path} is given twice (also as ${earlier}; names are compared ignoring case): merge the two entries.`,
      });
      continue;
    }
    seen.set(key, path);
    const bytes = encoder.encode(content).byteLength;
    if (bytes > SKILL_LIMITS.fileMaxBytes) {
      issues.push({
        code: "file_too_large",
        path,
        message: `${path} is ${bytes} bytes; a skill file may be at most ${SKILL_LIMITS.fileMaxBytes} bytes (10 MB). Split it or shorten it.`,
      });
    }
  }
  return issues;
}
