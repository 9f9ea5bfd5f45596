import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Files of the search fixture tree (relative path -> content). */
export const SEARCH_TREE: Record<string, string | Buffer> = {
  ".gitignore": "node_modules/\n*.log\nbuild\n!keep.log\n",
  ".ignore": "secret/\n",
  ".hidden/config.ts": "export const hidden = 'TODO hidden';\n",
  "README.md": "# Project\nTODO: write docs\n",
  "src/index.ts": "import { util } from './util';\n// TODO first\nexport function main() {\n  return util(1);\n}\n",
  "src/util.ts": "export function util(x: number) {\n  // todo lower\n  return x + 1;\n}\n",
  "src/deep/nested/file.tsx": "const A = () => <div>TODO nested</div>;\n",
  "src/deep/.gitignore": "generated.ts\n",
  "src/deep/generated.ts": "TODO generated\n",
  "src/crlf.ts": "line one\r\nTODO crlf\r\nlast\r\n",
  "src/bom.ts": "\uFEFFTODO bom\n",
  "src/multi.txt": "start\nfunction a() {\n  body\n}\nend\n",
  "src/long.txt": `TODO ${"x".repeat(500)}\n`,
  "src/context.txt": "c1\nc2\nTODO c3\nc4\nc5\nc6\nTODO c7\nc8\n",
  "debug.log": "TODO ignored log\n",
  "keep.log": "TODO kept log\n",
  "build/out.js": "TODO built\n",
  "secret/token.txt": "TODO secret\n",
  "node_modules/pkg/index.js": "TODO dependency\n",
  "docs/guide.md": "Guide\nSee TODO\n",
  "docs/excluded.md": "TODO excluded by info/exclude\n",
  "bin/data.bin": Buffer.from([0x54, 0x4f, 0x44, 0x4f, 0x00, 0x01, 0x02]),
  ".git/info/exclude": "docs/excluded.md\n",
  ".git/HEAD": "ref: refs/heads/main\n",
  ".git/objects/TODO": "TODO in git dir\n",
};

/** Writes the tree into `dir`, plus a symlinked file and directory (not followed by the tools). */
export function writeSearchTree(dir: string, outside?: string): void {
  for (const [relative, content] of Object.entries(SEARCH_TREE)) {
    const target = path.join(dir, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  symlinkSync(path.join(dir, "src", "util.ts"), path.join(dir, "link-util.ts"));
  symlinkSync(path.join(dir, "src"), path.join(dir, "link-src"));
  if (outside) {
    mkdirSync(outside, { recursive: true });
    writeFileSync(path.join(outside, "outside.ts"), "TODO outside\n");
    symlinkSync(outside, path.join(dir, "link-outside"));
  }
}
