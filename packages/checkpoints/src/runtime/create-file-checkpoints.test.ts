import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { type FileCheckpointRecorder, SdkError } from "@agent-tools/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InMemoryCheckpointStore } from "../ports/in-memory-checkpoint-store.js";
import { createFileCheckpoints } from "./create-file-checkpoints.js";

let dir: string;
let counter = 0;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "agent-tools-checkpoints-")));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const at = (relative: string) => path.join(dir, relative);

/** Runs `change` as a file tool would: the pre-image first, the post-image after. */
async function change(recorder: FileCheckpointRecorder, checkpointId: string, files: string[], run: () => void): Promise<void> {
  const callId = `call-${++counter}`;
  const requests = files.map((file) => ({ checkpointId, path: at(file), toolName: "Write", callId }));
  for (const request of requests) await recorder.beforeChange(request);
  try {
    run();
  } finally {
    for (const request of requests) await recorder.afterChange(request);
  }
}

const modeOf = (relative: string) => lstatSync(at(relative)).mode & 0o7777;
const BINARY = Buffer.from([0, 1, 2, 255, 0, 13, 10, 0x80, 0xfe]);

describe("createFileCheckpoints", () => {
  it("rewinds created, modified, deleted files, a symlink and a deleted folder to exact bytes and modes", async () => {
    writeFileSync(at("crlf.txt"), "one\r\ntwo\r\n");
    writeFileSync(at("bin.dat"), BINARY);
    writeFileSync(at("tool.sh"), "#!/bin/sh\necho hi\n");
    chmodSync(at("tool.sh"), 0o755);
    writeFileSync(at("gone.txt"), "bye\n");
    chmodSync(at("gone.txt"), 0o600);
    symlinkSync("crlf.txt", at("link"));
    mkdirSync(at("tree/sub"), { recursive: true });
    chmodSync(at("tree/sub"), 0o700);
    writeFileSync(at("tree/sub/deep.bin"), BINARY);
    const checkpoints = createFileCheckpoints({ store: new InMemoryCheckpointStore() });

    await change(checkpoints, "t1", ["new.txt"], () => writeFileSync(at("new.txt"), "fresh"));
    await change(checkpoints, "t1", ["crlf.txt"], () => writeFileSync(at("crlf.txt"), "one\r\nTWO\r\n"));
    await change(checkpoints, "t1", ["crlf.txt"], () => writeFileSync(at("crlf.txt"), "ONE\r\nTWO\r\n"));
    await change(checkpoints, "t1", ["bin.dat"], () => writeFileSync(at("bin.dat"), "text now"));
    await change(checkpoints, "t1", ["tool.sh"], () => writeFileSync(at("tool.sh"), "#!/bin/sh\necho changed\n"));
    await change(checkpoints, "t1", ["gone.txt"], () => unlinkSync(at("gone.txt")));
    await change(checkpoints, "t1", ["link"], () => unlinkSync(at("link")));
    await change(checkpoints, "t1", ["tree", "tree/sub", "tree/sub/deep.bin"], () => rmSync(at("tree"), { recursive: true }));

    const report = await checkpoints.rewindCheckpoint("t1");
    expect(report).toEqual({
      checkpointId: "t1",
      restored: ["bin.dat", "crlf.txt", "gone.txt", "link", "tool.sh", "tree", "tree/sub", "tree/sub/deep.bin"].map(at),
      removed: [at("new.txt")],
      conflicts: [],
      unchanged: [],
    });
    expect(readFileSync(at("crlf.txt"), "utf8")).toBe("one\r\ntwo\r\n");
    expect(readFileSync(at("bin.dat")).equals(BINARY)).toBe(true);
    expect(readFileSync(at("tool.sh"), "utf8")).toBe("#!/bin/sh\necho hi\n");
    expect(modeOf("tool.sh")).toBe(0o755);
    expect(readFileSync(at("gone.txt"), "utf8")).toBe("bye\n");
    expect(modeOf("gone.txt")).toBe(0o600);
    expect(readlinkSync(at("link"))).toBe("crlf.txt");
    expect(modeOf("tree/sub")).toBe(0o700);
    expect(readFileSync(at("tree/sub/deep.bin")).equals(BINARY)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(["bin.dat", "crlf.txt", "gone.txt", "link", "tool.sh", "tree"]);

    // Idempotent: a second rewind finds everything back.
    const again = await checkpoints.rewindCheckpoint("t1");
    expect(again.restored).toEqual([]);
    expect(again.removed).toEqual([]);
    expect(again.unchanged).toHaveLength(9);
    expect(again.conflicts).toEqual([]);
  });

  it("reports a file changed after the checkpoint's change as a conflict and leaves it; force overwrites it", async () => {
    writeFileSync(at("a.txt"), "before");
    writeFileSync(at("b.txt"), "before");
    const checkpoints = createFileCheckpoints({ store: new InMemoryCheckpointStore() });
    await change(checkpoints, "t1", ["a.txt"], () => writeFileSync(at("a.txt"), "by the agent"));
    await change(checkpoints, "t1", ["b.txt"], () => writeFileSync(at("b.txt"), "by the agent"));
    await change(checkpoints, "t1", ["c.txt"], () => writeFileSync(at("c.txt"), "created"));
    writeFileSync(at("a.txt"), "by the user");
    chmodSync(at("c.txt"), 0o600);

    const report = await checkpoints.rewindCheckpoint("t1");
    expect(report.restored).toEqual([at("b.txt")]);
    expect(report.conflicts.map((conflict) => conflict.path)).toEqual([at("a.txt"), at("c.txt")]);
    expect(report.conflicts[0]!.reason).toMatch(/^changed after the checkpoint's last change: found a file/);
    expect(report.conflicts[1]!.reason).toContain("mode 0600");
    expect(readFileSync(at("a.txt"), "utf8")).toBe("by the user");
    expect(readFileSync(at("c.txt"), "utf8")).toBe("created");
    expect((await checkpoints.listCheckpoints())[0]).toMatchObject({ checkpointId: "t1", files: 3, rewound: 1 });

    const forced = await checkpoints.rewindCheckpoint("t1", { force: true });
    expect(forced.restored).toEqual([at("a.txt")]);
    expect(forced.removed).toEqual([at("c.txt")]);
    expect(forced.unchanged).toEqual([at("b.txt")]);
    expect(readFileSync(at("a.txt"), "utf8")).toBe("before");
  });

  it("rewinds two checkpoints (turns) in reverse order; the older one alone would conflict", async () => {
    writeFileSync(at("f.txt"), "v0");
    const checkpoints = createFileCheckpoints({ store: new InMemoryCheckpointStore() });
    await change(checkpoints, "turn-1", ["f.txt"], () => writeFileSync(at("f.txt"), "v1"));
    await change(checkpoints, "turn-1", ["g.txt"], () => writeFileSync(at("g.txt"), "g1"));
    await change(checkpoints, "turn-2", ["f.txt"], () => writeFileSync(at("f.txt"), "v2"));
    await change(checkpoints, "turn-2", ["g.txt"], () => unlinkSync(at("g.txt")));

    const early = await checkpoints.rewindCheckpoint("turn-1");
    // g.txt is absent, as before turn 1: nothing to do for it yet.
    expect(early.conflicts.map((conflict) => conflict.path)).toEqual([at("f.txt")]);
    expect(early.unchanged).toEqual([at("g.txt")]);
    expect(readFileSync(at("f.txt"), "utf8")).toBe("v2");

    expect(await checkpoints.rewindCheckpoint("turn-2")).toMatchObject({ restored: [at("f.txt"), at("g.txt")], conflicts: [] });
    expect(readFileSync(at("f.txt"), "utf8")).toBe("v1");
    expect(readFileSync(at("g.txt"), "utf8")).toBe("g1");
    expect(await checkpoints.rewindCheckpoint("turn-1")).toMatchObject({ restored: [at("f.txt")], removed: [at("g.txt")], conflicts: [] });
    expect(readFileSync(at("f.txt"), "utf8")).toBe("v0");
    expect(readdirSync(dir)).toEqual(["f.txt"]);
  });

  it("keeps the first pre-image of a path per checkpoint; a change after a rewind starts afresh; discard forgets", async () => {
    writeFileSync(at("f.txt"), "v0");
    const store = new InMemoryCheckpointStore();
    const checkpoints = createFileCheckpoints({ store });
    await change(checkpoints, "t", ["f.txt"], () => writeFileSync(at("f.txt"), "v1"));
    await change(checkpoints, "t", ["f.txt"], () => writeFileSync(at("f.txt"), "v2"));
    const [entry] = await checkpoints.listEntries("t");
    expect(Buffer.from(entry!.pre.content).toString()).toBe("v0");
    await checkpoints.rewindCheckpoint("t");
    await change(checkpoints, "t", ["f.txt"], () => writeFileSync(at("f.txt"), "v3"));
    const [fresh] = await checkpoints.listEntries("t");
    expect(fresh!.rewoundAt).toBeUndefined();
    expect(Buffer.from(fresh!.pre.content).toString()).toBe("v0");
    expect(await checkpoints.discardCheckpoint("t")).toBe(1);
    expect(await checkpoints.listCheckpoints()).toEqual([]);
    expect(await checkpoints.rewindCheckpoint("t")).toEqual({ checkpointId: "t", restored: [], removed: [], conflicts: [], unchanged: [] });
    expect(readFileSync(at("f.txt"), "utf8")).toBe("v3");
  });

  it("refuses a checkpoint id that is not a non-empty string, and retries a store that failed to open", async () => {
    let attempts = 0;
    const checkpoints = createFileCheckpoints({
      store: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error("database is down");
        return new InMemoryCheckpointStore();
      },
    });
    await expect(checkpoints.rewindCheckpoint("")).rejects.toBeInstanceOf(SdkError);
    await expect(checkpoints.rewindCheckpoint(42 as unknown as string)).rejects.toThrow(/non-empty string/);
    await expect(checkpoints.beforeChange({ checkpointId: "t", path: at("x"), toolName: "Write", callId: "c" })).rejects.toThrow("database is down");
    await checkpoints.beforeChange({ checkpointId: "t", path: at("x"), toolName: "Write", callId: "c" });
    expect((await checkpoints.listEntries("t"))[0]!.pre.kind).toBe("absent");
    expect(attempts).toBe(2);
  });
});
