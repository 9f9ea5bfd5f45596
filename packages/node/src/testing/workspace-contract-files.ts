/** Contract cases: files, directories and error codes. */
import { posix } from "node:path";
import { expect, it } from "vitest";
import { type WorkspaceContractContext, expectWorkspaceError, patternBytes, readAll } from "./workspace-contract-support.js";

const MIB = 1024 * 1024;

/** Registers the file cases (whole and ranged reads, streams, big/empty/binary files, modes, exclusive create). */
export function fileCases(context: WorkspaceContractContext): void {
  it("files: writes a file and reads it whole and by range", async () => {
    const { workspace, scratch } = await context.open();
    const file = posix.join(scratch, "hello.txt");
    await workspace.fs.writeFileAtomic(file, Buffer.from("hello world"));
    expect((await workspace.fs.readFile(file)).toString("utf8")).toBe("hello world");
    expect((await workspace.fs.readFile(file, { start: 6 })).toString("utf8")).toBe("world");
    expect((await workspace.fs.readFile(file, { start: 0, end: 5 })).toString("utf8")).toBe("hello");
    expect((await workspace.fs.readFile(file, { start: 3, end: 8 })).toString("utf8")).toBe("lo wo");
    const stats = await workspace.fs.stat(file);
    expect(stats.type).toBe("file");
    expect(stats.size).toBe(11);
    expect(stats.mtimeMs).toBeGreaterThan(0);
  });

  it("files: readStream chunks of an 8 MiB file concatenate to the file, whole and by range", async () => {
    const { workspace, scratch } = await context.open();
    const file = posix.join(scratch, "big.bin");
    const bytes = patternBytes(8 * MIB);
    await workspace.fs.writeFileAtomic(file, bytes);
    expect((await workspace.fs.stat(file)).size).toBe(bytes.length);
    expect((await workspace.fs.readFile(file)).equals(bytes)).toBe(true);
    const whole = await readAll(workspace.fs.readStream(file));
    expect(whole.data.length).toBe(bytes.length);
    expect(whole.data.equals(bytes)).toBe(true);
    expect(whole.chunks).toBeGreaterThan(1);
    const part = await readAll(workspace.fs.readStream(file, { start: 1_000_003, end: 5_000_011 }));
    expect(part.data.equals(bytes.subarray(1_000_003, 5_000_011))).toBe(true);
    expect((await workspace.fs.readFile(file, { start: 7 * MIB, end: 7 * MIB + 10 })).equals(bytes.subarray(7 * MIB, 7 * MIB + 10))).toBe(true);
  });

  it("files: an empty file has size 0 and reads as no bytes", async () => {
    const { workspace, scratch } = await context.open();
    const file = posix.join(scratch, "empty");
    await workspace.fs.writeFileAtomic(file, new Uint8Array(0));
    expect((await workspace.fs.stat(file)).size).toBe(0);
    expect((await workspace.fs.readFile(file)).length).toBe(0);
    expect((await readAll(workspace.fs.readStream(file))).data.length).toBe(0);
  });

  it("files: binary bytes (every byte value, invalid UTF-8) round-trip exactly, also from an async iterable", async () => {
    const { workspace, scratch } = await context.open();
    const bytes = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, index) => index)), Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28, 0x0d, 0x0a])]);
    const file = posix.join(scratch, "binary.bin");
    await workspace.fs.writeFileAtomic(file, bytes);
    expect((await workspace.fs.readFile(file)).equals(bytes)).toBe(true);
    const streamed = posix.join(scratch, "streamed.bin");
    async function* pieces() {
      for (let offset = 0; offset < bytes.length; offset += 17) yield new Uint8Array(bytes.subarray(offset, offset + 17));
    }
    await workspace.fs.writeFileAtomic(streamed, pieces());
    expect((await workspace.fs.readFile(streamed)).equals(bytes)).toBe(true);
  });

  it("files: a replace keeps the mode of the file it replaces; a given mode wins; a new file is not executable", async () => {
    const { workspace, scratch } = await context.open();
    const file = posix.join(scratch, "mode.txt");
    await workspace.fs.writeFileAtomic(file, Buffer.from("v1"));
    const fresh = (await workspace.fs.stat(file)).mode;
    expect(fresh & 0o111).toBe(0);
    expect(fresh & 0o600).toBe(0o600);
    await workspace.fs.writeFileAtomic(file, Buffer.from("v2"), { mode: 0o600 });
    expect((await workspace.fs.stat(file)).mode & 0o7777).toBe(0o600);
    await workspace.fs.writeFileAtomic(file, Buffer.from("v3"));
    expect((await workspace.fs.stat(file)).mode & 0o7777).toBe(0o600);
    expect((await workspace.fs.readFile(file)).toString()).toBe("v3");
    await workspace.fs.writeFileAtomic(file, Buffer.from("v4"), { mode: 0o750 });
    expect((await workspace.fs.stat(file)).mode & 0o7777).toBe(0o750);
  });

  it("files: names with spaces, quotes, a newline and non-ASCII characters round-trip through readdir and reads", async () => {
    const { workspace, scratch } = await context.open();
    const names = ["with space.txt", "quote'and\"double.txt", "ünïcödé 文件.md", "line\nbreak", "-leading-dash", "$HOME;`x`"];
    for (const [index, name] of names.entries()) await workspace.fs.writeFileAtomic(posix.join(scratch, name), Buffer.from(`content ${index}`));
    expect((await workspace.fs.readdir(scratch)).map((entry) => entry.name).sort()).toEqual([...names].sort());
    for (const [index, name] of names.entries()) expect((await workspace.fs.readFile(posix.join(scratch, name))).toString()).toBe(`content ${index}`);
  });

  it("files: an aborted signal stops readFile and readStream with an AbortError", async () => {
    const { workspace, scratch } = await context.open();
    const file = posix.join(scratch, "abortable.bin");
    await workspace.fs.writeFileAtomic(file, patternBytes(2 * MIB));
    const aborted = new AbortController();
    aborted.abort();
    await expect(workspace.fs.readFile(file, { signal: aborted.signal })).rejects.toMatchObject({ name: "AbortError" });
    const midway = new AbortController();
    const outcome = await (async () => {
      let bytes = 0;
      for await (const chunk of workspace.fs.readStream(file, { signal: midway.signal })) {
        bytes += chunk.length;
        midway.abort();
      }
      return `read all ${bytes} bytes`;
    })().then(
      (text) => text,
      (error: unknown) => (error as Error).name,
    );
    expect(outcome).toBe("AbortError");
  });

  it("files: exclusive create refuses an existing file and leaves it as it was", async () => {
    const { workspace, scratch } = await context.open();
    const file = posix.join(scratch, "once.txt");
    await workspace.fs.writeFileAtomic(file, Buffer.from("first"), { exclusive: true });
    await expectWorkspaceError(() => workspace.fs.writeFileAtomic(file, Buffer.from("second"), { exclusive: true }), "exists");
    expect((await workspace.fs.readFile(file)).toString()).toBe("first");
    expect((await workspace.fs.readdir(scratch)).map((entry) => entry.name)).toEqual(["once.txt"]);
  });
}

