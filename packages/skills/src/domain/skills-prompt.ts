/**
 * The skills section of a host's system prompt: the enabled skills' names
 * and descriptions, and how to use one.
 */
import type { SkillSummary } from "./skill-types.js";

/** Options of {@link renderSkillsPromptSection}. */
export interface SkillsPromptOptions {
  /** The label of the non-local workspace the tools work in: its commands cannot run the skills' scripts, which stay on the host. */
  readonly remoteWorkspace?: string;
}

function howToRun(remoteWorkspace: string | undefined): string {
  if (remoteWorkspace === undefined) return "run its scripts with Bash using cwd skill://<name>.";
  return `Bash runs on ${remoteWorkspace}, where the skills' files are not: their scripts cannot run there, so do a skill's work with the workspace's own tools.`;
}

/**
 * Renders the enabled skills for a system prompt, built-ins first, then by
 * name; "" when no skill is enabled. Descriptions are kept on one line.
 *
 * @example
 * renderSkillsPromptSection([{ name: "pdf", description: "Fill PDF forms.", builtIn: false, baseDir: "/s/pdf", enabled: true, protected: false }]);
 * // "# Skills\n\nBefore using a skill, read skill://<name>/SKILL.md (or the file its line names) ...\n\n- pdf: Fill PDF forms."
 * // A README-only skill's line ends "(read skill://notes/README.md)".
 */
export function renderSkillsPromptSection(skills: readonly SkillSummary[], options: SkillsPromptOptions = {}): string {
  const enabled = skills
    .filter((skill) => skill.enabled)
    .sort((a, b) => Number(b.builtIn) - Number(a.builtIn) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (enabled.length === 0) return "";
  const lines = enabled.map((skill) => {
    const description = skill.description.replace(/\s+/g, " ").trim();
    // A skill described by skill.md, skill.json or README.md names its file: there is no SKILL.md to read.
    const file = skill.metadataFile === undefined || skill.metadataFile === "SKILL.md" ? "" : ` (read skill://${skill.name}/${skill.metadataFile})`;
    return `- ${skill.name}${skill.builtIn ? " (built-in)" : ""}: ${description || "(no description)"}${file}`;
  });
  return [
    "# Skills",
    "",
    `Skills are folders of instructions, scripts and resources for particular tasks. Before using a skill, read skill://<name>/SKILL.md (or the file its line names) with Read (or SkillsManager read) and follow it; ${howToRun(options.remoteWorkspace)}`,
    "",
    ...lines,
  ].join("\n");
}
