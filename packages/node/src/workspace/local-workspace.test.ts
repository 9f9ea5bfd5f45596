import { execFileSync } from "node:child_process";
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SdkError } from "@agent-tools/core";
import type { Workspace } from "@agent-tools/core/workspace";
import { createLocalWorkspace } from "../index.js";
import { expectCode, rejection, sidecars } from "./__fixtures__/test-helpers.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");

let dir: string;
const opened: Workspace[] = [];
const open = async (root = dir) => {
  const workspace = await createLocalWorkspace({ root });
  opened.push(workspace);
  return workspace;
};

beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), "local-workspace-")));
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((workspace) => workspace.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe("createLocalWorkspace: options", () => {
  it("refuses an unknown option, a relative, missing or non-directory root, and a bad processRunner, naming them", async () => {
    const unknown = await rejection(() => createLocalWorkspace({ root: dir, rot: dir } as never));
    expect(unknown).toBeInstanceOf(SdkError);
    expect((unknown as SdkError).code).toBe("invalid_options");
    expect((unknown as Error).message).toMatch(/unknown option "rot".*root and processRunner/);
    const relative = await rejection(() => createLocalWorkspace({ root: "some/dir" }));
    expect((relative as SdkError).code).toBe("invalid_options");
    expect((relative as Error).message).toMatch(/"some\/dir".*path\.resolve/);
    const missing = path.join(dir, "missing");
    const gone = await rejection(() => createLocalWorkspace({ root: missing }));
    expect((gone as SdkError).code).toBe("invalid_options");
    expect((gone as Error).message).toContain(missing);
    writeFileSync(path.join(dir, "file"), "x");
    const file = await rejection(() => createLocalWorkspace({ root: path.join(dir, "file") }));
    expect((file as SdkError).code).toBe("invalid_options");
    expect((file as Error).message).toContain("is not a directory");
    const runner = await rejection(() => createLocalWorkspace({ root: dir, processRunner: {} as never }));
    expect((runner as Error).message).toContain("processRunner");
  });

  it("canonicalises the root and reports kind, label and capabilities", async () => {
    mkdirSync(path.join(dir, "real"));
    symlinkSync(path.join(dir, "real"), path.join(dir, "link"));
    const workspace = await open(path.join(dir, "link"));
    expect(workspace.kind).toBe("local");
    expect(workspace.root).toBe(path.join(dir, "real"));
    expect(workspace.label).toBe(`file://${path.join(dir, "real")}`);
    expect(workspace.capabilities).toMatchObject({ localPaths: true, processes: true, pty: false, git: true });
    expect(workspace.capabilities.anchoredOpens).toBe(process.platform === "linux");
  });
});

describe("createLocalWorkspace: ripgrep and git detection", () => {
  const fixtureDirectory = path.join(repositoryRoot, "packages/node");
  /** The capabilities a host process sees with this PATH (no NODE_PATH) running in `workingDirectory`. */
  const capabilitiesWith = (searchPath: string, workingDirectory: string) => {
    const environment: NodeJS.ProcessEnv = { ...process.env, PATH: searchPath };
    delete environment.NODE_PATH;
    const output = execFileSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "--conditions=@agent-tools/source",
        path.join(fixtureDirectory, "src/workspace/__fixtures__/print-capabilities.ts"),
        dir,
        workingDirectory,
      ],
      { cwd: fixtureDirectory, env: environment, encoding: "utf8" },
    );
    return JSON.parse(output.trim()) as Workspace["capabilities"];
  };

  it("finds rg on PATH, @vscode/ripgrep where the host installed it, git on PATH, and reports false with neither", () => {
    const bin = path.join(dir, "bin");
    mkdirSync(bin);
    expect(capabilitiesWith(bin, dir)).toMatchObject({ ripgrep: false, git: false });
    writeFileSync(path.join(bin, "rg"), "#!/bin/sh\n");
    writeFileSync(path.join(bin, "git"), "#!/bin/sh\n");
    expect(capabilitiesWith(bin, dir)).toMatchObject({ ripgrep: false, git: false }); // not executable
    chmodSync(path.join(bin, "rg"), 0o755);
    chmodSync(path.join(bin, "git"), 0o755);
    expect(capabilitiesWith(`relative:${bin}`, dir)).toMatchObject({ ripgrep: true, git: true });
    // An application that depends on @vscode/ripgrep (tools-fs here) runs from its own folder.
    expect(capabilitiesWith(path.join(dir, "empty"), path.join(repositoryRoot, "packages/tools-fs"))).toMatchObject({ ripgrep: true, git: false });
  });
});

