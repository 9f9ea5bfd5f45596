/**
 * Attacks on ApplyPatch while a second process (tools-fs'
 * `symlink-swapper.mjs`, as the model's Bash could run it) keeps flipping
 * `sub` between the real folder and a symlink to a folder outside the
 * workspace: multi-file patches below `sub` (Add into new folders, Update,
 * Delete, Move), applied or refused, and refused patches whose clean-up
 * removes the folders they created: nothing outside is written, created or
 * removed (the outside folder holds empty folders named like the ones the
 * patches create), and no answer shows outside content.
 * `ATTACK_ROUNDS` rounds per mode (default 40).
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const ROUNDS = Number(process.env.ATTACK_ROUNDS ?? 40);
const here = path.dirname(new URL(import.meta.url).pathname);
const SWAPPER = path.resolve(here, "../../packages/tools-fs/src/__fixtures__/symlink-swapper.mjs");
const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-edit-formats-race-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const MARK = "OUTSIDE-CONTENT";

function seed(directory: string, mark: string, rounds: number): void {
  fs.mkdirSync(path.join(directory, "d"), { recursive: true });
  fs.writeFileSync(path.join(directory, "e.txt"), `alpha ${mark}\n`);
  for (let index = 0; index < rounds; index += 1) {
    fs.writeFileSync(path.join(directory, "d", `f${index}.txt`), `${mark} ${index}\n`);
    fs.writeFileSync(path.join(directory, `m${index}.txt`), `${mark} move ${index}\n`);
    // Empty folders named like the ones a refused patch creates and removes again.
    fs.mkdirSync(path.join(directory, `new${index}`, "deep"), { recursive: true });
  }
}

/** Every entry below `directory` (folders too) with its content. */
function tree(directory: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(directory, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const stats = fs.lstatSync(full);
    out[path.relative(directory, full)] = stats.isSymbolicLink() ? `-> ${fs.readlinkSync(full)}` : stats.isFile() ? fs.readFileSync(full, "utf8") : "dir";
  }
  return out;
}

async function startSwapper(workdir: string, outside: string, mode: "link" | "dir"): Promise<ChildProcess> {
  const child = spawn(process.execPath, [SWAPPER, workdir, outside, mode], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("ready")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`swapper exited early (${code})`)));
  });
  return child;
}

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

describe.each(["dir", "link"] as const)("ApplyPatch below a folder flipped to a symlink out (%s mode)", (mode) => {
  it("multi-file patches and refused patches' clean-up touch nothing outside", async () => {
    const base = path.join(temporary, mode);
    const workdir = path.join(base, "workspace");
    const outside = path.join(base, "outside");
    seed(outside, MARK, ROUNDS);
    if (mode === "link") {
      seed(path.join(workdir, "real"), "inside", ROUNDS);
      fs.symlinkSync(path.join(workdir, "real"), path.join(workdir, "sub"));
    } else seed(path.join(workdir, "sub"), "inside", ROUNDS);
    // The inside copies of the empty folders are not there: a patch creates them.
    for (let index = 0; index < ROUNDS; index += 1) fs.rmSync(path.join(workdir, mode === "link" ? "real" : "sub", `new${index}`), { recursive: true });
    const before = tree(outside);
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir: path.join(base, "data"), memory: false, editSurface: "both" });
    const swapper = await startSwapper(workdir, outside, mode);
    const shown: string[] = [];
    try {
      for (let index = 0; index < ROUNDS; index += 1) {
        const texts = [
          // Refused at its last hunk after the new folders were made: the clean-up removes them.
          patch(`*** Add File: sub/new${index}/deep/n.txt`, "+inside", "*** Update File: sub/e.txt", "@@", "-no such line", "+x"),
          patch(
            `*** Add File: sub/new${index}/deep/n.txt`,
            "+inside",
            `*** Delete File: sub/d/f${index}.txt`,
            `*** Update File: sub/m${index}.txt`,
            `*** Move to: sub/moved${index}.txt`,
          ),
        ];
        for (const text of texts) {
          const result = await registry.executeToolCall({ id: `race-${mode}-${index}-${shown.length}`, name: "ApplyPatch", arguments: { patch: text } });
          const answer = toolResultText(result, "");
          if (answer.includes(MARK)) shown.push(answer.slice(0, 200));
        }
      }
    } finally {
      swapper.kill("SIGTERM");
      await new Promise((resolve) => swapper.once("exit", resolve));
      await registry.close();
    }
    expect(shown).toEqual([]);
    expect(tree(outside)).toEqual(before);
  }, 120_000);
});
