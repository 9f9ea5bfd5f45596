/**
 * Parses and checks the metadata file of a skill folder: the YAML
 * frontmatter of SKILL.md / skill.md / README.md, or the JSON object of
 * skill.json. Pure: takes the text, returns the metadata and every issue.
 */
import { parseDocument } from "yaml";
import { skillNameProblem } from "./skill-name.js";
import { SKILL_FRONTMATTER_KEYS, SKILL_LIMITS, type SkillIssue, type SkillMetadata, type SKILL_METADATA_FILES } from "./skill-types.js";

/** One of the metadata file names. */
export type SkillMetadataFile = (typeof SKILL_METADATA_FILES)[number];

/** What {@link parseSkillMetadata} returns: metadata when a name and a description were read, and every issue found. */
export interface SkillMetadataParse {
  readonly metadata?: SkillMetadata;
  readonly issues: SkillIssue[];
}

type Fields = Record<string, unknown>;

/**
 * Parses a skill's metadata file and checks it. Every problem is reported
 * at once (never only the first).
 *
 * - `SKILL.md` / `skill.md`: YAML frontmatter between `---` lines at the
 *   very top (a byte order mark and CRLF line ends are tolerated); the rest
 *   is the body.
 * - `skill.json`: one JSON object with the same keys; the body is empty.
 * - `README.md`: the frontmatter is optional. Without one, the skill is
 *   described by the folder itself: the name is `directoryName` and the
 *   description is the README's first plain paragraph (headings, code
 *   blocks, HTML, images, tables, lists and quotes skipped; lines joined;
 *   `<` and `>` removed, since a description may not hold them; cut at a
 *   word to 1024 characters). This lets a plain README-only folder install,
 *   while a README with frontmatter is held to the same rules as SKILL.md.
 *
 * A frontmatter over `SKILL_LIMITS.frontmatterMaxBytes` is not parsed (an
 * issue), and aliases expanding past 100 nodes are an issue, not a throw.
 *
 * Checks: keys within `name, description, license, allowed-tools,
 * metadata`; name and description present and strings; the name rule
 * ({@link skillNameProblem}); the name equal to `directoryName`; the
 * description at most 1024 characters without `<` or `>`; `license` a
 * string; `allowed-tools` a list of strings or one comma/space separated
 * string; `metadata` a mapping.
 *
 * @example
 * parseSkillMetadata("SKILL.md", "---\nname: pdf\ndescription: Fill PDF forms.\n---\n# PDF\n", "pdf");
 * // { metadata: { name: "pdf", description: "Fill PDF forms.", metadataFile: "SKILL.md", body: "# PDF\n" }, issues: [] }
 */
export function parseSkillMetadata(file: SkillMetadataFile, text: string, directoryName: string): SkillMetadataParse {
  const normalized = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  if (file === "skill.json") return parseJsonMetadata(normalized, directoryName);
  const split = splitFrontmatter(normalized);
  if (split.kind === "unclosed") {
    return {
      issues: [
        {
          code: "frontmatter_invalid",
          path: file,
          message: `${file} opens a frontmatter with "---" but never closes it: add a line holding only "---" after the last key.`,
        },
      ],
    };
  }
  if (split.kind === "none") {
    if (file === "README.md") return describeFromReadme(normalized, directoryName);
    return {
      issues: [
        {
          code: "frontmatter_invalid",
          path: file,
          message: `${file} must start with YAML frontmatter: a line "---", then "name: ${directoryName}" and "description: <what the skill does and when to use it>", then a line "---".`,
        },
      ],
    };
  }
  const yamlBytes = new TextEncoder().encode(split.yaml).length;
  if (yamlBytes > SKILL_LIMITS.frontmatterMaxBytes) {
    return {
      issues: [
        {
          code: "frontmatter_invalid",
          path: file,
          message: `The frontmatter of ${file} is ${yamlBytes} bytes; at most ${SKILL_LIMITS.frontmatterMaxBytes} are read. Keep name, description and a little metadata there and move the rest into the body or another file.`,
        },
      ],
    };
  }
  const invalidYaml = (reason: string): SkillMetadataParse => ({
    issues: [
      { code: "frontmatter_invalid", path: file, message: `The frontmatter of ${file} is not valid YAML (${reason}). Fix the YAML between the "---" lines.` },
    ],
  });
  const document = parseDocument(split.yaml, { prettyErrors: false });
  if (document.errors.length > 0) return invalidYaml(document.errors[0]?.message.split("\n")[0] ?? "parse error");
  let value: unknown;
  try {
    // Aliases are expanded by toJS: an anchor used over and over (a "billion laughs") is refused by the alias cap.
    value = split.yaml.trim() === "" ? {} : document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return invalidYaml(error instanceof Error ? error.message : String(error));
  }
  if (!isMapping(value)) {
    return {
      issues: [
        { code: "frontmatter_invalid", path: file, message: `The frontmatter of ${file} must be a YAML mapping of keys (name: ..., description: ...).` },
      ],
    };
  }
  return checkFields(value, { file, directoryName, body: split.body });
}

