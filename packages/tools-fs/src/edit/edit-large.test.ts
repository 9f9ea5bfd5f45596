import { mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type FileCheckpointRecorder, createToolRegistry } from "@agent-tools/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../__fixtures__/workspace.js";
import { createFsToolBundle } from "../fs-tool-bundle.js";
import { countLines } from "../shared/text-preview.js";
import { contentHash } from "../shared/content-hash.js";
import { FileToolState } from "../shared/file-state.js";
import { SCAN_CHUNK_BYTES } from "../fast-io/read-buffer-pool.js";
import { replaceInText } from "./edit-match.js";

let ws: TestWorkspace;
afterEach(() => ws?.cleanup());

/** About `bytes` of source-like text with numbered lines. */
function bigText(bytes: number, eol = "\n"): string {
  const lines: string[] = [];
  let size = 0;
  for (let index = 0; size < bytes; index += 1) {
    const line = `  const value${index} = compute(${index}, "text ${index % 97}");`;
    lines.push(line);
    size += line.length + eol.length;
  }
  return lines.join(eol) + eol;
}

/** Waits until the file state has the hash of the recorded version of `file`. */
async function settledHash(state: FileToolState, file: string): Promise<string> {
  const recorded = state.getLatestFullText(file)!;
  await state.getPendingHash(file, recorded)?.promise.catch(() => undefined);
  return state.getLatestFullText(file)!.contentHash;
}

describe("Edit of large files", () => {
  it("hashes large new content off the main thread and records the hash when it arrives", async () => {
    const state = new FileToolState();
    const text = bigText(2_500_000);
    ws = createTestWorkspace({ "big.ts": text }, { state });
    const result = await ws.call("Edit", { path: "big.ts", old_string: "const value1000 = compute(1000,", new_string: "const renamed = compute(1000,\n" });
    expect(result.isError).toBe(false);
    expect(result.details).toMatchObject({ matchStrategy: "exact" });
    expect(result.details).not.toHaveProperty("contentHash");
    expect(result.details).not.toHaveProperty("contentHashPending");
    const file = `${ws.dir}/big.ts`;
    const written = readFileSync(file);
    expect(written.toString()).toBe(text.replace("const value1000 = compute(1000,", "const renamed = compute(1000,\n"));
    expect(result.details.totalLines).toBe(countLines(written));
    expect(result.details.mtimeMs).toBe(statSync(file).mtimeMs); // the temporary file's own mtime survives the rename
    expect(await settledHash(state, file)).toBe(contentHash(written));
    expect(state.getLatest(file)?.contentHash).toBe(contentHash(written));
    expect(ws.fastIo.usage().busyBuffers).toBe(0);
  });

  it("hashes inline when inlineHashLimitBytes allows it", async () => {
    ws = createTestWorkspace({ "big.ts": bigText(1_500_000) }, { inlineHashLimitBytes: Number.POSITIVE_INFINITY });
    const result = await ws.call("Edit", { path: "big.ts", old_string: "const value7 = ", new_string: "const seven = " });
    expect(result.details.contentHash).toBe(contentHash(readFileSync(`${ws.dir}/big.ts`)));
  });

  it("is not stale after a touch while the hash is pending, and stale after a same-size change", async () => {
    const state = new FileToolState();
    ws = createTestWorkspace({ "big.ts": bigText(3_000_000) }, { state });
    const file = `${ws.dir}/big.ts`;
    const first = await ws.call("Edit", { path: "big.ts", old_string: "const value10 = ", new_string: "const value_10 = " });
    expect(first.details.contentHash).toBeUndefined();
    // Touch at once (new mtime, same bytes): staleness must wait for the pending hash, not guess.
    const later = new Date(Date.now() + 5000);
    utimesSync(file, later, later);
    const second = await ws.call("Edit", { path: "big.ts", old_string: "const value20 = ", new_string: "const value_20 = " });
    expect(second.isError).toBe(false);
    await settledHash(state, file);
    // Same size, different bytes, new mtime: stale.
    const bytes = readFileSync(file);
    bytes[10] = bytes[10] === 0x61 ? 0x62 : 0x61;
    writeFileSync(file, bytes);
    const evenLater = new Date(Date.now() + 10_000);
    utimesSync(file, evenLater, evenLater);
    const third = await ws.call("Edit", { path: "big.ts", old_string: "const value30 = ", new_string: "const value_30 = " });
    expect(third.isError).toBe(true);
    expect(third.details).toMatchObject({ code: "stale_file" });
  });

  it("counts lines right on every path: counted, carried over from the snapshot, replace_all and CRLF", async () => {
    const state = new FileToolState();
    ws = createTestWorkspace({ "crlf.ts": bigText(1_200_000, "\r\n"), "small.ts": "a\nb\nc" }, { state, inlineHashLimitBytes: 1000 });
    const check = async (name: string, args: Record<string, unknown>) => {
      const result = await ws.call("Edit", { path: name, ...args });
      expect(result.isError, result.text).toBe(false);
      expect(result.details.totalLines).toBe(countLines(readFileSync(`${ws.dir}/${name}`)));
      return result;
    };
    await check("crlf.ts", { old_string: 'const value1 = compute(1, "text 1");\n  const value2', new_string: "one\ntwo\nthree\n  const value2" });
    await check("crlf.ts", { old_string: "compute(5", new_string: "x\ny(5", replace_all: true });
    await check("crlf.ts", { old_string: '  const value3 = compute(3, "text 3");\r\n', new_string: "" });
    const fuzzy = await check("crlf.ts", {
      old_string: 'const value6 = compute(6, "text 6");\nconst value7 = compute(7, "text 7");',
      new_string: "const six = 6;\nconst value7 = 7;",
    });
    expect(fuzzy.details.matchStrategy).toBe("indentation");
    await check("small.ts", { old_string: "c", new_string: "c\n" });
    await check("small.ts", { old_string: "a\nb\n", new_string: "" });
    const text = readFileSync(`${ws.dir}/crlf.ts`, "latin1");
    expect(text).toContain("  const six = 6;\r\n  const value7 = 7;\r\n");
    await settledHash(state, `${ws.dir}/crlf.ts`);
  });
});

