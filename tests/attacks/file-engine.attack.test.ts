/**
 * Attacks on the write path of Write, Edit and Delete (the file engine of
 * `@agent-tools/tools-fs`: target pinned on its directory's descriptor,
 * queued per file, locked, staleness checked, committed atomically keeping
 * the mode, checkpoint pre/post images), played by a model calling
 * `executeToolCall` on a registry from `buildBuiltinToolRegistry` and
 * changing files as its own Bash could:
 *
 * - a target or a parent folder flipped to a symlink to an outside file or
 *   folder while Edit, Write and Delete run inside a checkpoint, then a
 *   forced rewind (`ATTACK_ROUNDS` rounds): nothing outside changes;
 * - Write creating parents while `new` keeps turning into a symlink out;
 * - a hard link to an outside file: Write and Edit replace the link, never
 *   write the outside file's bytes;
 * - a file changed by Bash after Read (same size, mtime set back) is refused
 *   by Edit, never overwritten; a target turned into a folder or a device is
 *   refused and left alone;
 * - a file made private (0600) by Bash after Read stays 0600 after Edit;
 *   a BOM and CRLF line endings survive a tolerant Edit.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { buildBuiltinToolRegistry, openFileCheckpoints } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const ROUNDS = Math.max(1, Number(process.env.ATTACK_ROUNDS ?? 150));
const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-file-engine-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

type Registry = Awaited<ReturnType<typeof buildBuiltinToolRegistry>>;

function scene(name: string) {
  const root = path.join(temporary, name);
  const workdir = path.join(root, "work");
  const outside = path.join(root, "outside");
  fs.mkdirSync(workdir, { recursive: true });
  fs.mkdirSync(outside, { recursive: true });
  return { workdir, outside, dataDir: path.join(root, "data") };
}

async function call(registry: Registry, name: string, args: Record<string, unknown>) {
  const result = await registry.executeToolCall({ id: `${name}-${Math.random()}`, name, arguments: args });
  return { isError: result.isError === true, text: toolResultText(result, "") };
}

/** Every file below `directory` with its content (symlinks as `-> target`). */
function snapshot(directory: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const name of fs.readdirSync(folder).sort()) {
      const full = path.join(folder, name);
      const info = fs.lstatSync(full);
      if (info.isSymbolicLink()) out[path.relative(directory, full)] = `-> ${fs.readlinkSync(full)}`;
      else if (info.isDirectory()) walk(full);
      else out[path.relative(directory, full)] = `${(info.mode & 0o7777).toString(8)} ${fs.readFileSync(full, "utf8")}`;
    }
  };
  walk(directory);
  return out;
}

/** A shell loop, as the model's Bash could run in the background, for `seconds`. */
function loop(body: string[], seconds: number) {
  const script = [
    `end=$(( $(date +%s) + ${seconds} ))`,
    `while [ "$(date +%s)" -lt "$end" ]; do`,
    "  for i in 1 2 3 4 5 6 7 8 9 10; do",
    ...body,
    "  done",
    "done",
  ];
  const child = spawn("sh", ["-c", script.join("\n")], { stdio: "ignore" });
  const done = new Promise<void>((resolve) => child.on("close", () => resolve()));
  return {
    stop: async () => {
      child.kill("SIGKILL");
      await done;
    },
  };
}

