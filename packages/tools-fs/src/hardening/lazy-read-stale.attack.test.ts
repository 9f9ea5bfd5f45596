/**
 * Attacks on the lazy Read of a large file (issue 34): the first page is read
 * without the rest of the file and the version's hash comes later from the
 * bundle's hashing worker. Every case here changes the file on disk between
 * or during tool calls (in process, through a FileHandle hook, or from a
 * separate writer process) and checks that Write and Edit still refuse with
 * `stale_file`, that a re-Read never answers a changed range with the
 * "unchanged" stub, and that Read does not mis-state the file. Same-size
 * changes set the mtime back to a round value with utimes, so only the ctime
 * (which no program can set back) tells them apart.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync, renameSync, statSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import {
  BIG_LINES,
  HAS_PYTHON,
  LINE_BYTES,
  ROUND_MTIME,
  changeInPlace,
  digitOffset,
  identityOf,
  readChars,
  rows,
  startMappedWriter,
  startWriter,
  withHandleHook,
} from "../__fixtures__/lazy-read-attack.js";
import { createTestWorkspace, type TestWorkspace } from "../__fixtures__/workspace.js";
import { MAX_FILE_HASHES_IN_FLIGHT } from "../fast-io/hash-worker.js";
import { contentHash } from "../shared/content-hash.js";
import { FileToolState } from "../shared/file-state.js";

let ws: TestWorkspace | undefined;
let writer: ChildProcessWithoutNullStreams | undefined;
afterEach(() => {
  writer?.kill();
  writer = undefined;
  ws?.cleanup();
  ws = undefined;
});

/** A workspace with `names` (each {@link BIG_LINES} lines, mtime {@link ROUND_MTIME}); returns the registry's state and the paths. */
function bigFiles(names: readonly string[] = ["big.log"]): { state: FileToolState; paths: string[] } {
  const state = new FileToolState();
  const content = rows(BIG_LINES);
  ws = createTestWorkspace(Object.fromEntries(names.map((name) => [name, content])), { state });
  const paths = names.map((name) => `${ws!.dir}/${name}`);
  for (const file of paths) utimesSync(file, ROUND_MTIME, ROUND_MTIME);
  return { state, paths };
}

/** Waits until the background hash of the latest Read of `file` settled; returns the hash recorded then. */
async function settled(state: FileToolState, file: string): Promise<string> {
  const latest = state.getLatest(file)!;
  await state.getPendingHash(file, latest)?.promise.catch(() => undefined);
  return state.getLatest(file)!.contentHash;
}

/** Edit of big.log: the end of line `line` (the model's Read showed it). */
const edit = (line: number) =>
  ws!.call("Edit", {
    path: "big.log",
    old_string: `of the big log file\nrow ${String(line + 1).padStart(7, "0")}`,
    new_string: `OF THE BIG LOG FILE\nrow ${String(line + 1).padStart(7, "0")}`,
  });

/** A Read of big.log with `hook` run once after the first `method` call on its descriptor. */
async function hookedRead(method: "stat" | "read", hook: () => void, input: Record<string, unknown>) {
  const file = `${ws!.dir}/big.log`;
  const { result, fired } = await withHandleHook({ method, ino: statSync(file).ino }, hook, () => ws!.call("Read", { path: "big.log", ...input }));
  expect(fired).toBe(true);
  return result;
}

