import { describe, expect, it } from "vitest";
import { findTemplate, normalizeTemplates, offeredTemplates } from "./agent-templates.js";
import type { AgentPromptTemplate } from "./subagent-types.js";

const template = (id: string, enabled: boolean, prompt = "Do it.", name = id.toUpperCase()): AgentPromptTemplate => ({
  id,
  name,
  description: `${id} description`,
  prompt,
  enabled,
});

describe("offeredTemplates", () => {
  it("keeps only enabled templates with a non-empty prompt, in order", () => {
    const list = [template("a", true), template("b", false), template("c", true, "  \n"), template("d", true, "")];
    expect(offeredTemplates(list).map((entry) => entry.id)).toEqual(["a"]);
    expect(offeredTemplates([template("x", true), template("y", true)]).map((entry) => entry.id)).toEqual(["x", "y"]);
  });
});

describe("normalizeTemplates", () => {
  it("keeps the first enabled template and disables later enabled ones", () => {
    const list = [template("a", false), template("b", true), template("c", true), template("d", true)];
    const normalized = normalizeTemplates(list);
    expect(normalized.map((entry) => [entry.id, entry.enabled])).toEqual([
      ["a", false],
      ["b", true],
      ["c", false],
      ["d", false],
    ]);
    expect(normalized[1]).toBe(list[1]);
    expect(list[2]!.enabled).toBe(true); // the input is not mutated
  });
  it("leaves a list with at most one enabled template unchanged", () => {
    const list = [template("a", false), template("b", false)];
    expect(normalizeTemplates(list)).toEqual(list);
    expect(normalizeTemplates([])).toEqual([]);
  });
});

describe("findTemplate", () => {
  const list = [template("rev", true, "p", "Reviewer"), template("Writer", true, "p", "rev-name"), template("other", true, "p", "rev")];
  it("finds by id first, then by name, case-insensitively", () => {
    expect(findTemplate(list, "REV")?.id).toBe("rev");
    expect(findTemplate(list, "reviewer")?.id).toBe("rev");
    expect(findTemplate(list, " writer ")?.id).toBe("Writer");
    expect(findTemplate(list, "Rev-Name")?.id).toBe("Writer");
  });
  it("returns undefined for an unknown or blank ref", () => {
    expect(findTemplate(list, "nope")).toBeUndefined();
    expect(findTemplate(list, " ")).toBeUndefined();
  });
});
