import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type TestRepository, createTestRepository } from "./__fixtures__/git-subagent-worktree-repository.js";
import { splitPatch } from "./git-subagent-worktree-patch.js";
import { baseContent, blobIdMatches, readFileChanges, splitLines, undoHunks } from "./worktree-file-changes.js";

const repositories: TestRepository[] = [];
afterEach(() => {
  for (const repository of repositories.splice(0)) repository.remove();
});

const BINARY = Buffer.from([0, 1, 2, 3, 255, 254, 0, 10, 13, 0, 128]);

/** The work tree's patch against HEAD, as `git diff --binary` gives it (abbreviated ids for text, full for binary). */
function patchOf(repo: TestRepository): string {
  repo.git(["add", "-A"]);
  return repo.git(["diff", "--cached", "--binary", "--no-renames", "HEAD"]);
}

function setUp(): TestRepository {
  const repo = createTestRepository({
    "text.txt": "one\ntwo\nthree\n",
    "no-newline.txt": "alpha\nomega",
    "gone.txt": "gone\n",
    "run.sh": "#!/bin/sh\n",
    "turns-link.txt": "a file\n",
    "image.bin": BINARY,
  });
  repositories.push(repo);
  return repo;
}

describe("readFileChanges", () => {
  it("reads each path's sides, blob ids and hunks from a real patch", () => {
    const repo = setUp();
    repo.write("text.txt", "one\nTWO\nthree\n");
    repo.write("no-newline.txt", "alpha\nbeta\nomega");
    repo.write("new/file.txt", "new\n");
    fs.rmSync(path.join(repo.root, "gone.txt"));
    fs.chmodSync(path.join(repo.root, "run.sh"), 0o755);
    fs.rmSync(path.join(repo.root, "turns-link.txt"));
    fs.symlinkSync("text.txt", path.join(repo.root, "turns-link.txt"));
    repo.write("image.bin", Buffer.concat([BINARY, BINARY]));
    const changes = new Map(readFileChanges(splitPatch(patchOf(repo))).map((change) => [change.path, change]));
    expect([...changes.keys()].sort()).toEqual(["gone.txt", "image.bin", "new/file.txt", "no-newline.txt", "run.sh", "text.txt", "turns-link.txt"]);
    expect(changes.get("text.txt")).toMatchObject({
      before: { kind: "file", executable: false },
      after: { kind: "file", executable: false },
      fromNothing: false,
    });
    expect(changes.get("text.txt")!.hunks).toEqual([
      {
        oldStart: 1,
        oldCount: 3,
        newStart: 1,
        newCount: 3,
        lines: [
          { kind: " ", text: "one\n" },
          { kind: "-", text: "two\n" },
          { kind: "+", text: "TWO\n" },
          { kind: " ", text: "three\n" },
        ],
      },
    ]);
    expect(changes.get("no-newline.txt")!.hunks![0]!.lines.at(-1)).toEqual({ kind: " ", text: "omega" });
    expect(changes.get("new/file.txt")).toMatchObject({ before: { kind: "missing" }, after: { kind: "file" } });
    expect(changes.get("gone.txt")).toMatchObject({ before: { kind: "file" }, after: { kind: "missing" }, fromNothing: true });
    expect(changes.get("run.sh")).toMatchObject({ before: { kind: "file", executable: false }, after: { kind: "file", executable: true }, hunks: [] });
    expect(changes.get("run.sh")!.before.oid).toBeUndefined();
    expect(changes.get("turns-link.txt")).toMatchObject({ before: { kind: "file" }, after: { kind: "link" }, fromNothing: true });
    expect(changes.get("image.bin")).toMatchObject({ before: { kind: "file" }, after: { kind: "file" }, hunks: null });
    expect(changes.get("image.bin")!.after.oid).toMatch(/^[0-9a-f]{40}$/);
  });

  it("rebuilds the base content exactly from the new content and the hunks, and checks it against the blob id", () => {
    const repo = setUp();
    repo.write("text.txt", "zero\none\nTWO\nthree\nfour\n");
    repo.write("no-newline.txt", "alpha\nbeta\nomega");
    fs.rmSync(path.join(repo.root, "gone.txt"));
    fs.rmSync(path.join(repo.root, "turns-link.txt"));
    fs.symlinkSync("text.txt", path.join(repo.root, "turns-link.txt"));
    const changes = new Map(readFileChanges(splitPatch(patchOf(repo))).map((change) => [change.path, change]));
    expect(baseContent(changes.get("text.txt")!, Buffer.from("zero\none\nTWO\nthree\nfour\n"))?.toString()).toBe("one\ntwo\nthree\n");
    expect(baseContent(changes.get("no-newline.txt")!, Buffer.from("alpha\nbeta\nomega"))?.toString()).toBe("alpha\nomega");
    expect(baseContent(changes.get("gone.txt")!, undefined)?.toString()).toBe("gone\n");
    expect(baseContent(changes.get("turns-link.txt")!, Buffer.from("text.txt"))?.toString()).toBe("a file\n");
    // Content that does not hold the hunks, or rebuilds to another blob, gives nothing.
    expect(baseContent(changes.get("text.txt")!, Buffer.from("zero\none\nTWO\nthree\n"))).toBeUndefined();
    expect(baseContent(changes.get("text.txt")!, Buffer.from("zero\none\nTWO\nthree\nfour\nfive\n"))).toBeUndefined();
  });
});

describe("blobIdMatches", () => {
  const sha1 = (content: string) =>
    createHash("sha1")
      .update(`blob ${Buffer.byteLength(content)}\0${content}`)
      .digest("hex");
  const sha256 = (content: string) =>
    createHash("sha256")
      .update(`blob ${Buffer.byteLength(content)}\0${content}`)
      .digest("hex");

  it("matches full and abbreviated SHA-1 and SHA-256 ids, and nothing else", () => {
    const content = Buffer.from("hello\n");
    expect(sha1("hello\n")).toBe("ce013625030ba8dba906f756967f9e9ca394464a");
    expect(blobIdMatches(content, sha1("hello\n"))).toBe(true);
    expect(blobIdMatches(content, sha1("hello\n").slice(0, 7))).toBe(true);
    expect(blobIdMatches(content, sha256("hello\n"))).toBe(true);
    expect(blobIdMatches(content, sha256("hello\n").slice(0, 9))).toBe(true);
    expect(blobIdMatches(content, sha1("hello!\n"))).toBe(false);
    expect(blobIdMatches(content, sha1("hello!\n").slice(0, 7))).toBe(false);
  });
});

describe("undoHunks", () => {
  it("refuses content that does not hold a hunk's lines where it says", () => {
    const hunks = [
      {
        oldStart: 2,
        oldCount: 1,
        newStart: 2,
        newCount: 1,
        lines: [
          { kind: "-" as const, text: "b\n" },
          { kind: "+" as const, text: "B\n" },
        ],
      },
    ];
    expect(undoHunks(splitLines("a\nB\nc\n"), hunks)).toEqual(["a\n", "b\n", "c\n"]);
    expect(undoHunks(splitLines("a\nX\nc\n"), hunks)).toBeUndefined();
    expect(undoHunks(splitLines("a\n"), hunks)).toBeUndefined();
  });
});