describe("a change after a partial Read of a large file is caught", () => {
  it("outside the window (last line), before and after the hash arrives", async () => {
    const { state, paths } = bigFiles();
    const [file] = paths as [string];
    await ws!.call("Read", { path: "big.log" });
    changeInPlace(file, digitOffset(BIG_LINES));
    expect((await edit(50)).details).toMatchObject({ code: "stale_file" });

    await ws!.call("Read", { path: "big.log" });
    expect(await settled(state, file)).toBe(contentHash(readFileSync(file)));
    changeInPlace(file, digitOffset(BIG_LINES - 1));
    expect((await edit(50)).details).toMatchObject({ code: "stale_file" });
  });

  it("a truncate-and-rewrite of the same size (one byte past the window differs), before and after the hash", async () => {
    const { state, paths } = bigFiles();
    const [file] = paths as [string];
    for (const waitForHash of [false, true]) {
      await ws!.call("Read", { path: "big.log", limit: 100 });
      if (waitForHash) await settled(state, file);
      const bytes = readFileSync(file);
      bytes[digitOffset(20_000)] = bytes[digitOffset(20_000)] === 0x37 ? 0x38 : 0x37;
      writeFileSync(file, bytes); // O_TRUNC, then the new bytes
      utimesSync(file, ROUND_MTIME, ROUND_MTIME);
      expect((await edit(50)).details).toMatchObject({ code: "stale_file" });
    }
  });

  it("a replace by rename with a same-size file: the Read's hash is the old inode's, the Edit is refused", async () => {
    const { state, paths } = bigFiles();
    const [file] = paths as [string];
    const before = readFileSync(file);
    await ws!.call("Read", { path: "big.log" });
    const changed = Buffer.from(before);
    changed[digitOffset(30_000)] = 0x37;
    writeFileSync(`${file}.tmp`, changed);
    utimesSync(`${file}.tmp`, ROUND_MTIME, ROUND_MTIME);
    renameSync(`${file}.tmp`, file); // the Read's descriptor still reads the old inode, whose ctime the unlink changed
    const hash = await settled(state, file);
    expect([contentHash(before), ""]).toContain(hash); // never the new file's
    expect(hash).not.toBe(contentHash(changed));
    expect((await edit(50)).details).toMatchObject({ code: "stale_file" });
  });

  it("a Write after the tools' own Edit of a large file and a same-size change on disk", async () => {
    const { paths } = bigFiles();
    const [file] = paths as [string];
    await ws!.call("Read", { path: "big.log" });
    const edited = await edit(10);
    expect(edited.isError, edited.text).toBe(false);
    changeInPlace(file, digitOffset(30_000));
    const write = await ws!.call("Write", { path: "big.log", content: "replaced\n" });
    expect(write.isError).toBe(true);
    expect(write.details).toMatchObject({ code: "stale_file" });
    expect(readFileSync(file, "utf8").startsWith("row 0000001")).toBe(true);
  });

  it("a Write after a partial Read of a changed large file never overwrites it", async () => {
    const { paths } = bigFiles();
    const [file] = paths as [string];
    await ws!.call("Read", { path: "big.log" });
    changeInPlace(file, digitOffset(5));
    const write = await ws!.call("Write", { path: "big.log", content: "replaced\n" });
    expect(write.isError).toBe(true);
    expect(["stale_file", "requires_full_read"]).toContain((write.details as { code: string }).code);
    expect(statSync(file).size).toBe(BIG_LINES * LINE_BYTES);
  });

  it(`a Read beyond the ${MAX_FILE_HASHES_IN_FLIGHT} files hashed at once: recorded without a hash, a same-size change is refused`, async () => {
    const names = Array.from({ length: MAX_FILE_HASHES_IN_FLIGHT + 1 }, (_, index) => `f${index}.log`);
    const { state, paths } = bigFiles(names);
    // The first 8 get a 64 MB sparse tail, so their hashes are still running when the 9th is read.
    for (const file of paths.slice(0, -1)) {
      truncateSync(file, 64 * 1024 * 1024);
      utimesSync(file, ROUND_MTIME, ROUND_MTIME);
    }
    await Promise.all(names.map((name) => ws!.call("Read", { path: name, limit: 5 })));
    const last = paths.at(-1)!;
    const refused = state.getPendingHash(last, state.getLatest(last)!) === undefined;
    // Under a very slow machine one of the 8 could finish first; then the 9th is hashed: the Edit is refused either way.
    if (refused) expect(state.getLatest(last)!.contentHash).toBe("");
    changeInPlace(last, digitOffset(3000));
    const result = await ws!.call("Edit", { path: names.at(-1)!, old_string: "row 0000020 of", new_string: "ROW 20 of" });
    expect(result.details).toMatchObject({ code: "stale_file" });
  });
});

