/**
 * Shared by the SkillsManager test files: a factory of harnesses over fresh
 * workspaces and skills roots (closed, and their temp folder removed, after
 * the file's tests), and helpers that read a skill file and an error code.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll } from "vitest";
import { type SkillsHarness, caseDirs, openSkillsHarness, tempParent } from "./skills-tool-harness.js";

/** Call once at the top of a test file: returns `fresh`, which opens a harness over a fresh workspace and skills root. */
export function freshHarnesses(prefix: string): (options?: Partial<Parameters<typeof openSkillsHarness>[0]>) => SkillsHarness {
  const parent = tempParent(prefix);
  afterAll(() => fs.rmSync(parent, { recursive: true, force: true }));

  const open: SkillsHarness[] = [];
  afterAll(async () => {
    await Promise.all(open.map((harness) => harness.close()));
  });

  /** A harness over a fresh workspace and skills root. */
  return function fresh(options: Partial<Parameters<typeof openSkillsHarness>[0]> = {}): SkillsHarness {
    const harness = openSkillsHarness({ ...caseDirs(parent), ...options });
    open.push(harness);
    return harness;
  };
}

export function skillText(harness: SkillsHarness, name: string, file = "SKILL.md"): string {
  return fs.readFileSync(path.join(harness.rootDir, name, file), "utf8");
}

export function errorCode(result: { details: unknown }): string | undefined {
  return (result.details as { error?: { code: string } }).error?.code;
}