describe("Edit of a file read in chunks (the matcher's scan overlaps the read)", () => {
  it("matches old_string across every chunk boundary, each pass, as on the whole text", async () => {
    const lf = bigText(5_000_000);
    const files: Record<string, string> = { "lf.ts": lf, "crlf.ts": lf.replace(/\n/g, "\r\n") };
    ws = createTestWorkspace(files, { inlineHashLimitBytes: 1000 });
    for (const [name, text] of Object.entries(files)) {
      for (const boundary of [SCAN_CHUNK_BYTES, 2 * SCAN_CHUNK_BYTES]) {
        const before = readFileSync(`${ws.dir}/${name}`, "utf8");
        // Whole lines around the boundary; the cut falls inside old_string.
        const from = before.lastIndexOf("\n", boundary - 10) + 1;
        const to = before.indexOf("\n", before.indexOf("\n", boundary + 10) + 1) + 1; // two lines at least
        const lines = before.slice(from, to).replace(/\r/g, "").split("\n").slice(0, -1);
        for (const [oldString, strategy] of [
          [before.slice(boundary - 40, boundary + 40), "exact"],
          [`${lines.join("\n")}\n`, name === "crlf.ts" ? "line-endings" : "exact"],
          [lines.map((line) => line.trim()).join("\n"), "indentation"],
        ] as const) {
          const current = readFileSync(`${ws.dir}/${name}`, "utf8");
          const expected = replaceInText(current, oldString, "EDITED();\n");
          const result = await ws.call("Edit", { path: name, old_string: oldString, new_string: "EDITED();\n" });
          expect(result.isError, result.text).toBe(false);
          expect(result.details.matchStrategy).toBe(strategy);
          expect(result.details.matchStrategy).toBe(expected?.strategy);
          expect(readFileSync(`${ws.dir}/${name}`, "utf8")).toBe(expected!.text);
          expect(result.details.totalLines).toBe(countLines(readFileSync(`${ws.dir}/${name}`)));
          // Put the original text back for the next case (a Write keeps the registry's versions in step).
          expect((await ws.call("Write", { path: name, content: current })).isError).toBe(false);
        }
      }
      expect(readFileSync(`${ws.dir}/${name}`, "utf8")).toBe(text);
    }
    // The buffers come back once the off-thread hashes have copied them.
    await vi.waitFor(() => expect(ws.fastIo.usage().busyBuffers).toBe(0), { timeout: 10_000 });
  });
});