describe("Delete after a Read", () => {
  // Delete has no staleness check at all, for any file and since before issue 34 ("Delete forgets the file",
  // docs/tools-fs.md): it deletes a file that changed on disk after the model's Read. Not a lazy-Read regression;
  // kept as an expected failure because the guarantee lists Delete.
  it.fails("refuses with stale_file when the file changed on disk after the Read", async () => {
    const { paths } = bigFiles();
    const [file] = paths as [string];
    await ws!.call("Read", { path: "big.log" });
    changeInPlace(file, digitOffset(30_000));
    const result = await ws!.call("Delete", { path: "big.log" });
    expect(result.details).toMatchObject({ code: "stale_file" }); // observed: "Deleted file: big.log"
  });
});

describe("a change during the Read or its background hash", () => {
  it("between the Read's stat and its window read: the window shows the new bytes, the Edit is refused", async () => {
    const { state, paths } = bigFiles();
    const [file] = paths as [string];
    const read = await hookedRead("stat", () => changeInPlace(file, digitOffset(3)), { limit: 5 });
    expect(read.text).toMatch(/ {5}3\trow 000000[78] of/); // the bytes read are the new version's
    expect(await settled(state, file)).toBe(""); // the hash under the stat's identity is unknown
    expect((await edit(2)).details).toMatchObject({ code: "stale_file" });
  });

  it("between the Read's window read and its hash (outside the window): unknown hash, Edit refused", async () => {
    const { state, paths } = bigFiles();
    const [file] = paths as [string];
    await hookedRead("read", () => changeInPlace(file, digitOffset(20_000)), { limit: 5 });
    expect(await settled(state, file)).toBe("");
    expect((await edit(2)).details).toMatchObject({ code: "stale_file" });
  });

  it("a shrink between the stat and the window read: the header states what was read, Write and Edit are refused", async () => {
    const { paths } = bigFiles();
    const [file] = paths as [string];
    const read = await hookedRead("stat", () => truncateSync(file, 3 * LINE_BYTES), {});
    expect(read.text.split("\n").slice(1, 3)).toEqual(["lines=1-3 / 3", "view=full"]);
    expect((await edit(1)).details).toMatchObject({ code: "stale_file" });
    expect((await ws!.call("Write", { path: "big.log", content: "x\n" })).details).toMatchObject({ code: "stale_file" });
  });

  it("while the worker hashes a 48 MB file (synchronised on the bytes it has read): unknown hash, Edit refused", async () => {
    const { state, paths } = bigFiles();
    const [file] = paths as [string];
    truncateSync(file, 48 * 1024 * 1024); // sparse tail: cheap to make, slow enough to hash
    utimesSync(file, ROUND_MTIME, ROUND_MTIME);
    await ws!.call("Read", { path: "big.log", limit: 5 });
    const pending = state.getPendingHash(file, state.getLatest(file)!)!;
    expect(pending).toBeDefined();
    const start = readChars();
    const hash = pending.wait(); // starts the job now
    // The process's read counter moves while the worker reads the file: change it mid-hash.
    for (let tries = 0; tries < 2000 && readChars() - start < 4 * 1024 * 1024; tries++) await new Promise((resolve) => setTimeout(resolve, 1));
    changeInPlace(file, digitOffset(2));
    expect(await hash).toBe("");
    expect((await edit(1)).details).toMatchObject({ code: "stale_file" });
  });
});

