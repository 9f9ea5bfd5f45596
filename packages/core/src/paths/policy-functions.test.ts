import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolError } from "../errors.js";
import { displayPath } from "./display-path.js";
import { matchRoot } from "./match-root.js";
import { type PathPolicyState, createPolicyState } from "./policy-state.js";
import { resolvePath } from "./resolve-path.js";
import { skillRoot } from "./skill-root.js";

let base: string;
let workdir: string;
let linkedWorkdir: string;
let outer: string;
let skills: string;
let state: PathPolicyState;

beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "policy-fns-")));
  workdir = path.join(base, "work");
  outer = path.join(base, "outer");
  skills = path.join(base, "data", "skills");
  for (const dir of [workdir, path.join(outer, "deep"), path.join(skills, "pdf")]) mkdirSync(dir, { recursive: true });
  linkedWorkdir = path.join(base, "work-link");
  symlinkSync(workdir, linkedWorkdir);
  // `outer` contains the workspace (read-only, so the grant is valid): paths inside both belong to the longer root.
  symlinkSync(workdir, path.join(outer, "work"));
  state = createPolicyState({ workdir: linkedWorkdir, additionalRoots: [{ alias: "outer", path: outer, access: "read" }], skills: { rootDir: skills } });
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("createPolicyState", () => {
  it("keeps the canonical and the declared workdir apart, and is frozen", () => {
    expect(state.workdir).toBe(workdir);
    expect(state.declaredWorkdir).toBe(linkedWorkdir);
    expect(Object.isFrozen(state)).toBe(true);
    expect(Object.isFrozen(state.granted)).toBe(true);
    expect(state.skills?.rootDir).toBe(skills);
  });

  it("has no skills when the host gave none", () => {
    expect(createPolicyState({ workdir }).skills).toBeUndefined();
  });
});

describe("matchRoot", () => {
  it("picks the longest root: a workspace inside a granted root wins", () => {
    expect(matchRoot(state, path.join(outer, "deep", "x"))).toMatchObject({ candidate: { scope: "root", rootPath: outer }, relative: path.join("deep", "x") });
    expect(matchRoot(state, path.join(workdir, "src", "a.ts"))).toMatchObject({
      candidate: { scope: "workspace", rootPath: workdir },
      relative: path.join("src", "a.ts"),
    });
  });

  it("matches the declared (symlinked) workdir as the workspace, with the canonical root path", () => {
    expect(matchRoot(state, path.join(linkedWorkdir, "a.ts"))).toMatchObject({ candidate: { scope: "workspace", rootPath: workdir }, relative: "a.ts" });
  });

  it("tries the path as written first, then its canonical form", () => {
    expect(matchRoot(state, path.join(outer, "work", "a.ts"))?.candidate.scope).toBe("root");
    symlinkSync(workdir, path.join(base, "side-link"));
    expect(matchRoot(state, path.join(base, "side-link", "a.ts"))).toMatchObject({ candidate: { scope: "workspace" }, relative: "a.ts" });
    expect(matchRoot(state, path.join(base, "elsewhere"))).toBeNull();
  });

  it("places a path inside the skills directory in the skill its first component names", () => {
    expect(matchRoot(state, path.join(skills, "pdf", "SKILL.md"))).toMatchObject({
      candidate: { scope: "skill", skillName: "pdf", access: "read" },
      relative: "SKILL.md",
    });
    expect(matchRoot(state, skills)).toBeNull();
  });
});

describe("skillRoot", () => {
  it("asks the host's hook per intent and canonicalises the directory", () => {
    const hooked = createPolicyState({
      workdir,
      skills: { rootDir: skills, access: (name, intent) => (intent === "write" ? { denied: `${name} is read-only here` } : { access: "write" }) },
    });
    expect(skillRoot(hooked, "pdf", "read", "Read path")).toEqual({ scope: "skill", rootPath: path.join(skills, "pdf"), access: "write", skillName: "pdf" });
    expect(() => skillRoot(hooked, "pdf", "write", "Write path")).toThrow("pdf is read-only here");
    expect(skillRoot(state, "new-skill", "read", "Read path").rootPath).toBe(path.join(skills, "new-skill"));
  });

  it("refuses bad names and runtimes without skills", () => {
    expect(() => skillRoot(state, "../x", "read", "Read path")).toThrow(/is not a valid skill name/);
    const error = (() => {
      try {
        skillRoot(createPolicyState({ workdir }), "pdf", "read", "Read path");
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe("permission_denied");
  });
});

describe("resolvePath / displayPath", () => {
  it("resolves an absolute path under the declared workdir to the canonical one", () => {
    const resolved = resolvePath(state, path.join(linkedWorkdir, "new.txt"), { intent: "write" });
    expect(resolved).toMatchObject({ scope: "workspace", absolutePath: path.join(workdir, "new.txt"), displayPath: "new.txt", exists: false });
  });

  it("displays paths by their root, and leaves outside paths absolute", () => {
    expect(displayPath(state, path.join(outer, "deep"))).toBe("root://outer/deep");
    expect(displayPath(state, linkedWorkdir)).toBe(".");
    expect(displayPath(state, path.join(skills, "pdf", "SKILL.md"))).toBe("skill://pdf/SKILL.md");
    expect(displayPath(state, "/nowhere/x")).toBe("/nowhere/x");
  });
});
