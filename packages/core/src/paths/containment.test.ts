import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ToolError } from "../errors.js";
import { MAX_SYMLINK_HOPS, canonicalizeTarget } from "./containment.js";
import { createPathPolicy } from "./path-policy.js";

let base: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "containment-")));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function loopError(run: () => unknown): ToolError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return error as ToolError;
  }
  throw new Error("expected a symlink loop error");
}

describe("canonicalizeTarget", () => {
  it("throws a bounded invalid_path error for loops instead of overflowing the stack", () => {
    symlinkSync("b", path.join(base, "a"));
    symlinkSync("a", path.join(base, "b"));
    symlinkSync("self", path.join(base, "self"));
    for (const target of ["a", "self", "self/x/y.txt"]) {
      const error = loopError(() => canonicalizeTarget(path.join(base, target)));
      expect(error.code).toBe("invalid_path");
      expect(error.details).toMatchObject({ symlinkLoop: true });
      expect(error.message).toMatch(/symlink loop \(or too many levels of symlinks\)/);
    }
  });

  it("follows up to MAX_SYMLINK_HOPS links and refuses one more", () => {
    const chain = (length: number, dir: string) => {
      mkdirSync(path.join(base, dir));
      for (let index = 0; index < length; index += 1) symlinkSync(`l${index + 1}`, path.join(base, dir, `l${index}`));
      return path.join(base, dir, "l0");
    };
    expect(canonicalizeTarget(chain(MAX_SYMLINK_HOPS, "ok"))).toMatchObject({
      canonicalPath: path.join(base, "ok", `l${MAX_SYMLINK_HOPS}`),
      exists: false,
      isSymlink: true,
    });
    loopError(() => canonicalizeTarget(chain(MAX_SYMLINK_HOPS + 1, "long")));
  });

  it("still follows dangling links, relative and absolute, to their destination", () => {
    mkdirSync(path.join(base, "dir"));
    symlinkSync("../elsewhere/new.txt", path.join(base, "dir", "rel"));
    symlinkSync("/nonexistent-root-dir/x", path.join(base, "abs"));
    symlinkSync("abs", path.join(base, "via"));
    expect(canonicalizeTarget(path.join(base, "dir", "rel")).canonicalPath).toBe(path.join(base, "elsewhere", "new.txt"));
    expect(canonicalizeTarget(path.join(base, "via")).canonicalPath).toBe("/nonexistent-root-dir/x");
  });

  it("a '..' in a dangling link steps back onto disk and follows links found there", () => {
    mkdirSync(path.join(base, "outside"));
    symlinkSync(path.join(base, "outside"), path.join(base, "escape"));
    symlinkSync("missing/../escape/x.txt", path.join(base, "tricky"));
    expect(canonicalizeTarget(path.join(base, "tricky")).canonicalPath).toBe(path.join(base, "outside", "x.txt"));
  });

  it("keepLeafSymlink keeps a loop link itself (so Delete can remove it)", () => {
    symlinkSync("self", path.join(base, "self"));
    expect(canonicalizeTarget(path.join(base, "self"), { keepLeafSymlink: true })).toEqual({
      canonicalPath: path.join(base, "self"),
      exists: true,
      isSymlink: true,
    });
  });
});

describe("path policy and symlink loops", () => {
  it("resolve names the input and the first link; display() and delete still work", () => {
    const workdir = path.join(base, "work");
    mkdirSync(workdir);
    symlinkSync("loop", path.join(workdir, "loop"));
    const policy = createPathPolicy({ workdir });
    const error = loopError(() => policy.resolve("loop/a.txt", { intent: "read", label: "Read path" }));
    expect(error.message).toBe(
      'Read path "loop/a.txt" is a symlink loop (or too many levels of symlinks): resolving it followed more than 40 symlinks, starting at loop. Delete the link or point it at an existing file (Delete removes a symlink itself, never its target), then retry.',
    );
    loopError(() => policy.resolve(path.join(workdir, "loop"), { intent: "image", allowExternal: true }));
    expect(policy.display(path.join(workdir, "loop"))).toBe("loop");
    expect(policy.resolve("loop", { intent: "delete" })).toMatchObject({ isSymlink: true, exists: true, relativePath: "loop" });
  });
});
