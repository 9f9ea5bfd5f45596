/**
 * The real temp tree every group of the decision table runs in, the tokens
 * its rows use, and a snapshot of the tree to tell whether a refused call
 * changed anything.
 *
 * <root>/work       the workdir: README.md, package.json (a `test` script that echoes),
 *                   .env, .gitignore, .git/config, Makefile, src/{a.ts,b.js,.env},
 *                   src/deep/c.ts, src/deep/deeper/d.ts, src/config/.env.local,
 *                   config/{app.json,.env}, secrets/key.pem, secrets/nested/id.pem,
 *                   docs/{guide.md,logo.png}, docs/api/ref.md, build/out.js, and the links
 *                   src/link-env -> ../.env, src/link-secrets -> ../secrets,
 *                   src/link-out -> <root>/out/secret.txt, docs/link-src -> ../src
 * <root>/out        outside every root: secret.txt, notes.md
 * <root>/extra      granted read-only as root://shared: a.txt, private/p.txt
 * <root>/data       the registry's dataDir
 * <root>/markers    where the fixture MCP servers note each call
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CaseSetup } from "./cases/case-types.js";

/** The folders of one group's tree (all canonical). */
export interface FixtureTree {
  root: string;
  work: string;
  out: string;
  extra: string;
  data: string;
  markers: string;
  /** True when the workdir's file system does not tell `A` from `a`. */
  caseInsensitive: boolean;
}

const FILES: Readonly<Record<string, string>> = {
  "work/README.md": "# fixture\nfoo\n",
  "work/package.json": `${JSON.stringify({ name: "fixture", private: true, scripts: { test: "echo test-ran" } })}\n`,
  "work/.env": "SECRET=1\n",
  "work/.gitignore": "build/\n",
  "work/.git/config": "[core]\n\tbare = false\n",
  "work/Makefile": "all:\n\techo make\n",
  "work/src/a.ts": "export const a = 1; // foo\n",
  "work/src/b.js": "export const b = 2;\n",
  "work/src/.env": "SRC_SECRET=1\n",
  "work/src/deep/c.ts": "export const c = 3; // foo\n",
  "work/src/deep/deeper/d.ts": "export const d = 4;\n",
  "work/src/config/.env.local": "LOCAL=1\n",
  "work/config/app.json": '{ "app": true }\n',
  "work/config/.env": "A=1\n",
  "work/secrets/key.pem": "KEY 1\n",
  "work/secrets/nested/id.pem": "KEY 2\n",
  "work/docs/guide.md": "# guide\n",
  "work/docs/api/ref.md": "# ref\n",
  "work/build/out.js": "built\n",
  "out/secret.txt": "outside secret a\n",
  "out/notes.md": "notes\n",
  "extra/a.txt": "shared\n",
  "extra/private/p.txt": "private\n",
};

// A 1x1 transparent PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");

/** Builds a fresh tree under the system temp folder. */
export function createFixtureTree(label: string): FixtureTree {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `agent-tools-policy-table-${label}-`)));
  for (const [name, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  fs.writeFileSync(path.join(root, "work/docs/logo.png"), PNG);
  for (const folder of ["data", "markers"]) fs.mkdirSync(path.join(root, folder));
  fs.symlinkSync("../.env", path.join(root, "work/src/link-env"));
  fs.symlinkSync("../secrets", path.join(root, "work/src/link-secrets"));
  fs.symlinkSync(path.join(root, "out/secret.txt"), path.join(root, "work/src/link-out"));
  fs.symlinkSync("../src", path.join(root, "work/docs/link-src"));
  const probe = path.join(root, "work", "Case-Probe");
  fs.writeFileSync(probe, "");
  const caseInsensitive = fs.existsSync(path.join(root, "work", "case-probe"));
  fs.rmSync(probe);
  return { root, work: `${root}/work`, out: `${root}/out`, extra: `${root}/extra`, data: `${root}/data`, markers: `${root}/markers`, caseInsensitive };
}

/** Replaces the row tokens (`{work}`, `{out}`, `{extra}`, `{data}`, `{home}`, `{n}`) in every string of `value`. */
export function substituteTokens<T>(value: T, tree: FixtureTree, index: number): T {
  const tokens: Record<string, string> = { work: tree.work, out: tree.out, extra: tree.extra, data: tree.data, home: os.homedir(), n: String(index) };
  const replace = (text: string) => text.replace(/\{(work|out|extra|data|home|n)\}/g, (_, name: string) => tokens[name] as string);
  const walk = (item: unknown): unknown => {
    if (typeof item === "string") return replace(item);
    if (Array.isArray(item)) return item.map(walk);
    if (item !== null && typeof item === "object") return Object.fromEntries(Object.entries(item).map(([key, inner]) => [replace(key), walk(inner)]));
    return item;
  };
  return walk(value) as T;
}

/** Creates a row's extra folders, files and links (already substituted; relative paths are in the workdir). */
export function applySetup(tree: FixtureTree, setup: CaseSetup | undefined): void {
  const place = (name: string) => path.resolve(tree.work, name);
  for (const dir of setup?.dirs ?? []) fs.mkdirSync(place(dir), { recursive: true });
  for (const [name, text] of Object.entries(setup?.files ?? {})) {
    fs.mkdirSync(path.dirname(place(name)), { recursive: true });
    fs.writeFileSync(place(name), text);
  }
  for (const [name, target] of Object.entries(setup?.symlinks ?? {})) fs.symlinkSync(target, place(name));
}

/**
 * Every entry of the tree (type, size, mtime, link target), links not
 * followed. The dataDir's own files (the registry's stores) are left out,
 * except names a row writes there (`bp-*`).
 */
export function snapshotTree(tree: FixtureTree): string {
  const lines: string[] = [];
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      const relative = path.relative(tree.root, full);
      if (relative.startsWith(`data${path.sep}`) && !entry.name.startsWith("bp-")) {
        if (entry.isDirectory()) walk(full);
        continue;
      }
      const stat = fs.lstatSync(full);
      const link = entry.isSymbolicLink() ? ` -> ${fs.readlinkSync(full)}` : "";
      lines.push(`${relative} ${stat.mode.toString(8)} ${stat.size} ${stat.mtimeMs}${link}`);
      if (entry.isDirectory()) walk(full);
    }
  };
  walk(tree.root);
  return lines.sort().join("\n");
}