describe("attack: symlink swaps racing Write, Edit and Delete in a checkpoint", () => {
  it(`changes nothing outside, during the race or after a forced rewind (${ROUNDS} rounds)`, async () => {
    const { workdir, outside, dataDir } = scene("swap");
    fs.mkdirSync(path.join(outside, "dir"));
    fs.writeFileSync(path.join(outside, "target.txt"), "outside target\n");
    fs.writeFileSync(path.join(outside, "dir", "f.txt"), "outside f\n");
    fs.mkdirSync(path.join(workdir, "dir"));
    fs.writeFileSync(path.join(workdir, "dir", "f.txt"), "inside f\n");
    fs.writeFileSync(path.join(workdir, "target.txt"), "inside target\n");
    const before = snapshot(outside);
    const q = (name: string) => `'${path.join(workdir, name)}'`;
    const flip = loop(
      [
        // The file flips to a link to the outside file and back.
        `    ln -sfn '${path.join(outside, "target.txt")}' ${q(".l")} && mv -T ${q(".l")} ${q("target.txt")}`,
        `    printf 'inside target\\n' > ${q(".p")} && mv -T ${q(".p")} ${q("target.txt")}`,
        // The folder flips to a link to the outside folder and back.
        `    rm -rf ${q(".old")}; mv -T ${q("dir")} ${q(".old")} 2>/dev/null; ln -sfn '${path.join(outside, "dir")}' ${q("dir")}`,
        `    mkdir -p ${q(".d")} && printf 'inside f\\n' > ${q(".d/f.txt")} && rm -f ${q("dir")} && mv -T ${q(".d")} ${q("dir")}`,
      ],
      Math.max(5, Math.ceil(ROUNDS / 15)),
    );
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, checkpoints: { id: "race" } });
    let landed = 0;
    try {
      for (let round = 0; round < ROUNDS; round += 1) {
        const results = await Promise.all([
          call(registry, "Write", { path: "target.txt", content: `written ${round}\n` }),
          call(registry, "Edit", { path: "target.txt", old_string: "target", new_string: "target" }),
          call(registry, "Write", { path: "dir/f.txt", content: `written ${round}\n` }),
          call(registry, "Edit", { path: "dir/f.txt", old_string: "f", new_string: "F" }),
          call(registry, "Write", { path: "dir/new.txt", content: "new\n" }),
          round % 10 === 0 ? call(registry, "Delete", { path: "dir/f.txt" }) : call(registry, "Read", { path: "dir/f.txt" }),
          round % 10 === 5 ? call(registry, "Delete", { path: "dir" }) : call(registry, "Read", { path: "target.txt" }),
        ]);
        landed += results.filter((result) => !result.isError).length;
        expect(snapshot(outside)).toEqual(before);
      }
    } finally {
      await flip.stop();
      await registry.close();
    }
    expect(landed).toBeGreaterThan(0);
    const checkpoints = openFileCheckpoints({ dataDir });
    try {
      await checkpoints.rewindCheckpoint("race", { force: true });
    } finally {
      await checkpoints.close();
    }
    expect(snapshot(outside)).toEqual(before);
  });

  it(`Write never creates parents through a folder that keeps turning into a symlink out (${ROUNDS} rounds)`, async () => {
    const { workdir, outside, dataDir } = scene("parents");
    const q = (name: string) => `'${path.join(workdir, name)}'`;
    const flip = loop([`    ln -sfn '${outside}' ${q(".l")} && mv -T ${q(".l")} ${q("new")}`, `    rm -rf ${q("new")}`], Math.max(5, Math.ceil(ROUNDS / 20)));
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false });
    try {
      for (let round = 0; round < ROUNDS; round += 1) {
        await call(registry, "Write", { path: `new/deep/f${round}.txt`, content: "x\n" });
        await call(registry, "Write", { path: `new/g${round}.txt`, content: "x\n" });
      }
    } finally {
      await flip.stop();
      await registry.close();
    }
    expect(fs.readdirSync(outside)).toEqual([]);
  });
});

