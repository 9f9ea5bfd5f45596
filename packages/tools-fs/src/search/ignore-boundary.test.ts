import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { walkTree } from "./file-walker.js";

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "agent-tools-ignore-boundary-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));

for (const [relative, content] of Object.entries({
  ".gitignore": "*.txt\n",
  ".git/info/exclude": "*.sh\n",
  "host/.ignore": "*.md\n",
  "host/skills/.gitignore": "*.log\n",
  "host/skills/pdf/a.txt": "a\n",
  "host/skills/pdf/b.md": "b\n",
  "host/skills/pdf/c.log": "c\n",
  "host/skills/pdf/d.sh": "d\n",
  "host/skills/pdf/e.json": "e\n",
})) {
  mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
  writeFileSync(path.join(root, relative), content);
}

async function files(base: string, ignoreBoundary?: string): Promise<string[]> {
  return (await walkTree(base, { ignoreBoundary })).map((entry) => entry.relativePath).sort();
}

describe("walkTree's ignoreBoundary", () => {
  const skill = path.join(root, "host", "skills", "pdf");

  it("without it, honours the ignore files of every folder above the base", async () => {
    expect(await files(skill)).toEqual(["e.json"]);
  });

  it("honours the ignore files of the boundary and below, none above it", async () => {
    expect(await files(skill, path.join(root, "host", "skills"))).toEqual(["a.txt", "b.md", "d.sh", "e.json"]);
    expect(await files(skill, path.join(root, "host"))).toEqual(["a.txt", "d.sh", "e.json"]);
  });

  it("reads no ignore file above the base when the base is the boundary or outside it", async () => {
    expect(await files(skill, skill)).toEqual(["a.txt", "b.md", "c.log", "d.sh", "e.json"]);
    expect(await files(skill, path.join(root, "elsewhere"))).toEqual(["a.txt", "b.md", "c.log", "d.sh", "e.json"]);
  });
});