type FrontmatterSplit = { kind: "none" } | { kind: "unclosed" } | { kind: "found"; yaml: string; body: string };

function splitFrontmatter(text: string): FrontmatterSplit {
  if (!/^---[ \t]*(\n|$)/.test(text)) return { kind: "none" };
  const lines = text.split("\n");
  for (let index = 1; index < lines.length; index++) {
    if (/^---[ \t]*$/.test(lines[index] ?? "")) {
      return { kind: "found", yaml: lines.slice(1, index).join("\n"), body: lines.slice(index + 1).join("\n") };
    }
  }
  return { kind: "unclosed" };
}

function parseJsonMetadata(text: string, directoryName: string): SkillMetadataParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      issues: [
        {
          code: "frontmatter_invalid",
          path: "skill.json",
          message: `skill.json is not valid JSON (${reason}). Fix it, or use a SKILL.md with YAML frontmatter instead.`,
        },
      ],
    };
  }
  if (!isMapping(value)) {
    return {
      issues: [
        {
          code: "frontmatter_invalid",
          path: "skill.json",
          message: `skill.json must hold one JSON object such as {"name": "${directoryName}", "description": "..."}.`,
        },
      ],
    };
  }
  return checkFields(value, { file: "skill.json", directoryName, body: "" });
}

function checkFields(fields: Fields, context: { file: SkillMetadataFile; directoryName: string; body: string }): SkillMetadataParse {
  const { file, directoryName } = context;
  const issues: SkillIssue[] = [];
  const allowed: readonly string[] = SKILL_FRONTMATTER_KEYS;
  const unexpected = Object.keys(fields).filter((key) => !allowed.includes(key));
  if (unexpected.length > 0) {
    issues.push({
      code: "frontmatter_unexpected_keys",
      path: file,
      message: `Unexpected key(s) in ${file}: ${unexpected.join(", ")}. Allowed keys: ${allowed.join(", ")}; put custom fields under "metadata".`,
    });
  }
  const name = checkName(fields.name, file, directoryName, issues);
  const description = checkDescription(fields.description, file, issues);
  const optional = checkOptionalFields(fields, file, issues);
  if (name === undefined || description === undefined) return { issues };
  return { metadata: { name, description, ...optional, metadataFile: file, body: context.body }, issues };
}

function checkName(value: unknown, file: SkillMetadataFile, directoryName: string, issues: SkillIssue[]): string | undefined {
  if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) {
    issues.push({ code: "name_missing", path: file, message: `${file} has no "name": add "name: ${directoryName}" (the folder's name).` });
    return undefined;
  }
  if (typeof value !== "string") {
    issues.push({ code: "name_invalid", path: file, message: `"name" in ${file} must be a string, not ${describeType(value)}.` });
    return undefined;
  }
  const problem = skillNameProblem(value);
  if (problem !== undefined) issues.push({ code: "name_invalid", path: file, message: problem });
  if (value !== directoryName) {
    issues.push({
      code: "name_mismatch",
      path: file,
      message: `"name" in ${file} is ${JSON.stringify(value)} but the folder is named ${JSON.stringify(directoryName)}: they must be equal. Change one of them.`,
    });
  }
  return value;
}

function checkDescription(value: unknown, file: SkillMetadataFile, issues: SkillIssue[]): string | undefined {
  if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) {
    issues.push({ code: "description_missing", path: file, message: `${file} has no "description": add one saying what the skill does and when to use it.` });
    return undefined;
  }
  if (typeof value !== "string") {
    issues.push({ code: "description_invalid", path: file, message: `"description" in ${file} must be a string, not ${describeType(value)}.` });
    return undefined;
  }
  const description = value.trim();
  descriptionProblems(description).forEach((message) =>
    issues.push({ code: "description_invalid", path: file, message: `"description" in ${file} ${message}` }),
  );
  return description;
}

