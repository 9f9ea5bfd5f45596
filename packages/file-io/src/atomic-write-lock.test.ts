import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ToolError } from "@agent-tools/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acquireFileLock, anchorDirectory, isToolSidecarName, writeFileAtomic } from "./index.js";

let base: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "file-io-")));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("writeFileAtomic", () => {
  it("replaces a file with the given mode and leaves no temporary", async () => {
    writeFileSync(path.join(base, "a.txt"), "old\n");
    const directory = anchorDirectory(base);
    try {
      const result = await writeFileAtomic(directory, "a.txt", [Buffer.from("new "), Buffer.from("text\n")], 0o640, () => "hashed");
      expect(result).toBe("hashed");
    } finally {
      directory.close();
    }
    expect(readFileSync(path.join(base, "a.txt"), "utf8")).toBe("new text\n");
    expect(statSync(path.join(base, "a.txt")).mode & 0o777).toBe(0o640);
    expect(readdirSync(base)).toEqual(["a.txt"]);
  });

  it("replaces a symlink at the target instead of writing through it", async () => {
    const outside = path.join(base, "outside");
    mkdirSync(path.join(base, "inside"));
    writeFileSync(outside, "secret\n");
    symlinkSync(outside, path.join(base, "inside", "link"));
    const directory = anchorDirectory(path.join(base, "inside"));
    try {
      await writeFileAtomic(directory, "link", Buffer.from("mine\n"));
    } finally {
      directory.close();
    }
    expect(readFileSync(outside, "utf8")).toBe("secret\n");
    expect(lstatSync(path.join(base, "inside", "link")).isFile()).toBe(true);
  });
});

describe("acquireFileLock", () => {
  it("holds a lock file beside the target until released and times out a second writer with conflict", async () => {
    const directory = anchorDirectory(base);
    try {
      const lock = await acquireFileLock(directory, "a.txt", { toolName: "Write", displayPath: "a.txt" });
      const held = readdirSync(base);
      expect(held).toEqual([".a.txt.agent-tools.lock"]);
      expect(isToolSidecarName(held[0]!)).toBe(true);
      const second = await acquireFileLock(directory, "a.txt", { toolName: "Write", displayPath: "a.txt", timeoutMs: 50 }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(second).toBeInstanceOf(ToolError);
      expect((second as ToolError).code).toBe("conflict");
      lock.release();
      lock.release();
      expect(existsSync(path.join(base, ".a.txt.agent-tools.lock"))).toBe(false);
      const again = await acquireFileLock(directory, "a.txt", { toolName: "Write", displayPath: "a.txt", timeoutMs: 50 });
      again.release();
    } finally {
      directory.close();
    }
  });

  it("breaks a lock whose holder is gone", async () => {
    writeFileSync(path.join(base, ".a.txt.agent-tools.lock"), "2147483646 1 deadbeef\n");
    const directory = anchorDirectory(base);
    try {
      const lock = await acquireFileLock(directory, "a.txt", { toolName: "Write", displayPath: "a.txt", timeoutMs: 1_000 });
      expect(readFileSync(path.join(base, ".a.txt.agent-tools.lock"), "latin1")).toContain(`${process.pid} `);
      lock.release();
    } finally {
      directory.close();
    }
  });

  it("refuses to wait once the signal is aborted", async () => {
    const directory = anchorDirectory(base);
    try {
      const lock = await acquireFileLock(directory, "a.txt", { toolName: "Write", displayPath: "a.txt" });
      const controller = new AbortController();
      controller.abort();
      const error = await acquireFileLock(directory, "a.txt", { toolName: "Write", displayPath: "a.txt", signal: controller.signal }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect((error as ToolError).code).toBe("cancelled");
      lock.release();
    } finally {
      directory.close();
    }
  });
});
