/**
 * Shared by the SkillLibrary test files: a temp folder per test file (removed
 * after its tests) with fresh library roots and skill source folders in it,
 * a SKILL.md writer and a look into a root's staging folder.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

export const skillMd = (name: string, description = "Does things.", body = "# Body\n") => `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}`;

export const stagingEntries = (root: string) => (fs.existsSync(path.join(root, ".staging")) ? fs.readdirSync(path.join(root, ".staging")) : []);

/** Call once at the top of a test file: a temp folder `top`, `fresh` library roots in it (not created) and `sourceFolder`. */
export function skillLibraryCases(): { top: string; fresh: () => string; sourceFolder: (name: string, files: Record<string, string>) => string } {
  const top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-skill-library-")));
  afterAll(() => fs.rmSync(top, { recursive: true, force: true }));
  let serial = 0;
  const fresh = () => path.join(top, `case-${(serial += 1)}`);

  /** Writes a skill folder outside the library and returns its path. */
  function sourceFolder(name: string, files: Record<string, string>): string {
    const dir = path.join(top, "sources", `${(serial += 1)}`, name);
    for (const [file, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), content);
    }
    return dir;
  }

  return { top, fresh, sourceFolder };
}
