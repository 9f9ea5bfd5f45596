import type { BUILTIN_SKILL_NAMES } from "../domain/skill-types.js";

/** One built-in skill: its name and its files (relative path -> text). */
export interface BuiltinSkill {
  readonly name: (typeof BUILTIN_SKILL_NAMES)[number];
  readonly files: Readonly<Record<string, string>>;
}

const CREATOR = `---
name: skills-creator
description: "How to write a good skill: the SKILL.md format, naming rules, folder layout and scripts, then creating, validating and packaging it with SkillsManager. Use when asked to make, improve or package a skill."
---

# Writing a skill

A skill is a folder that teaches you one job: instructions in SKILL.md plus
optional scripts and reference files. Only the name and description are
always visible; the rest is read when the skill is used, so keep SKILL.md
short and move detail into files it points to.

## SKILL.md

It starts with YAML frontmatter, then Markdown instructions:

\`\`\`markdown
---
name: pdf-forms
description: "Fill and flatten PDF forms with the bundled script. Use when a task mentions PDF forms or fields."
---

# PDF forms

1. Run scripts/fill.py with the input PDF and a JSON file of field values.
2. Check the output with ...
\`\`\`

- Allowed keys: \`name\`, \`description\`, \`license\`, \`allowed-tools\`, \`metadata\`. Any other key fails validation.
- \`name\`: 1-64 characters of lowercase letters, digits and hyphens; no hyphen at the start or end, no two in a row; not a reserved device name (con, nul, com1, ...). It must equal the folder name.
- \`description\`: required, at most 1024 characters, no \`<\` or \`>\`. Say what the skill does AND when to use it: it is how the skill gets picked.
- Write the body in English where you can, as steps a reader can follow. Prefer short imperative sentences and concrete commands.

## Folder layout

\`\`\`
pdf-forms/
  SKILL.md          the instructions (required)
  scripts/          programs the instructions run
  references/       longer documents read only when needed
  assets/           templates, images and other files used in the output
\`\`\`

- Scripts ending in \`.py\`, \`.sh\` or \`.bash\` must start with a shebang line such as \`#!/usr/bin/env python3\` or \`#!/usr/bin/env bash\`.
- No symlinks; no file over 10 MB; at most 2000 files and 50 MB in all.
- Do not add extra documents: README.md, INSTALLATION_GUIDE.md, QUICK_REFERENCE.md and CHANGELOG.md are refused. Everything the reader needs belongs in SKILL.md or in references/.

## Workflow with SkillsManager

1. \`create\` with \`name\`, \`description\`, an optional \`body\` (the Markdown after the frontmatter) and \`files\` (\`[{ path, content }]\` for scripts/, references/, assets/; not SKILL.md). By default it fails when the skill exists; pass \`conflict\` "backup" or "overwrite" to replace it.
2. Read the result back with \`read\` (path \`skill://<name>/SKILL.md\`) and fix what is unclear.
3. \`validate\` with \`name\`: it lists every problem at once. Fix them all and validate again.
4. \`package\` with \`name\` writes a shareable \`<name>.skill\` archive (a zip of the folder).

Built-in skills (this one and skills-installer) cannot be changed; create a new skill instead.
`;

const INSTALLER = `---
name: skills-installer
description: "How to find and install skills: SkillsManager install sources (folders, archives, URLs, git repositories), registry search and install, conflict modes and checking the result. Use when asked to add, update or find a skill."
---

# Installing skills

## From a source you have

Call SkillsManager \`install\` with \`source\`:

- a local folder holding SKILL.md (relative paths are resolved against the workspace);
- a \`.zip\` or \`.skill\` archive, holding the skill's files or one folder with them;
- an http(s) URL of such an archive;
- a git repository URL, or a repository page pointing at a folder (\`.../tree/<ref>/<folder>\`); \`ref\` picks the branch, tag or commit (default \`main\`).

\`method\` is \`auto\` by default; set \`download\` or \`git\` when the URL is ambiguous. An install checks the skill completely before it replaces anything; a skill that fails validation is not installed and the answer lists its problems.

## From the skill registry

1. \`registry_search\` with a \`query\`; \`sort\` is downloads (default), stars, installs, updated or newest; \`limit\` 1-20 (default 10); pass \`cursor\` from the previous answer for more.
2. Pick an entry by its description, then \`registry_install\` with its \`slug\`. When several owners publish the same slug, add \`owner\`. \`version\` pins a version (default: the latest).

## When the skill already exists

\`conflict\` decides (install default: backup):

- \`backup\`: the current version is kept in the skills folder's .backups, then replaced;
- \`overwrite\`: the current version is replaced and deleted;
- \`fail\`: nothing changes and the answer says the destination already exists.

Built-in skills are never replaced.

## Check the result

1. \`list\` shows the installed skills with their descriptions.
2. \`read\` the file the install result names (\`skill://<name>/SKILL.md\`, or the README.md or skill.json that describes a skill without one) to see what the skill asks you to do before using it.
3. \`validate\` with \`name\` when something looks wrong.
`;

/**
 * The two built-in skills, written as files. Both are valid skills; the
 * library seeds them into the skills root when missing or different.
 */
export const BUILTIN_SKILLS: readonly BuiltinSkill[] = Object.freeze([
  Object.freeze({ name: "skills-creator", files: Object.freeze({ "SKILL.md": CREATOR }) }),
  Object.freeze({ name: "skills-installer", files: Object.freeze({ "SKILL.md": INSTALLER }) }),
]);
