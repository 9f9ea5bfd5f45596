/**
 * Attacks on ApplyPatch's paths on the local disk, through a registry's
 * `executeToolCall` as a model calls it: `..`, absolute paths outside,
 * read-only `root://` roots, `skill://`, `.git`, symlink leaves and
 * symlinked parents leading out, Delete File of a link or a folder, one
 * file named twice under two spellings (nested holds on one lock must not
 * deadlock: each call is raced against a timeout), and a patch of many files
 * where the last path is refused (nothing written).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-apply-patch-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

type Registry = Awaited<ReturnType<typeof buildBuiltinToolRegistry>>;
let count = 0;

/** A fresh workdir with `files`, an outside folder with a secret and a victim, a read-only root, and a registry listing ApplyPatch. */
async function scene(files: Record<string, string> = {}, extra: Record<string, unknown> = {}) {
  count += 1;
  const base = path.join(temporary, `s${count}`);
  const workdir = path.join(base, "work");
  const outside = path.join(base, "outside");
  const readOnly = path.join(base, "ro");
  for (const dir of [workdir, outside, readOnly]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(outside, "secret.txt"), "OUTSIDE SECRET\n");
  fs.writeFileSync(path.join(outside, "victim.txt"), "victim\n");
  fs.writeFileSync(path.join(readOnly, "doc.txt"), "read only\n");
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(workdir, name)), { recursive: true });
    fs.writeFileSync(path.join(workdir, name), text);
  }
  const registry = await buildBuiltinToolRegistry({
    workdir,
    dataDir: path.join(base, "data"),
    memory: false,
    editSurface: "both",
    additionalRoots: [{ alias: "ro", path: readOnly, access: "read" }],
    ...extra,
  } as never);
  return { base, workdir, outside, readOnly, registry };
}

/** Runs one call, raced against `ms` (a call that never returns is a finding). */
async function call(registry: Registry, name: string, args: Record<string, unknown>, ms = 15_000) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  const result = await Promise.race([registry.executeToolCall({ id: `${name}-${++count}`, name, arguments: args }), timeout]);
  clearTimeout(timer);
  if (result === "timeout") return { isError: true, text: "TIMEOUT", details: undefined, timedOut: true };
  return {
    isError: result.isError === true,
    text: toolResultText(result, ""),
    details: result.details as Record<string, unknown> | undefined,
    timedOut: false,
  };
}

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

/** Every entry below `dir` with its bytes (links as their target). */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const stats = fs.lstatSync(full);
    out[path.relative(dir, full)] = stats.isSymbolicLink() ? `-> ${fs.readlinkSync(full)}` : stats.isFile() ? fs.readFileSync(full, "latin1") : "dir";
  }
  return out;
}