/** Registers the directory cases (mkdir, readdir, rmdir, rename, unlink). */
export function directoryCases(context: WorkspaceContractContext): void {
  it("directories: mkdir recursive creates the parents and accepts an existing directory; plain mkdir does not", async () => {
    const { workspace, scratch } = await context.open();
    const deep = posix.join(scratch, "a/b/c");
    await workspace.fs.mkdir(deep, { recursive: true });
    expect((await workspace.fs.stat(deep)).type).toBe("directory");
    await workspace.fs.mkdir(deep, { recursive: true });
    await expectWorkspaceError(() => workspace.fs.mkdir(deep), "exists");
    await expectWorkspaceError(() => workspace.fs.mkdir(posix.join(scratch, "missing/child")), "not_found");
    await workspace.fs.mkdir(posix.join(scratch, "a/plain"));
    expect((await workspace.fs.readdir(posix.join(scratch, "a"))).map((entry) => entry.name).sort()).toEqual(["b", "plain"]);
  });

  it("directories: readdir reports files, directories and symlinks (not followed), without . and ..", async () => {
    const { workspace, scratch } = await context.open();
    await workspace.fs.mkdir(posix.join(scratch, "dir"));
    await workspace.fs.writeFileAtomic(posix.join(scratch, "file.txt"), Buffer.from("x"));
    await context.symlink(workspace, "dir", posix.join(scratch, "link-to-dir"));
    await context.symlink(workspace, "file.txt", posix.join(scratch, "link-to-file"));
    await context.symlink(workspace, "nowhere", posix.join(scratch, "dangling"));
    const entries = (await workspace.fs.readdir(scratch)).map((entry) => `${entry.name}:${entry.type}`).sort();
    expect(entries).toEqual(["dangling:symlink", "dir:directory", "file.txt:file", "link-to-dir:symlink", "link-to-file:symlink"]);
    expect(await workspace.fs.readdir(posix.join(scratch, "dir"))).toEqual([]);
  });

  it("directories: rmdir removes an empty directory and refuses a non-empty one (not_empty) or a file (not_a_directory)", async () => {
    const { workspace, scratch } = await context.open();
    const full = posix.join(scratch, "full");
    await workspace.fs.mkdir(full);
    await workspace.fs.writeFileAtomic(posix.join(full, "inside"), Buffer.from("x"));
    await expectWorkspaceError(() => workspace.fs.rmdir(full), "not_empty");
    expect((await workspace.fs.readFile(posix.join(full, "inside"))).toString()).toBe("x");
    await expectWorkspaceError(() => workspace.fs.rmdir(posix.join(full, "inside")), "not_a_directory");
    await workspace.fs.unlink(posix.join(full, "inside"));
    await workspace.fs.rmdir(full);
    await expectWorkspaceError(() => workspace.fs.stat(full), "not_found");
  });

  it("directories: rename moves a file over another file, and moves a directory", async () => {
    const { workspace, scratch } = await context.open();
    const from = posix.join(scratch, "from.txt");
    const to = posix.join(scratch, "to.txt");
    await workspace.fs.writeFileAtomic(from, Buffer.from("new"));
    await workspace.fs.writeFileAtomic(to, Buffer.from("old"));
    await workspace.fs.rename(from, to);
    expect((await workspace.fs.readFile(to)).toString()).toBe("new");
    await expectWorkspaceError(() => workspace.fs.stat(from), "not_found");
    await workspace.fs.mkdir(posix.join(scratch, "d1"));
    await workspace.fs.writeFileAtomic(posix.join(scratch, "d1/f"), Buffer.from("in d1"));
    await workspace.fs.rename(posix.join(scratch, "d1"), posix.join(scratch, "d2"));
    expect((await workspace.fs.readFile(posix.join(scratch, "d2/f"))).toString()).toBe("in d1");
    await expectWorkspaceError(() => workspace.fs.rename(posix.join(scratch, "gone"), posix.join(scratch, "x")), "not_found");
    expect((await workspace.fs.readdir(scratch)).map((entry) => entry.name).sort()).toEqual(["d2", "to.txt"]);
  });

  it("directories: unlink removes a file or a symlink (never its target) and refuses a directory (is_a_directory)", async () => {
    const { workspace, scratch } = await context.open();
    const file = posix.join(scratch, "target.txt");
    await workspace.fs.writeFileAtomic(file, Buffer.from("kept"));
    await context.symlink(workspace, "target.txt", posix.join(scratch, "link"));
    await workspace.fs.unlink(posix.join(scratch, "link"));
    expect((await workspace.fs.readFile(file)).toString()).toBe("kept");
    await expectWorkspaceError(() => workspace.fs.lstat(posix.join(scratch, "link")), "not_found");
    await workspace.fs.mkdir(posix.join(scratch, "dir"));
    await expectWorkspaceError(() => workspace.fs.unlink(posix.join(scratch, "dir")), "is_a_directory");
    await workspace.fs.unlink(file);
    await expectWorkspaceError(() => workspace.fs.unlink(file), "not_found");
  });
}