describe("createLocalWorkspace: file system", () => {
  it("writes atomically: new files get 0o644 minus the umask, a replaced file keeps its mode, no sidecar is left", async () => {
    const { fs } = await open();
    const file = path.join(dir, "a.txt");
    await fs.writeFileAtomic(file, Buffer.from("one\n"));
    expect(readFileSync(file, "utf8")).toBe("one\n");
    expect(statSync(file).mode & 0o7777).toBe(0o644 & ~process.umask());
    chmodSync(file, 0o600);
    await fs.writeFileAtomic(file, new Uint8Array(Buffer.from("two\n")));
    expect(readFileSync(file, "utf8")).toBe("two\n");
    expect(statSync(file).mode & 0o7777).toBe(0o600);
    await fs.writeFileAtomic(file, Buffer.from("three\n"), { mode: 0o640 });
    expect(statSync(file).mode & 0o7777).toBe(0o640);
    await fs.writeFileAtomic(path.join(dir, "empty"), Buffer.alloc(0));
    expect(readFileSync(path.join(dir, "empty")).length).toBe(0);
    expect(sidecars(dir)).toEqual([]);
  });

  it("replaces a symlink at the path instead of writing through it", async () => {
    const { fs } = await open();
    const outside = mkdtempSync(path.join(tmpdir(), "local-workspace-outside-"));
    try {
      writeFileSync(path.join(outside, "target.txt"), "outside\n");
      symlinkSync(path.join(outside, "target.txt"), path.join(dir, "link.txt"));
      await fs.writeFileAtomic(path.join(dir, "link.txt"), Buffer.from("inside\n"));
      expect(readFileSync(path.join(outside, "target.txt"), "utf8")).toBe("outside\n");
      expect(lstatSync(path.join(dir, "link.txt")).isFile()).toBe(true);
      expect(readFileSync(path.join(dir, "link.txt"), "utf8")).toBe("inside\n");
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("a write or lock below the root never leaves it through a symlinked directory; one inside the root is followed", async () => {
    const { fs } = await open();
    const outside = mkdtempSync(path.join(tmpdir(), "local-workspace-outside-"));
    try {
      symlinkSync(outside, path.join(dir, "escape"));
      const refused = await expectCode(() => fs.writeFileAtomic(path.join(dir, "escape/planted.txt"), Buffer.from("x")), "out_of_bounds");
      expect(refused.message).toContain(outside);
      await expectCode(() => fs.lock(path.join(dir, "escape/planted.txt")), "out_of_bounds");
      writeFileSync(path.join(outside, "victim.txt"), "keep");
      writeFileSync(path.join(dir, "mine.txt"), "mine");
      await expectCode(() => fs.unlink(path.join(dir, "escape/victim.txt")), "out_of_bounds");
      await expectCode(() => fs.rename(path.join(dir, "escape/victim.txt"), path.join(dir, "stolen.txt")), "out_of_bounds");
      await expectCode(() => fs.rename(path.join(dir, "mine.txt"), path.join(dir, "escape/victim.txt")), "out_of_bounds");
      await expectCode(() => fs.mkdir(path.join(dir, "escape/made")), "out_of_bounds");
      await expectCode(() => fs.mkdir(path.join(dir, "escape/made/deeper"), { recursive: true }), "out_of_bounds");
      mkdirSync(path.join(outside, "empty"));
      await expectCode(() => fs.rmdir(path.join(dir, "escape/empty")), "out_of_bounds");
      expect(readdirSync(outside).sort()).toEqual(["empty", "victim.txt"]);
      expect(readFileSync(path.join(outside, "victim.txt"), "utf8")).toBe("keep");
      rmSync(path.join(outside, "empty"), { recursive: true });
      rmSync(path.join(outside, "victim.txt"));
      mkdirSync(path.join(dir, "real"));
      symlinkSync("real", path.join(dir, "alias"));
      await fs.writeFileAtomic(path.join(dir, "alias/inside.txt"), Buffer.from("in"));
      expect(readFileSync(path.join(dir, "real/inside.txt"), "utf8")).toBe("in");
      await (await fs.lock(path.join(dir, "alias/inside.txt"))).release();
      await fs.mkdir(path.join(dir, "alias/x/y"), { recursive: true });
      await fs.rename(path.join(dir, "alias/inside.txt"), path.join(dir, "alias/x/y/moved.txt"));
      expect(readFileSync(path.join(dir, "real/x/y/moved.txt"), "utf8")).toBe("in");
      await fs.unlink(path.join(dir, "alias/x/y/moved.txt"));
      await fs.rmdir(path.join(dir, "alias/x/y"));
      expect(readdirSync(path.join(dir, "real"))).toEqual(["x"]);
      await fs.mkdir(path.join(dir, "alias"), { recursive: true }); // a link to a directory is one, as for mkdir -p
      await expectCode(() => fs.mkdir(path.join(dir, "mine.txt"), { recursive: true }), "exists");
      await expectCode(() => fs.mkdir(path.join(dir, "mine.txt/sub"), { recursive: true }), "not_a_directory");
      // A path the caller gives outside the root is the caller's business (the port checks no containment).
      await fs.writeFileAtomic(path.join(outside, "direct.txt"), Buffer.from("out"));
      expect(readFileSync(path.join(outside, "direct.txt"), "utf8")).toBe("out");
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("exclusive writes refuse anything already there (a dangling symlink too) and create a missing file", async () => {
    const { fs } = await open();
    writeFileSync(path.join(dir, "taken"), "old");
    await expectCode(() => fs.writeFileAtomic(path.join(dir, "taken"), Buffer.from("new"), { exclusive: true }), "exists");
    expect(readFileSync(path.join(dir, "taken"), "utf8")).toBe("old");
    symlinkSync(path.join(dir, "nowhere"), path.join(dir, "dangling"));
    await expectCode(() => fs.writeFileAtomic(path.join(dir, "dangling"), Buffer.from("new"), { exclusive: true }), "exists");
    expect(() => statSync(path.join(dir, "nowhere"))).toThrow();
    await fs.writeFileAtomic(path.join(dir, "fresh"), Buffer.from("made"), { exclusive: true, mode: 0o600 });
    expect(readFileSync(path.join(dir, "fresh"), "utf8")).toBe("made");
    expect(statSync(path.join(dir, "fresh")).mode & 0o7777).toBe(0o600);
    // Two exclusive writers racing: exactly one wins.
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, index) => fs.writeFileAtomic(path.join(dir, "race"), Buffer.from(`w${index}`), { exclusive: true })),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(sidecars(dir)).toEqual([]);
  });

  it("writes a stream of chunks as they arrive; an abort before the commit leaves the old file and no temporary file", async () => {
    const { fs } = await open();
    const file = path.join(dir, "streamed");
    async function* chunks() {
      for (let index = 0; index < 100; index += 1) yield Buffer.from(`${index}\n`);
    }
    await fs.writeFileAtomic(file, chunks());
    expect(readFileSync(file, "utf8").split("\n")).toHaveLength(101);
    const controller = new AbortController();
    async function* abortedHalfway() {
      yield Buffer.from("partial");
      controller.abort();
      yield Buffer.from("more");
    }
    const error = await rejection(() => fs.writeFileAtomic(file, abortedHalfway(), { signal: controller.signal }));
    expect((error as Error).name).toBe("AbortError");
    expect(readFileSync(file, "utf8").startsWith("0\n1\n")).toBe(true);
    expect(sidecars(dir)).toEqual([]);
    // A stream is written as it arrives (not gathered in memory first): the temporary file holds the first chunk while the second is produced.
    const chunk = Buffer.alloc(3 * 1024 * 1024, 120);
    const seen: number[] = [];
    async function* big() {
      yield chunk;
      seen.push(...sidecars(dir).map((name) => statSync(path.join(dir, name)).size));
      yield chunk;
    }
    await fs.writeFileAtomic(path.join(dir, "big"), big(), { exclusive: true });
    expect(seen).toEqual([chunk.length]);
    expect(statSync(path.join(dir, "big")).size).toBe(2 * chunk.length);
    await expectCode(() => fs.writeFileAtomic(path.join(dir, "big"), big(), { exclusive: true }), "exists");
    expect(sidecars(dir)).toEqual([]);
  });

  it("maps failures onto WorkspaceError codes", async () => {
    const { fs } = await open();
    mkdirSync(path.join(dir, "sub"));
    writeFileSync(path.join(dir, "sub/file"), "x");
    await expectCode(() => fs.stat(path.join(dir, "missing")), "not_found");
    await expectCode(() => fs.writeFileAtomic(path.join(dir, "missing/file"), Buffer.from("x")), "not_found");
    await expectCode(() => fs.writeFileAtomic(path.join(dir, "sub"), Buffer.from("x")), "is_a_directory");
    await expectCode(() => fs.readFile(path.join(dir, "sub")), "is_a_directory");
    await expectCode(() => fs.readdir(path.join(dir, "sub/file")), "not_a_directory");
    await expectCode(() => fs.rmdir(path.join(dir, "sub")), "not_empty");
    await expectCode(() => fs.mkdir(path.join(dir, "sub")), "exists");
    await expectCode(() => fs.unlink(path.join(dir, "sub")), "is_a_directory");
    await expectCode(() => fs.readlink(path.join(dir, "sub/file")), "io");
    symlinkSync("loop", path.join(dir, "loop"));
    await expectCode(() => fs.stat(path.join(dir, "loop")), "symlink_loop");
  });

  it("reads ranges, streams them, lists, stats and moves entries", async () => {
    const { fs } = await open();
    const bytes = Buffer.alloc(1_000_000);
    for (let index = 0; index < bytes.length; index += 1) bytes[index] = index % 251;
    writeFileSync(path.join(dir, "data"), bytes);
    expect((await fs.readFile(path.join(dir, "data"))).equals(bytes)).toBe(true);
    expect((await fs.readFile(path.join(dir, "data"), { start: 10, end: 20 })).equals(bytes.subarray(10, 20))).toBe(true);
    expect((await fs.readFile(path.join(dir, "data"), { start: 999_990, end: 2_000_000 })).equals(bytes.subarray(999_990))).toBe(true);
    const parts: Buffer[] = [];
    for await (const chunk of fs.readStream(path.join(dir, "data"), { start: 5 })) parts.push(chunk);
    expect(parts.length).toBeGreaterThan(1);
    expect(Buffer.concat(parts).equals(bytes.subarray(5))).toBe(true);
    symlinkSync("data", path.join(dir, "alias"));
    mkdirSync(path.join(dir, "folder"));
    const entries = (await fs.readdir(dir)).sort((a, b) => a.name.localeCompare(b.name));
    expect(entries).toEqual([
      { name: "alias", type: "symlink" },
      { name: "data", type: "file" },
      { name: "folder", type: "directory" },
    ]);
    expect(await fs.lstat(path.join(dir, "alias"))).toMatchObject({ type: "symlink", size: 4 });
    expect(await fs.stat(path.join(dir, "alias"))).toMatchObject({ type: "file", size: 1_000_000, mode: 0o644 & ~process.umask() });
    expect(await fs.readlink(path.join(dir, "alias"))).toBe("data");
    expect(await fs.realpath(path.join(dir, "alias"))).toBe(path.join(dir, "data"));
    await fs.mkdir(path.join(dir, "a/b/c"), { recursive: true });
    await fs.mkdir(path.join(dir, "a/b/c"), { recursive: true });
    await fs.rename(path.join(dir, "data"), path.join(dir, "a/b/c/moved"));
    await fs.unlink(path.join(dir, "alias"));
    await fs.rmdir(path.join(dir, "folder"));
    expect(readdirSync(dir).sort()).toEqual(["a"]);
    expect(statSync(path.join(dir, "a/b/c/moved")).size).toBe(1_000_000);
  });

  it("stops a stream on abort with an AbortError, and refuses a FIFO instead of hanging", async () => {
    const { fs } = await open();
    writeFileSync(path.join(dir, "big"), Buffer.alloc(4 * 1024 * 1024, 1));
    const controller = new AbortController();
    let chunks = 0;
    const error = await rejection(async () => {
      for await (const _chunk of fs.readStream(path.join(dir, "big"), { signal: controller.signal })) {
        chunks += 1;
        controller.abort();
      }
    });
    expect(chunks).toBe(1);
    expect((error as Error).name).toBe("AbortError");
    execFileSync("mkfifo", [path.join(dir, "fifo")]);
    await expectCode(() => fs.readFile(path.join(dir, "fifo")), "unsupported");
  });
});
