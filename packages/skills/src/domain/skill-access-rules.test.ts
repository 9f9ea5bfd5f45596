import { describe, expect, it } from "vitest";
import { type SkillAccessState, decideManagerAction, decideSkillPathAccess, isSkillEnabled, isSkillProtected, skillBaseDir } from "./skill-access-rules.js";
import { BUILTIN_SKILL_NAMES, SKILL_DENIAL_SUFFIX, type SkillAccessPolicy } from "./skill-types.js";

const ROOT = "/data/skills";

function state(policy: SkillAccessPolicy, granted: readonly string[] = []): SkillAccessState {
  return { policy, skillsRoot: ROOT, builtInNames: BUILTIN_SKILL_NAMES, grantedNames: new Set(granted) };
}

describe("skillBaseDir", () => {
  it("joins the root and the name, dropping a trailing slash and backslashes", () => {
    expect(skillBaseDir("/data/skills/", "pdf")).toBe("/data/skills/pdf");
    expect(skillBaseDir("C:\\data\\skills", "pdf")).toBe("C:/data/skills/pdf");
  });
});

describe("isSkillEnabled", () => {
  it("enables every skill when neither allow list is an array", () => {
    expect(isSkillEnabled(state({}), "pdf")).toBe(true);
    expect(isSkillEnabled(state({ protectedSkillNames: ["pdf"] }), "pdf")).toBe(true);
  });

  it("restricts to the listed names when allowedSkillNames is an array", () => {
    const s = state({ allowedSkillNames: ["pdf"] });
    expect(isSkillEnabled(s, "pdf")).toBe(true);
    expect(isSkillEnabled(s, "docx")).toBe(false);
  });

  it("enables nothing but the built-ins and grants for an empty list", () => {
    const s = state({ allowedSkillNames: [] }, ["fresh"]);
    expect(isSkillEnabled(s, "pdf")).toBe(false);
    expect(isSkillEnabled(s, "fresh")).toBe(true);
    for (const name of BUILTIN_SKILL_NAMES) expect(isSkillEnabled(s, name)).toBe(true);
  });

  it("restricts to folders equal to or inside allowedSkillBaseDirs", () => {
    const s = state({ allowedSkillBaseDirs: ["/data/skills/pdf/", "/elsewhere"] });
    expect(isSkillEnabled(s, "pdf")).toBe(true);
    expect(isSkillEnabled(s, "pdf2")).toBe(false);
    expect(isSkillEnabled(state({ allowedSkillBaseDirs: [ROOT] }), "any")).toBe(true);
  });

  it("enables a skill listed by either list when both are arrays", () => {
    const s = state({ allowedSkillNames: ["docx"], allowedSkillBaseDirs: ["/data/skills/pdf"] });
    expect(isSkillEnabled(s, "pdf")).toBe(true);
    expect(isSkillEnabled(s, "docx")).toBe(true);
    expect(isSkillEnabled(s, "xlsx")).toBe(false);
  });
});

describe("isSkillProtected", () => {
  it("protects built-ins, listed names and listed folders only", () => {
    const s = state({ protectedSkillNames: ["pdf"], protectedSkillBaseDirs: ["/data/skills/docx"] });
    expect(isSkillProtected(s, "skills-creator")).toBe(true);
    expect(isSkillProtected(s, "skills-installer")).toBe(true);
    expect(isSkillProtected(s, "pdf")).toBe(true);
    expect(isSkillProtected(s, "docx")).toBe(true);
    expect(isSkillProtected(s, "docx2")).toBe(false);
    expect(isSkillProtected(state({}), "pdf")).toBe(false);
  });
});

