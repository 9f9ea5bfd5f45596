import { describe, expect, it } from "vitest";
import { skillNameProblem, suggestSkillName } from "./skill-name.js";

describe("skillNameProblem", () => {
  it.each(["a", "pdf-tools", "x1", "com10", "lpt0", "a-b-c", "9lives", "a".repeat(64), "console", "nul-tools"])("accepts %j", (name) => {
    expect(skillNameProblem(name)).toBeUndefined();
  });

  it.each([
    ["", /empty/],
    ["a".repeat(65), /65 characters long; the limit is 64\. Try "a{64}"/],
    ["PDF Tools", /lowercase letters a-z, digits and hyphens\. Try "pdf-tools"/],
    ["pdf_tools", /Try "pdf-tools"/],
    ["café", /Try "cafe"/],
    ["-pdf", /start or end with a hyphen\. Try "pdf"/],
    ["pdf-", /start or end with a hyphen/],
    ["pdf--tools", /two hyphens in a row\. Try "pdf-tools"/],
    ["con", /reserved device name on Windows.*Try "con-skill"/],
    ["nul", /reserved/],
    ["com1", /reserved/],
    ["com9", /reserved/],
    ["lpt1", /reserved/],
    ["lpt9", /reserved/],
    ["CON", /lowercase/],
  ])("rejects %j", (name, pattern) => {
    expect(skillNameProblem(name)).toMatch(pattern);
  });

  it("suggests names that are themselves valid", () => {
    for (const raw of ["", "---", "PDF Tools", "AUX", "a".repeat(70), `${"a".repeat(63)}-b`, "Ünïcode Näme", "con"]) {
      expect(skillNameProblem(suggestSkillName(raw))).toBeUndefined();
    }
  });

  it("suggestSkillName", () => {
    expect(suggestSkillName("My PDF_Tools!")).toBe("my-pdf-tools");
    expect(suggestSkillName("!!!")).toBe("my-skill");
    expect(suggestSkillName("Aux")).toBe("aux-skill");
    expect(suggestSkillName(`${"a".repeat(63)}-b`)).toBe("a".repeat(63));
  });
});