describe("ApplyPatch: paths leading out of the workspace", () => {
  it("Add, Update, Delete and Move to by `..`, absolute, root:// read-only, skill://, .git, a symlink leaf and a symlinked parent change nothing outside", async () => {
    const { workdir, outside, readOnly, registry, base } = await scene({ "a.txt": "a\n", "keep.txt": "keep\n", ".git/config": "[core]\n" });
    fs.symlinkSync(path.join(outside, "victim.txt"), path.join(workdir, "leak.txt"));
    fs.symlinkSync(outside, path.join(workdir, "outdir"));
    fs.symlinkSync(path.join(outside, "nothing.txt"), path.join(workdir, "dangling.txt"));
    fs.symlinkSync(".git", path.join(workdir, "g"));
    const before = { outside: tree(outside), readOnly: tree(readOnly), work: tree(workdir) };
    const rel = path.relative(workdir, path.join(outside, "victim.txt"));
    const targets = [
      "../outside/new.txt",
      rel,
      path.join(outside, "new.txt"),
      path.join(outside, "victim.txt"),
      "root://ro/new.txt",
      "root://ro/doc.txt",
      path.join(readOnly, "doc.txt"),
      "skill://x/SKILL.md",
      ".git/config",
      ".git/hooks/pre-commit",
      "g/config",
      ".GIT/config",
      "leak.txt",
      "outdir/new.txt",
      "outdir/victim.txt",
      "dangling.txt",
      "a\0b.txt",
      "~/new.txt",
      `${workdir}/../outside/victim.txt`,
    ];
    // The model reads what it can first (so read-before-write is no defence here).
    for (const target of targets) await call(registry, "Read", { path: target });
    const attempts: Array<[string, string]> = [];
    for (const target of targets) {
      attempts.push([`add ${target}`, patch(`*** Add File: ${target}`, "+pwned")]);
      attempts.push([`update ${target}`, patch(`*** Update File: ${target}`, "@@", "-victim", "+pwned")]);
      attempts.push([`update doc ${target}`, patch(`*** Update File: ${target}`, "@@", "-read only", "+pwned")]);
      attempts.push([`delete ${target}`, patch(`*** Delete File: ${target}`)]);
      attempts.push([`move to ${target}`, patch("*** Update File: a.txt", `*** Move to: ${target}`)]);
      attempts.push([`move from ${target}`, patch(`*** Update File: ${target}`, "*** Move to: moved.txt")]);
      // The refused path last, after a change that would be fine alone: all or nothing.
      attempts.push([`last ${target}`, patch("*** Update File: keep.txt", "@@", "-keep", "+changed", `*** Add File: ${target}`, "+pwned")]);
    }
    for (const [label, text] of attempts) {
      const result = await call(registry, "ApplyPatch", { patch: text });
      expect(result.timedOut, label).toBe(false);
      expect(result.isError, `${label}: ${result.text}`).toBe(true);
    }
    expect(tree(outside)).toEqual(before.outside);
    expect(tree(readOnly)).toEqual(before.readOnly);
    expect(tree(workdir)).toEqual(before.work);
    expect(fs.existsSync(path.join(base, "outside", "new.txt"))).toBe(false);
    // The control: the same registry applies a patch inside the workdir.
    const control = await call(registry, "ApplyPatch", { patch: patch("*** Update File: keep.txt", "@@", "-keep", "+kept") });
    expect(control.isError, control.text).toBe(false);
    await registry.close();
  });

  it("Delete File of a symlink or a folder never removes the target nor what is below", async () => {
    const { workdir, outside, registry } = await scene({ "dir/inner.txt": "inner\n", "a.txt": "a\n" });
    fs.symlinkSync(path.join(outside, "victim.txt"), path.join(workdir, "leak.txt"));
    fs.symlinkSync("a.txt", path.join(workdir, "alias.txt"));
    fs.symlinkSync(outside, path.join(workdir, "outdir"));
    for (const target of ["leak.txt", "alias.txt", "outdir", "outdir/", "dir", "dir/", "."]) {
      await call(registry, "Read", { path: target });
      const result = await call(registry, "ApplyPatch", { patch: patch(`*** Delete File: ${target}`) });
      expect(result.timedOut, target).toBe(false);
      // Either refused, or the link itself removed: never the target.
      expect(fs.readFileSync(path.join(outside, "victim.txt"), "utf8")).toBe("victim\n");
      expect(fs.readFileSync(path.join(workdir, "a.txt"), "utf8")).toBe("a\n");
      expect(fs.readFileSync(path.join(workdir, "dir", "inner.txt"), "utf8")).toBe("inner\n");
      expect(fs.existsSync(path.join(outside, "secret.txt"))).toBe(true);
    }
    await registry.close();
  });
});

describe("ApplyPatch: special files", () => {
  it("a FIFO, and links to /dev/zero and /dev/urandom, are refused at once by every operation (no hang, nothing read)", async () => {
    const { workdir, registry } = await scene({ "a.txt": "a\n" });
    execFileSync("mkfifo", [path.join(workdir, "fifo")]);
    fs.symlinkSync("/dev/zero", path.join(workdir, "zero"));
    fs.symlinkSync("/dev/urandom", path.join(workdir, "rnd"));
    for (const target of ["fifo", "zero", "rnd"]) {
      for (const text of [
        patch(`*** Update File: ${target}`, "@@", "-a", "+b"),
        patch(`*** Delete File: ${target}`),
        patch(`*** Add File: ${target}`, "+x"),
        patch("*** Update File: a.txt", `*** Move to: ${target}`),
        patch(`*** Update File: ${target}`, "*** Move to: moved.txt"),
      ]) {
        const result = await call(registry, "ApplyPatch", { patch: text }, 8_000);
        expect(result.timedOut, text).toBe(false);
        expect(result.isError, `${text}: ${result.text}`).toBe(true);
      }
    }
    expect(fs.lstatSync(path.join(workdir, "fifo")).isFIFO()).toBe(true);
    expect(fs.readFileSync(path.join(workdir, "a.txt"), "utf8")).toBe("a\n");
    await registry.close();
  });
});