/** Registers the error-code cases. */
export function errorCases(context: WorkspaceContractContext): void {
  it("errors: not_found, not_a_directory, is_a_directory and exists come as WorkspaceError codes", async () => {
    const { workspace, scratch } = await context.open();
    const file = posix.join(scratch, "file.txt");
    await workspace.fs.writeFileAtomic(file, Buffer.from("x"));
    await workspace.fs.mkdir(posix.join(scratch, "dir"));
    await expectWorkspaceError(() => workspace.fs.readFile(posix.join(scratch, "missing.txt")), "not_found");
    await expectWorkspaceError(() => workspace.fs.stat(posix.join(scratch, "missing.txt")), "not_found");
    await expectWorkspaceError(() => workspace.fs.readdir(posix.join(scratch, "missing")), "not_found");
    await expectWorkspaceError(() => workspace.fs.writeFileAtomic(posix.join(scratch, "missing/x.txt"), Buffer.from("x")), "not_found");
    await expectWorkspaceError(() => workspace.fs.stat(posix.join(file, "child")), "not_a_directory");
    await expectWorkspaceError(() => workspace.fs.readdir(file), "not_a_directory");
    await expectWorkspaceError(() => workspace.fs.writeFileAtomic(posix.join(file, "child"), Buffer.from("x")), "not_a_directory");
    await expectWorkspaceError(() => workspace.fs.readFile(posix.join(scratch, "dir")), "is_a_directory");
    await expectWorkspaceError(() => workspace.fs.writeFileAtomic(posix.join(scratch, "dir"), Buffer.from("x")), "is_a_directory");
    await expectWorkspaceError(() => workspace.fs.mkdir(file), "exists");
    await expectWorkspaceError(() => workspace.fs.mkdir(posix.join(scratch, "dir")), "exists");
    expect((await workspace.fs.readdir(scratch)).map((entry) => entry.name).sort()).toEqual(["dir", "file.txt"]);
  });
}
