import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ToolError } from "@agent-tools/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openContainedTree, splitContainedPath, symlinkStaysInside } from "./contained-tree.js";

let base: string;
let root: string;
let outside: string;

beforeEach(() => {
  base = mkdtempSync(path.join(tmpdir(), "contained-tree-"));
  root = path.join(base, "root");
  outside = path.join(base, "outside");
  mkdirSync(root);
  mkdirSync(outside);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

async function outOfBounds(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ToolError);
  expect((error as ToolError).code).toBe("out_of_bounds");
  return error as ToolError;
}

describe("openContainedTree", () => {
  it("writes, reads, links, renames and removes inside the root, creating parents with exact modes", async () => {
    const tree = openContainedTree(root);
    try {
      await tree.writeFile("a/b/c.txt", Buffer.from("hello\n"), { mode: 0o600, durable: true });
      expect(readFileSync(path.join(root, "a/b/c.txt"), "utf8")).toBe("hello\n");
      expect(statSync(path.join(root, "a/b/c.txt")).mode & 0o777).toBe(0o600);
      expect((await tree.readFile("a/b/c.txt")).toString()).toBe("hello\n");
      await tree.symlink("a/link", "b/c.txt");
      expect(readlinkSync(path.join(root, "a/link"))).toBe("b/c.txt");
      expect(await tree.readlink("a/link")).toBe("b/c.txt");
      expect((await tree.lstat("a/link"))?.isSymbolicLink()).toBe(true);
      await tree.mkdir("d/e", { recursive: true, mode: 0o750 });
      expect(statSync(path.join(root, "d/e")).mode & 0o777).toBe(0o750);
      await tree.chmod("a/b/c.txt", 0o644);
      expect(statSync(path.join(root, "a/b/c.txt")).mode & 0o777).toBe(0o644);
      await tree.rename("a/b/c.txt", "d/e/c.txt");
      expect(existsSync(path.join(root, "d/e/c.txt"))).toBe(true);
      expect(await tree.remove("d/e/c.txt")).toBe(true);
      expect(await tree.remove("d/e/c.txt")).toBe(false);
      expect(
        (await tree.readdir("a")).map((entry) => `${entry.name}:${entry.isSymbolicLink() ? "link" : entry.isDirectory() ? "dir" : "file"}`).sort(),
      ).toEqual(["b:dir", "link:link"]);
      expect((await tree.readdir("")).map((entry) => entry.name).sort()).toEqual(["a", "d"]);
      expect(await tree.remove("d/e")).toBe(true);
      expect(await tree.lstat("missing/x")).toBeUndefined();
    } finally {
      tree.close();
    }
  });

  it("refuses a symlinked directory on the way instead of writing through it", async () => {
    symlinkSync(outside, path.join(root, "evil"));
    const tree = openContainedTree(root);
    try {
      await outOfBounds(tree.writeFile("evil/x", Buffer.from("pwned")));
      await outOfBounds(tree.symlink("evil/y", "z"));
      await outOfBounds(tree.mkdir("evil/d", { recursive: true }));
      await outOfBounds(tree.remove("evil/keep"));
      await outOfBounds(tree.lstat("evil/keep"));
      await outOfBounds(tree.readFile("evil/keep"));
      await outOfBounds(tree.readdir("evil"));
      expect(existsSync(path.join(outside, "x"))).toBe(false);
      expect(existsSync(path.join(outside, "d"))).toBe(false);
    } finally {
      tree.close();
    }
  });

  it("replaces a symlink leaf instead of writing through it, and refuses to read through one", async () => {
    writeFileSync(path.join(outside, "secret"), "secret\n");
    symlinkSync(path.join(outside, "secret"), path.join(root, "leaf"));
    const tree = openContainedTree(root);
    try {
      await outOfBounds(tree.readFile("leaf"));
      await tree.writeFile("leaf", Buffer.from("mine\n"));
      expect(lstatSync(path.join(root, "leaf")).isFile()).toBe(true);
      expect(readFileSync(path.join(outside, "secret"), "utf8")).toBe("secret\n");
      symlinkSync(path.join(outside, "secret"), path.join(root, "leaf2"));
      await outOfBounds(tree.chmod("leaf2", 0o777));
      expect(await tree.remove("leaf2")).toBe(true);
      expect(existsSync(path.join(outside, "secret"))).toBe(true);
    } finally {
      tree.close();
    }
  });

  it("refuses `..`, absolute paths and the root itself", async () => {
    const tree = openContainedTree(root);
    try {
      await outOfBounds(tree.writeFile("../outside/x", Buffer.from("x")));
      await outOfBounds(tree.writeFile("a/../../outside/x", Buffer.from("x")));
      await outOfBounds(tree.writeFile(path.join(outside, "x"), Buffer.from("x")));
      await outOfBounds(tree.remove("."));
      expect(existsSync(path.join(outside, "x"))).toBe(false);
    } finally {
      tree.close();
    }
  });

  it("keeps writing inside the held root when the root's path is moved away and replaced by a symlink", async () => {
    const tree = openContainedTree(root);
    try {
      renameSync(root, path.join(base, "moved"));
      symlinkSync(outside, root);
      await tree.writeFile("x.txt", Buffer.from("x"));
      expect(existsSync(path.join(base, "moved", "x.txt"))).toBe(true);
      expect(existsSync(path.join(outside, "x.txt"))).toBe(false);
    } finally {
      tree.close();
    }
  });

  it("never writes outside while a racing loop swaps a directory for a symlink", async () => {
    const rounds = Number(process.env.ATTACK_ROUNDS ?? 300);
    const tree = openContainedTree(root);
    mkdirSync(path.join(root, "d"));
    let stop = false;
    const racer = (async () => {
      while (!stop) {
        try {
          renameSync(path.join(root, "d"), path.join(root, "d.real"));
          symlinkSync(outside, path.join(root, "d"));
          await new Promise((resolve) => setImmediate(resolve));
          rmSync(path.join(root, "d"));
          renameSync(path.join(root, "d.real"), path.join(root, "d"));
        } catch {
          // the writer may have created d meanwhile; keep racing
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    try {
      for (let round = 0; round < rounds; round += 1) {
        await tree.writeFile(`d/file-${round}`, Buffer.from("x")).catch((error: unknown) => {
          if (!(error instanceof ToolError) && (error as { code?: string }).code !== "ENOENT") throw error;
        });
      }
    } finally {
      stop = true;
      await racer;
      tree.close();
    }
    expect(readdirCount(outside)).toBe(0);
  });
});

function readdirCount(directory: string): number {
  return readdirSync(directory).length;
}

describe("splitContainedPath and symlinkStaysInside", () => {
  it("splits and normalises relative paths", () => {
    expect(splitContainedPath("/r", "./a//b/./c")).toEqual(["a", "b", "c"]);
    expect(() => splitContainedPath("/r", "a/../b")).toThrow(ToolError);
    expect(() => splitContainedPath("/r", "C:\\x")).toThrow(ToolError);
    expect(() => splitContainedPath("/r", "a\0b")).toThrow(ToolError);
  });

  it("tells whether a link target stays inside the root", () => {
    expect(symlinkStaysInside("a/link", "b/c")).toBe(true);
    expect(symlinkStaysInside("a/link", "../c")).toBe(true);
    expect(symlinkStaysInside("a/link", "../../c")).toBe(false);
    expect(symlinkStaysInside("link", "/etc/passwd")).toBe(false);
    expect(symlinkStaysInside("link", "..")).toBe(false);
    expect(symlinkStaysInside("a/link", "..")).toBe(true);
  });
});