describe("ApplyPatch: one file named twice", () => {
  it("`a`, `./a`, `b/../a`, the absolute path, a symlink to it and a symlinked parent: answered (no deadlock) and refused, the file unchanged", async () => {
    const { workdir, registry } = await scene({ "a.txt": "one\ntwo\nthree\n", "b/x.txt": "x\n" });
    fs.symlinkSync("a.txt", path.join(workdir, "alias.txt"));
    fs.symlinkSync(".", path.join(workdir, "self"));
    const control = await call(registry, "ApplyPatch", { patch: patch("*** Update File: b/x.txt", "@@", "-x", "+y") });
    expect(control.isError, control.text).toBe(false);
    fs.writeFileSync(path.join(workdir, "b", "x.txt"), "x\n");
    const spellings = ["./a.txt", "b/../a.txt", path.join(workdir, "a.txt"), "alias.txt", "self/a.txt", "self/self/a.txt", "a.txt/", "./././a.txt"];
    for (const other of spellings) {
      const pairs = [
        patch("*** Update File: a.txt", "@@", "-one", "+ONE", `*** Update File: ${other}`, "@@", "-three", "+THREE"),
        patch("*** Update File: a.txt", "@@", "-one", "+ONE", `*** Delete File: ${other}`),
        patch(`*** Delete File: ${other}`, "*** Update File: a.txt", "@@", "-one", "+ONE"),
        patch("*** Update File: b/x.txt", `*** Move to: ${other}`),
        patch("*** Update File: a.txt", `*** Move to: ${other}`),
        patch(`*** Add File: ${other}`, "+new", "*** Update File: a.txt", "@@", "-one", "+ONE"),
      ];
      for (const text of pairs) {
        await call(registry, "Read", { path: "a.txt" });
        const result = await call(registry, "ApplyPatch", { patch: text });
        expect(result.timedOut, `${other}: ${text}`).toBe(false);
        const now = fs.existsSync(path.join(workdir, "a.txt")) ? fs.readFileSync(path.join(workdir, "a.txt"), "utf8") : "(gone)";
        // The same file twice is refused (as the parser refuses one spelling twice), the file as it was.
        expect(result.isError, `${other}: ${text}: ${result.text}`).toBe(true);
        expect(now, `${other}: ${text}`).toBe("one\ntwo\nthree\n");
        expect(fs.readFileSync(path.join(workdir, "b", "x.txt"), "utf8"), `${other}: ${text}`).toBe("x\n");
        // Put things back for the next round.
        fs.writeFileSync(path.join(workdir, "a.txt"), "one\ntwo\nthree\n");
        fs.mkdirSync(path.join(workdir, "b"), { recursive: true });
        fs.writeFileSync(path.join(workdir, "b", "x.txt"), "x\n");
      }
    }
    // Two spellings of one NEW file (one through a symlinked folder): refused at once, never waiting on its own lock.
    fs.symlinkSync("b", path.join(workdir, "blink"));
    for (const [first, second] of [
      ["new.txt", "self/new.txt"],
      ["b/n.txt", "blink/n.txt"],
      ["blink/deep/n.txt", "b/deep/n.txt"],
    ]) {
      const result = await call(registry, "ApplyPatch", { patch: patch(`*** Add File: ${first}`, "+1", `*** Add File: ${second}`, "+2") });
      expect(result.timedOut, `${first} + ${second}`).toBe(false);
      expect(result.isError, `${first} + ${second}: ${result.text}`).toBe(true);
      expect(fs.existsSync(path.join(workdir, first)), first).toBe(false);
    }
    await registry.close();
  });
});