describe("the unchanged stub and the stated file after changes", () => {
  it("is not given for a range changed before, or after, the first Read's hash arrived", async () => {
    const { state, paths } = bigFiles();
    const [file] = paths as [string];
    await ws!.call("Read", { path: "big.log", limit: 20 });
    changeInPlace(file, digitOffset(7)); // before the hash
    const second = await ws!.call("Read", { path: "big.log", limit: 20 });
    expect(second.details).toMatchObject({ reusedExisting: false });
    expect(second.text).toMatch(/ {5}7\trow 000000[78] of/);
    await settled(state, file);
    const third = await ws!.call("Read", { path: "big.log", limit: 20 });
    expect(third.details).toMatchObject({ reusedExisting: true }); // nothing changed since the second Read
    changeInPlace(file, digitOffset(7)); // after the hash
    const fourth = await ws!.call("Read", { path: "big.log", limit: 20 });
    expect(fourth.details).toMatchObject({ reusedExisting: false });
    expect(fourth.text).toContain(`${readFileSync(file, "utf8").split("\n")[6]}`);
  });

  it("states the total of the last page of a large file, and the window of the current version after an append", async () => {
    const { paths } = bigFiles();
    const [file] = paths as [string];
    const last = await ws!.call("Read", { path: "big.log", start_line: BIG_LINES - 1 });
    expect(last.text).toContain(`lines=${BIG_LINES - 1}-${BIG_LINES} / ${BIG_LINES}`);
    writeFileSync(file, rows(BIG_LINES + 3)); // a log that grew
    const grown = await ws!.call("Read", { path: "big.log", start_line: BIG_LINES - 1 });
    expect(grown.details).toMatchObject({ reusedExisting: false, totalLines: BIG_LINES + 3 });
    expect(grown.text).toContain(`row ${String(BIG_LINES + 3).padStart(7, "0")} of`);
  });

  it("counts the last line of a large file without a final newline, and refuses a start_line one past it", async () => {
    const { paths } = bigFiles();
    const [file] = paths as [string];
    writeFileSync(file, `${rows(BIG_LINES)}tail without newline`);
    const last = await ws!.call("Read", { path: "big.log", start_line: BIG_LINES, limit: 5 });
    expect(last.text).toContain(`lines=${BIG_LINES}-${BIG_LINES + 1} / ${BIG_LINES + 1}`);
    expect(last.text).toContain(`${BIG_LINES + 1}\ttail without newline`);
    const past = await ws!.call("Read", { path: "big.log", start_line: BIG_LINES + 2 });
    expect(past.details).toMatchObject({ code: "invalid_arguments" });
    expect(past.text).toContain(`which has ${BIG_LINES + 1} lines`);
  });

  it("a file over the 256 MB hash limit (1 GB, sparse): the first page holds no descriptor nor hash, a changed window is shown again", async () => {
    const { state, paths } = bigFiles();
    const [file] = paths as [string];
    truncateSync(file, 1024 * 1024 * 1024);
    utimesSync(file, ROUND_MTIME, ROUND_MTIME);
    const first = await ws!.call("Read", { path: "big.log", limit: 10 });
    expect(first.text).toContain("lines=1-10 / ? (1.0 GB; more lines follow)");
    expect(state.getPendingHash(file, state.getLatest(file)!)).toBeUndefined();
    expect(state.getLatest(file)!.contentHash).toBe("");
    changeInPlace(file, digitOffset(4));
    const again = await ws!.call("Read", { path: "big.log", limit: 10 });
    expect(again.details).toMatchObject({ reusedExisting: false });
    expect(again.text).toMatch(/ {5}4\trow 000000[78] of/);
  });
});

describe("a concurrent writer process", () => {
  it("every Edit after a Read and a same-size write by another process is refused; no stub for a changed window", async () => {
    const { state, paths } = bigFiles();
    const [file] = paths as [string];
    const { send, child } = startWriter(file);
    writer = child;
    for (let round = 0; round < 8; round++) {
      const start = 1 + ((round * 7919) % (BIG_LINES - 200));
      const read = await ws!.call("Read", { path: "big.log", start_line: start, limit: 20 });
      expect(read.isError, read.text).toBe(false);
      if (round % 3 === 1) await settled(state, file);
      // The writer changes a line of the window (even rounds) or far from it (odd ones), same size, mtime set back.
      const line = round % 2 === 0 ? start + 3 : ((start + 20_000) % BIG_LINES) + 1;
      await send(`w ${digitOffset(line)}`);
      const result = await ws!.call("Edit", { path: "big.log", old_string: `row ${String(start).padStart(7, "0")} of`, new_string: "changed" });
      expect(result.details, `round ${round}`).toMatchObject({ code: "stale_file" });
      const again = await ws!.call("Read", { path: "big.log", start_line: start, limit: 20 });
      const disk = readFileSync(file, "utf8")
        .split("\n")
        .slice(start - 1, start + 19);
      if (round % 2 === 0) expect(again.details, `round ${round}`).toMatchObject({ reusedExisting: false });
      if (!(again.details as { reusedExisting: boolean }).reusedExisting) {
        expect(
          again.text
            .split("\n")
            .slice(4, 24)
            .map((row) => row.replace(/^ *\d+\t/, "")),
        ).toEqual(disk);
      }
    }
    // A free-running writer while the model reads, then one last write after every Read: the Edit is refused.
    await send("loop");
    for (let round = 0; round < 6; round++) await ws!.call("Read", { path: "big.log", start_line: 1 + round * 100, limit: 50 });
    await send("stop");
    expect((await ws!.call("Edit", { path: "big.log", old_string: "of the big log file\nrow 0000301 ", new_string: "x\nrow 0000301 " })).details).toMatchObject(
      {
        code: "stale_file",
      },
    );
  });
});