describe("decideSkillPathAccess", () => {
  it.each(["read", "list", "search", "image", "cwd"] as const)("gives read access for %s on an enabled skill", (intent) => {
    expect(decideSkillPathAccess(state({}), "pdf", intent)).toEqual({ access: "read" });
  });

  it("gives write access for write, edit and delete when mutation is allowed", () => {
    for (const intent of ["write", "edit", "delete"] as const) {
      expect(decideSkillPathAccess(state({ allowSkillMutation: true }), "pdf", intent)).toEqual({ access: "write" });
    }
  });

  it("refuses a write without allowSkillMutation (the default)", () => {
    const decision = decideSkillPathAccess(state({}), "pdf", "write");
    expect(decision).toEqual({ denied: expect.stringMatching(/turned off by the host's skill access policy/) });
    expect("denied" in decision && decision.denied.endsWith(SKILL_DENIAL_SUFFIX)).toBe(true);
    expect(decideSkillPathAccess(state({ allowSkillMutation: false }), "pdf", "delete")).toHaveProperty("denied", expect.stringMatching(/deleting files/));
  });

  it("refuses changes to built-in and protected skills even with mutation allowed", () => {
    const s = state({ allowSkillMutation: true, protectedSkillNames: ["pdf"] });
    expect(decideSkillPathAccess(s, "skills-creator", "edit")).toHaveProperty("denied", expect.stringMatching(/"skills-creator" is a built-in skill/));
    expect(decideSkillPathAccess(s, "pdf", "write")).toHaveProperty("denied", expect.stringMatching(/"pdf" is protected .* can be read but not changed/));
    expect(decideSkillPathAccess(s, "pdf", "read")).toEqual({ access: "read" });
  });

  it("refuses any access to a disabled skill, and allows it once granted", () => {
    const decision = decideSkillPathAccess(state({ allowedSkillNames: ["docx"] }), "pdf", "read");
    expect("denied" in decision && decision.denied.endsWith(SKILL_DENIAL_SUFFIX)).toBe(true);
    expect(decision).toHaveProperty("denied", expect.stringMatching(/^Skill "pdf" is not enabled for this session/));
    expect(decideSkillPathAccess(state({ allowedSkillNames: ["docx"] }, ["pdf"]), "pdf", "read")).toEqual({ access: "read" });
  });
});

describe("decideManagerAction", () => {
  it("allows everything but changes to built-ins under the default policy", () => {
    for (const action of ["list", "registry_search", "install", "create", "validate", "package", "delete", "registry_install", "read"] as const) {
      expect(decideManagerAction(state({}), action, "pdf")).toBeUndefined();
    }
    expect(decideManagerAction(state({}), "list")).toBeUndefined();
  });

  it("needs inventory for list and registry_search", () => {
    const s = state({ allowSkillInventory: false });
    expect(decideManagerAction(s, "list")).toMatch(/SkillsManager list\) is turned off.*list is refused\. Do not bypass/);
    expect(decideManagerAction(s, "registry_search")).toMatch(/registry_search is refused/);
    expect(decideManagerAction(s, "read", "pdf")).toBeUndefined();
    expect(decideManagerAction(s, "install")).toBeUndefined();
  });

  it("needs management for install, create, validate, package, delete and registry_install", () => {
    const s = state({ allowSkillManagement: false });
    for (const action of ["install", "create", "validate", "package", "delete", "registry_install"] as const) {
      const message = decideManagerAction(s, action, "pdf");
      expect(message).toMatch(new RegExp(`Managing skills .* so ${action} is refused\\.`));
      expect(message?.endsWith(SKILL_DENIAL_SUFFIX)).toBe(true);
    }
    expect(decideManagerAction(s, "list")).toBeUndefined();
    expect(decideManagerAction(s, "read", "pdf")).toBeUndefined();
  });

  it("needs an enabled skill for read, validate, package and delete, not for install or create", () => {
    const s = state({ allowedSkillNames: ["docx"] });
    for (const action of ["read", "validate", "package", "delete"] as const) {
      expect(decideManagerAction(s, action, "pdf")).toMatch(new RegExp(`"pdf" is not enabled .* SkillsManager ${action} is refused`));
    }
    expect(decideManagerAction(s, "read", "docx")).toBeUndefined();
    expect(decideManagerAction(s, "install", "pdf")).toBeUndefined();
    expect(decideManagerAction(s, "create", "pdf")).toBeUndefined();
  });

  it("refuses changing a built-in or protected skill but lets it be read, validated and packaged", () => {
    const s = state({ protectedSkillBaseDirs: ["/data/skills/pdf"] });
    for (const action of ["install", "create", "delete", "registry_install"] as const) {
      expect(decideManagerAction(s, action, "pdf")).toMatch(/"pdf" is protected/);
      expect(decideManagerAction(s, action, "skills-installer")).toMatch(/"skills-installer" is a built-in skill/);
    }
    for (const action of ["read", "validate", "package"] as const) expect(decideManagerAction(s, action, "pdf")).toBeUndefined();
  });
});
