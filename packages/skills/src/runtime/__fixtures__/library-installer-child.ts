// The crash and race tests' installer. Usage:
//   library-installer-child.ts loop <root> <sourcesDir> <versions> <seed>
//     installs versions of the skill "crashy" from <sourcesDir>/v<n>/crashy in a loop, alternating
//     conflict "overwrite" and "backup", until it is killed; prints "ready" once the library is open and
//     "installed" after each install.
//   library-installer-child.ts once <root> <sourceDir> <startAtMs>
//     waits until <startAtMs>, installs <sourceDir> with conflict "fail", prints {"ok":true} or {"code":...}.
import { createRequire, syncBuiltinESMExports } from "node:module";
import path from "node:path";
import { SkillLibrary } from "../skill-library.js";

// Widens the window a crash must hit: after the old folder is moved out of the way, pause before the new one
// is moved in, so SIGKILLs land between the two renames often (the library's imports see the patched
// function through the live bindings of node:fs/promises).
const promises = createRequire(import.meta.url)("node:fs/promises") as typeof import("node:fs/promises");
const originalRename = promises.rename;
promises.rename = async (from, to) => {
  await originalRename(from, to);
  const target = String(to);
  if (path.basename(String(from)) === "crashy" && (target.includes(`${path.sep}trash-`) || target.includes(`${path.sep}.backups${path.sep}`))) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
syncBuiltinESMExports();

const [mode, root, source, third, fourth] = process.argv.slice(2) as [string, string, string, string, string];
const library = await SkillLibrary.open({ rootDir: root, lock: { unreadableGraceMs: 300 } });

if (mode === "loop") {
  const versions = Number(third);
  let seed = Number(fourth) >>> 0 || 1;
  process.stdout.write("ready\n");
  for (let round = 0; ; round += 1) {
    seed = (seed * 1_103_515_245 + 12_345) >>> 0;
    const version = seed % versions;
    await library.install({ kind: "directory", path: path.join(source, `v${version}`, "crashy") }, { conflict: round % 2 === 0 ? "overwrite" : "backup" });
    process.stdout.write("installed\n");
  }
} else {
  const wait = Number(third) - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  try {
    await library.install({ kind: "directory", path: source }, { conflict: "fail" });
    process.stdout.write(JSON.stringify({ ok: true }));
  } catch (error) {
    process.stdout.write(JSON.stringify({ code: (error as { code?: string }).code ?? "unknown", message: (error as Error).message }));
  }
}