/**
 * A write through a shared mapping to an already dirty page changes the bytes
 * with no stat field moved (times are set at the write fault only). The two
 * stub cases failed at 4e73866 (the stub was given for a changed range; before
 * issue 34 a re-Read hashed the whole file) and pass with the window hash of
 * the Read's lines. The Edit case (it.fails) is older than issue 34: Edit
 * trusts an unchanged identity, for small files too. A case whose identity
 * did move (a writeback in between) skips.
 */
describe.skipIf(!HAS_PYTHON)("a writer through a shared memory mapping (python3 mmap): no stat field moves", () => {
  /** The mapped writer on `file`; `write(offset, byte)` changes a byte of its first page. */
  async function mappedWriter(file: string) {
    const mapped = await startMappedWriter(file);
    writer = mapped.child;
    return (offset: number, value: number) => mapped.send(`${offset} ${value}`);
  }

  it("a re-Read of a range changed through the mapping after the hash arrived is not answered with the unchanged stub", async ({ skip }) => {
    const { state, paths } = bigFiles();
    const [file] = paths as [string];
    const write = await mappedWriter(file);
    await ws!.call("Read", { path: "big.log", limit: 20 });
    await settled(state, file);
    const before = identityOf(file);
    await write(digitOffset(3), 0x37); // "row 0000003" becomes "row 0000007"
    if (identityOf(file) !== before) skip();
    const again = await ws!.call("Read", { path: "big.log", limit: 20 });
    // At 4e73866: reusedExisting true, "This range is unchanged since the previous Read." for a changed line 3.
    expect(again.details).toMatchObject({ reusedExisting: false });
    expect(again.text).toContain("     3\trow 0000007 of");
  });

  it("a change through the mapping before the background hash: the Read-time hash is not the new bytes', no stub", async ({ skip }) => {
    const { state, paths } = bigFiles();
    const [file] = paths as [string];
    const original = readFileSync(file);
    const write = await mappedWriter(file);
    await ws!.call("Read", { path: "big.log", limit: 20 });
    const before = identityOf(file);
    await write(digitOffset(5), 0x37); // the hash has not started yet (it waits 10 ms, or for a caller)
    if (identityOf(file) !== before) skip();
    const hash = await settled(state, file);
    const again = await ws!.call("Read", { path: "big.log", limit: 20 });
    // At 4e73866: the "Read-time" hash was contentHash(new bytes) and the re-Read answered with the stub.
    expect(again.details).toMatchObject({ reusedExisting: false });
    expect(hash).toBe(contentHash(original));
  });

  it.fails("an Edit after a Read and a change through the mapping outside the window is accepted (identity trusted; older than issue 34)", async ({ skip }) => {
    const { paths } = bigFiles();
    const [file] = paths as [string];
    const write = await mappedWriter(file);
    await ws!.call("Read", { path: "big.log", limit: 20 });
    const before = identityOf(file);
    await write(digitOffset(60), 0x37); // line 60: same first page, outside the window
    if (identityOf(file) !== before) skip();
    // Observed: the Edit succeeds on the changed file.
    expect((await edit(2)).details).toMatchObject({ code: "stale_file" });
  });
});