function descriptionProblems(description: string): string[] {
  const problems: string[] = [];
  if (description.length > SKILL_LIMITS.descriptionMaxLength) {
    problems.push(`is ${description.length} characters long; the limit is ${SKILL_LIMITS.descriptionMaxLength}. Shorten it.`);
  }
  if (/[<>]/.test(description)) problems.push(`must not contain "<" or ">": reword it without angle brackets.`);
  return problems;
}

function checkOptionalFields(fields: Fields, file: SkillMetadataFile, issues: SkillIssue[]): Pick<SkillMetadata, "license" | "allowedTools" | "metadata"> {
  const result: { license?: string; allowedTools?: readonly string[]; metadata?: Readonly<Record<string, unknown>> } = {};
  const { license, metadata } = fields;
  const allowedTools = fields["allowed-tools"];
  if (license !== undefined && license !== null) {
    if (typeof license === "string") result.license = license;
    else issues.push({ code: "frontmatter_invalid", path: file, message: `"license" in ${file} must be a string, not ${describeType(license)}.` });
  }
  if (allowedTools !== undefined && allowedTools !== null) {
    const tools = readToolList(allowedTools);
    if (tools !== undefined) result.allowedTools = tools;
    else
      issues.push({
        code: "frontmatter_invalid",
        path: file,
        message: `"allowed-tools" in ${file} must be a list of tool names or one string such as "Read, Grep".`,
      });
  }
  if (metadata !== undefined && metadata !== null) {
    if (isMapping(metadata)) result.metadata = metadata;
    else
      issues.push({
        code: "frontmatter_invalid",
        path: file,
        message: `"metadata" in ${file} must be a mapping of keys to values, not ${describeType(metadata)}.`,
      });
  }
  return result;
}

function readToolList(value: unknown): string[] | undefined {
  if (typeof value === "string") return value.split(/[\s,]+/).filter((tool) => tool !== "");
  if (Array.isArray(value) && value.every((tool) => typeof tool === "string")) return value.map((tool) => tool.trim()).filter((tool) => tool !== "");
  return undefined;
}

function describeFromReadme(text: string, directoryName: string): SkillMetadataParse {
  const issues: SkillIssue[] = [];
  const problem = skillNameProblem(directoryName);
  if (problem !== undefined) issues.push({ code: "name_invalid", path: "README.md", message: `The folder name is used as the skill name. ${problem}` });
  const paragraph = firstPlainParagraph(text);
  if (paragraph === undefined) {
    issues.push({
      code: "description_missing",
      path: "README.md",
      message: `README.md has no frontmatter and no plain paragraph to describe the skill: add a paragraph, or better a SKILL.md with "name" and "description".`,
    });
    return { issues };
  }
  return { metadata: { name: directoryName, description: cutDescription(paragraph), metadataFile: "README.md", body: text }, issues };
}

function firstPlainParagraph(text: string): string | undefined {
  let inFence = false;
  let paragraph: string[] = [];
  for (const line of [...text.split("\n"), ""]) {
    const trimmed = line.trim();
    if (/^(```|~~~)/.test(trimmed)) {
      inFence = !inFence;
      paragraph = [];
      continue;
    }
    if (inFence) continue;
    if (trimmed === "") {
      const joined = paragraph.join(" ").replace(/[<>]/g, "").replace(/\s+/g, " ").trim();
      if (joined !== "") return joined;
      paragraph = [];
      continue;
    }
    if (isStructuralLine(trimmed)) {
      paragraph = [];
      continue;
    }
    paragraph.push(trimmed);
  }
  return undefined;
}

function isStructuralLine(line: string): boolean {
  return /^(#|<|!\[|\[!\[|\||>|[-*+]\s|\d+[.)]\s|={3,}$|-{3,}$|\*{3,}$)/.test(line);
}

function cutDescription(text: string): string {
  const limit = SKILL_LIMITS.descriptionMaxLength;
  if (text.length <= limit) return text;
  const head = text.slice(0, limit - 1);
  const space = head.lastIndexOf(" ");
  return `${(space > limit / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

function isMapping(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Map);
}

function describeType(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value === null) return "null";
  return typeof value === "object" ? "a mapping" : `a ${typeof value}`;
}