describe("attack: special targets of Write and Edit", () => {
  it("replaces a hard link to an outside file instead of writing its bytes", async () => {
    const { workdir, outside, dataDir } = scene("hardlink");
    const secret = path.join(outside, "secret.txt");
    fs.writeFileSync(secret, "outside secret line\n", { mode: 0o640 });
    fs.linkSync(secret, path.join(workdir, "a.txt"));
    fs.linkSync(secret, path.join(workdir, "b.txt"));
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false });
    try {
      expect((await call(registry, "Edit", { path: "a.txt", old_string: "secret", new_string: "public" })).isError).toBe(false);
      expect((await call(registry, "Write", { path: "b.txt", content: "overwritten\n" })).isError).toBe(false);
    } finally {
      await registry.close();
    }
    expect(fs.readFileSync(secret, "utf8")).toBe("outside secret line\n");
    expect(fs.readFileSync(path.join(workdir, "a.txt"), "utf8")).toBe("outside public line\n");
    expect(fs.statSync(path.join(workdir, "a.txt")).mode & 0o777).toBe(0o640);
  });

  it("refuses a target that became a folder or a device after Read, and leaves it alone", async () => {
    const { workdir, dataDir } = scene("replaced");
    fs.writeFileSync(path.join(workdir, "a.txt"), "one\n");
    fs.writeFileSync(path.join(workdir, "d.txt"), "one\n");
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false });
    try {
      await call(registry, "Read", { path: "a.txt" });
      await call(registry, "Read", { path: "d.txt" });
      await call(registry, "Bash", { command: "rm a.txt && mkdir a.txt && echo keep > a.txt/inner" });
      for (const args of [
        { name: "Edit", args: { path: "a.txt", old_string: "one", new_string: "two" } },
        { name: "Write", args: { path: "a.txt", content: "two\n" } },
      ]) {
        expect((await call(registry, args.name, args.args)).isError).toBe(true);
      }
      expect(fs.readFileSync(path.join(workdir, "a.txt", "inner"), "utf8")).toBe("keep\n");
      // A character device (/dev/zero's numbers); mknod needs root (CI runs as root).
      const device = await call(registry, "Bash", { command: "rm d.txt && mknod d.txt c 1 5 && echo made" });
      if (device.text.includes("made")) {
        expect((await call(registry, "Edit", { path: "d.txt", old_string: "one", new_string: "two" })).isError).toBe(true);
        expect((await call(registry, "Write", { path: "d.txt", content: "two\n" })).isError).toBe(true);
        expect(fs.lstatSync(path.join(workdir, "d.txt")).isCharacterDevice()).toBe(true);
      }
    } finally {
      await registry.close();
    }
  });
});

describe("attack: stale reads and what Edit keeps", () => {
  it("refuses an Edit after Bash changed the file (same size, mtime set back) and keeps Bash's bytes", async () => {
    const { workdir, dataDir } = scene("stale");
    const file = path.join(workdir, "a.txt");
    fs.writeFileSync(file, "alpha beta\n");
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false });
    try {
      await call(registry, "Read", { path: "a.txt" });
      await call(registry, "Bash", { command: "touch -r a.txt .ref && printf 'alpha gamm\\n' > a.txt && touch -r .ref a.txt" });
      const edit = await call(registry, "Edit", { path: "a.txt", old_string: "alpha", new_string: "omega" });
      expect(edit.isError).toBe(true);
      expect(edit.text).toMatch(/changed on disk/);
      expect(fs.readFileSync(file, "utf8")).toBe("alpha gamm\n");
    } finally {
      await registry.close();
    }
  });

  it("keeps a mode Bash tightened after Read, and a BOM with CRLF line endings", async () => {
    const { workdir, dataDir } = scene("mode");
    const file = path.join(workdir, "a.txt");
    fs.writeFileSync(file, "\uFEFFfirst line\r\nsecond line\r\n", { mode: 0o644 });
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false });
    try {
      await call(registry, "Read", { path: "a.txt" });
      await call(registry, "Bash", { command: "chmod 600 a.txt" });
      const edit = await call(registry, "Edit", { path: "a.txt", old_string: "first line\nsecond", new_string: "first line\nthird" });
      expect(edit.isError, edit.text).toBe(false);
    } finally {
      await registry.close();
    }
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, "utf8")).toBe("\uFEFFfirst line\r\nthird line\r\n");
  });
});
