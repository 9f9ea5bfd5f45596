/**
 * Attack: after a checkpoint recorded a turn's file changes, a command (Bash)
 * swaps a folder of the workspace for a symlink to a folder outside it, then
 * the host rewinds the turn. The rewind must not create, overwrite or delete
 * anything outside the workspace, with or without `force`: the paths under
 * the swapped folder are conflicts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildBuiltinToolRegistry, openFileCheckpoints } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-rewind-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

interface Scene {
  workdir: string;
  dataDir: string;
  outside: string;
}

function scene(name: string): Scene {
  const root = path.join(temporary, name);
  const workdir = path.join(root, "project");
  const outside = path.join(root, "outside");
  fs.mkdirSync(path.join(workdir, "dir"), { recursive: true });
  fs.mkdirSync(outside, { recursive: true });
  return { workdir, dataDir: path.join(root, "data"), outside };
}

function listing(directory: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(directory).sort()) out[name] = fs.readFileSync(path.join(directory, name), "utf8");
  return out;
}

async function call(registry: Awaited<ReturnType<typeof buildBuiltinToolRegistry>>, name: string, args: Record<string, unknown>) {
  const result = await registry.executeToolCall({ id: `${name}-${Math.random()}`, name, arguments: args });
  expect(result.isError, JSON.stringify(result.content)).toBe(false);
  return result;
}

describe("attack: rewind through a folder swapped for a symlink", () => {
  for (const force of [false, true]) {
    it(`creates, overwrites and deletes nothing outside the workspace (force: ${force})`, async () => {
      const { workdir, dataDir, outside } = scene(`swap-${force}`);
      // Files the turn will change: one existing (modified), one deleted, one created.
      fs.writeFileSync(path.join(workdir, "dir", "modified.txt"), "original\n");
      fs.writeFileSync(path.join(workdir, "dir", "deleted.txt"), "doomed\n");
      // Outside files with the names the rewind would touch, holding what the turn left in the workspace.
      fs.writeFileSync(path.join(outside, "modified.txt"), "changed by the turn\n");
      fs.writeFileSync(path.join(outside, "created.txt"), "created by the turn\n");
      const checkpointId = `c:${force}`;
      const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, checkpoints: { id: checkpointId } });
      try {
        await call(registry, "Write", { path: "dir/modified.txt", content: "changed by the turn\n" });
        await call(registry, "Delete", { path: "dir/deleted.txt" });
        await call(registry, "Write", { path: "dir/created.txt", content: "created by the turn\n" });
        // The swap, as a model's command would do it.
        await call(registry, "Bash", { command: `mv dir dir.real && ln -s ${JSON.stringify(outside)} dir` });
      } finally {
        await registry.close();
      }
      const before = listing(outside);
      const checkpoints = openFileCheckpoints({ dataDir });
      try {
        const report = await checkpoints.rewindCheckpoint(checkpointId, { force });
        expect(listing(outside)).toEqual(before);
        expect(report.restored).toEqual([]);
        expect(report.removed).toEqual([]);
        expect(report.conflicts.map((conflict) => path.basename(conflict.path)).sort()).toEqual(["created.txt", "deleted.txt", "modified.txt"]);
        for (const conflict of report.conflicts) expect(conflict.reason).toMatch(/symlink/);
      } finally {
        await checkpoints.close();
      }
      // The swapped-away folder still holds the turn's state: nothing was written through the link.
      expect(listing(path.join(workdir, "dir.real"))).toEqual({ "created.txt": "created by the turn\n", "modified.txt": "changed by the turn\n" });
    });
  }

  it("replaces a file swapped for a symlink to an outside file instead of writing through it (force)", async () => {
    const { workdir, dataDir, outside } = scene("leaf");
    fs.writeFileSync(path.join(workdir, "dir", "target.txt"), "original\n");
    fs.writeFileSync(path.join(outside, "victim.txt"), "victim\n");
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, checkpoints: { id: "leaf" } });
    try {
      await call(registry, "Write", { path: "dir/target.txt", content: "changed\n" });
      await call(registry, "Bash", { command: `rm dir/target.txt && ln -s ${JSON.stringify(path.join(outside, "victim.txt"))} dir/target.txt` });
    } finally {
      await registry.close();
    }
    const checkpoints = openFileCheckpoints({ dataDir });
    try {
      const plain = await checkpoints.rewindCheckpoint("leaf");
      expect(plain.conflicts.map((conflict) => path.basename(conflict.path))).toEqual(["target.txt"]);
      const forced = await checkpoints.rewindCheckpoint("leaf", { force: true });
      expect(forced.restored.map((file) => path.basename(file))).toEqual(["target.txt"]);
    } finally {
      await checkpoints.close();
    }
    expect(fs.readFileSync(path.join(outside, "victim.txt"), "utf8")).toBe("victim\n");
    expect(fs.lstatSync(path.join(workdir, "dir", "target.txt")).isFile()).toBe(true);
    expect(fs.readFileSync(path.join(workdir, "dir", "target.txt"), "utf8")).toBe("original\n");
  });
});

describe("attack: rewind racing a command that swaps a folder for a symlink", () => {
  it("writes, creates and deletes nothing outside the workspace while the folder flips (force)", async () => {
    const rounds = Number(process.env.ATTACK_ROUNDS ?? 15);
    const { workdir, dataDir, outside } = scene("race");
    const names = Array.from({ length: 8 }, (_, index) => `f${index}.txt`);
    for (const name of names) fs.writeFileSync(path.join(workdir, "dir", name), `original ${name}\n`);
    // Outside files with the names the rewind restores: a write through the link would change them.
    for (const name of names) fs.writeFileSync(path.join(outside, name), `outside ${name}\n`);
    fs.writeFileSync(path.join(outside, "keep.txt"), "outside keep\n");
    const before = listing(outside);
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, checkpoints: { id: "race" } });
    const checkpoints = openFileCheckpoints({ dataDir });
    try {
      for (const name of names) await call(registry, "Write", { path: `dir/${name}`, content: `changed ${name}\n` });
      await call(registry, "Write", { path: "dir/created.txt", content: "created by the turn\n" });
      // The flipper: a model's background command swapping the folder for a link to the outside folder, over and over.
      const link = JSON.stringify(outside);
      await call(registry, "Bash", {
        command: `while true; do mv dir dir.real 2>/dev/null && ln -s ${link} dir; sleep 0.002; rm -f dir 2>/dev/null; mv dir.real dir 2>/dev/null; done`,
        // Returns while the loop keeps running as a session (ended by registry.close()).
        yield_time_ms: 200,
      });
      let swapsSeen = 0;
      for (let round = 0; round < rounds; round++) {
        const report = await checkpoints.rewindCheckpoint("race", { force: true });
        swapsSeen += report.conflicts.length;
        expect(listing(outside)).toEqual(before);
      }
      console.info(`rewind race: ${rounds} forced rewinds, ${swapsSeen} paths found swapped`);
    } finally {
      await checkpoints.close();
      await registry.close();
    }
    expect(listing(outside)).toEqual(before);
  });
});