describe("Edit keeps the old file open across its rename", () => {
  // While Edit's read descriptor is open, the rename does not drop the old
  // content's last reference, so its pages are freed by the close after the
  // answer instead of inside the rename.
  it.skipIf(process.platform !== "linux")("the replaced file is still open (deleted) when the change is recorded, and closed soon after", async () => {
    const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-late-close-")));
    const file = path.join(dir, "big.ts");
    writeFileSync(file, bigText(1_500_000));
    /** This process's descriptors open on `file` (the replaced content shows as "<file> (deleted)"). */
    const descriptorsOn = () =>
      readdirSync("/proc/self/fd").flatMap((fd) => {
        try {
          const target = readlinkSync(`/proc/self/fd/${fd}`);
          return target === file || target === `${file} (deleted)` ? [target] : [];
        } catch {
          return [];
        }
      });
    let seenAfterRename: string[] = [];
    const recorder: FileCheckpointRecorder = {
      async beforeChange() {},
      async afterChange() {
        seenAfterRename = descriptorsOn();
      },
    };
    const registry = createToolRegistry({
      workdir: dir,
      dataDir: path.join(dir, ".data-unused"),
      bundles: [createFsToolBundle({ ripgrepPath: false })],
      ports: { fileCheckpoints: recorder },
      checkpoint: { id: "turn-1" },
      loopBreaker: false,
    });
    try {
      const result = await registry.executeToolCall(
        { id: "c1", name: "Edit", arguments: { path: "big.ts", old_string: "const value1000 = compute(1000,", new_string: "const renamed = compute(1000," } },
        { checkpointId: "turn-1" },
      );
      expect(result.isError).toBe(false);
      // (The new file may show too: the written temporary file's descriptor is closed without waiting.)
      expect(seenAfterRename).toContain(`${file} (deleted)`);
      await vi.waitFor(() => expect(descriptorsOn()).toEqual([]), { timeout: 5000 });
    } finally {
      await registry.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("Write of large content", () => {
  it("defers the hash and stays usable for a following Write after a touch", async () => {
    const state = new FileToolState();
    ws = createTestWorkspace({}, { state });
    const content = bigText(2_000_000);
    const first = await ws.call("Write", { path: "out.ts", content });
    expect(first.details).toMatchObject({ totalLines: countLines(Buffer.from(content)) });
    expect(first.details).not.toHaveProperty("contentHash");
    const file = `${ws.dir}/out.ts`;
    const later = new Date(Date.now() + 5000);
    utimesSync(file, later, later);
    const second = await ws.call("Write", { path: "out.ts", content: `${content}// end ✓\n` });
    expect(second.isError, second.text).toBe(false);
    expect(readFileSync(file, "utf8")).toBe(`${content}// end ✓\n`);
    expect(await settledHash(state, file)).toBe(contentHash(Buffer.from(`${content}// end ✓\n`)));
    expect(ws.fastIo.usage().busyBuffers).toBe(0);
  });
});

describe("the bundle owns its hashing worker and buffers", () => {
  it("registry.close() stops the worker thread and drops the pooled buffers", async () => {
    ws = createTestWorkspace({ "big.ts": bigText(2_500_000) });
    const result = await ws.call("Edit", { path: "big.ts", old_string: "const value5 = ", new_string: "const five = " });
    expect(result.isError, result.text).toBe(false);
    expect(ws.fastIo.usage()).toMatchObject({ hashWorkerRunning: true, buffers: 1 });
    await ws.registry.close();
    expect(ws.fastIo.usage()).toEqual({ hashWorkerRunning: false, buffers: 0, busyBuffers: 0 });
  });

  it("gives each bundle its own worker and pool", async () => {
    ws = createTestWorkspace({ "big.ts": bigText(2_500_000) });
    const other = createTestWorkspace({ "big.ts": bigText(1_500_000) });
    try {
      await ws.call("Edit", { path: "big.ts", old_string: "const value5 = ", new_string: "const five = " });
      expect(ws.fastIo.usage().buffers).toBe(1);
      expect(other.fastIo.usage()).toEqual({ hashWorkerRunning: false, buffers: 0, busyBuffers: 0 });
    } finally {
      other.cleanup();
    }
  });
});
