import { describe, expect, it } from "vitest";
import type { SkillSummary } from "./skill-types.js";
import { renderSkillsPromptSection } from "./skills-prompt.js";

function skill(name: string, description: string, extra: Partial<SkillSummary> = {}): SkillSummary {
  return { name, description, builtIn: false, baseDir: `/s/${name}`, enabled: true, protected: false, ...extra };
}

describe("renderSkillsPromptSection", () => {
  it("is empty when no skill is enabled", () => {
    expect(renderSkillsPromptSection([])).toBe("");
    expect(renderSkillsPromptSection([skill("pdf", "PDFs", { enabled: false })])).toBe("");
  });

  it("lists enabled skills, built-ins first, then by name, with the read-first line", () => {
    const text = renderSkillsPromptSection([
      skill("zeta", "Last."),
      skill("hidden", "Not shown.", { enabled: false }),
      skill("skills-installer", "Installs skills.", { builtIn: true, protected: true }),
      skill("alpha", "First\n  of the rest."),
      skill("skills-creator", "Creates skills.", { builtIn: true, protected: true }),
      skill("empty", ""),
    ]);
    expect(text).toBe(
      [
        "# Skills",
        "",
        "Skills are folders of instructions, scripts and resources for particular tasks. Before using a skill, read skill://<name>/SKILL.md (or the file its line names) with Read (or SkillsManager read) and follow it; run its scripts with Bash using cwd skill://<name>.",
        "",
        "- skills-creator (built-in): Creates skills.",
        "- skills-installer (built-in): Installs skills.",
        "- alpha: First of the rest.",
        "- empty: (no description)",
        "- zeta: Last.",
      ].join("\n"),
    );
  });

  it("does not depend on the input order", () => {
    const a = [skill("b", "B"), skill("a", "A"), skill("c", "C", { builtIn: true })];
    expect(renderSkillsPromptSection(a)).toBe(renderSkillsPromptSection([...a].reverse()));
  });
});
