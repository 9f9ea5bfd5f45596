import { describe, expect, it } from "vitest";
import type { FileImage } from "../domain/file-image.js";
import type { CheckpointStore, NewPreImage } from "../ports/checkpoint-store.js";
import { sha256Hex } from "../runtime/read-file-image.js";

/** A store opened for one test, and how to release it. */
export interface OpenedCheckpointStore {
  readonly store: CheckpointStore;
  close(): Promise<void>;
}

/** A backend the contract runs on. */
export interface CheckpointStoreContractTarget {
  /** Shown in the suite's name. */
  readonly name: string;
  /** Opens an empty store. */
  open(): Promise<OpenedCheckpointStore>;
  /** Opens `count` stores on one database (separate connections), for races; optional. */
  openMany?(count: number): Promise<{ readonly stores: readonly CheckpointStore[]; close(): Promise<void> }>;
}

const EMPTY = new Uint8Array(0);

function fileImage(content: Uint8Array, mode = 0o644): FileImage {
  return { kind: "file", mode, sha256: sha256Hex(content), linkTarget: "", content };
}

function preImage(checkpointId: string, path: string, pre: FileImage, recordedAt = 1_000): NewPreImage {
  return { checkpointId, path, toolName: "Write", callId: `call-${path}`, pre, recordedAt };
}

/** Every byte value, NUL first, then a CR LF pair: what a text-only store would mangle. */
const ALL_BYTES = Uint8Array.from([...Array.from({ length: 256 }, (_, index) => index), 13, 10]);

async function withStore(target: CheckpointStoreContractTarget, run: (store: CheckpointStore) => Promise<void>): Promise<void> {
  const opened = await target.open();
  try {
    await run(opened.store);
  } finally {
    await opened.close();
  }
}

/**
 * The contract every {@link CheckpointStore} meets: a pre-image is kept once
 * per (checkpoint, path) with exact bytes (every byte value), mode, kind,
 * link target and hash; a post-image is set and replaced; entries list in
 * byte order of path; checkpoints list with counts; marking rewound, a
 * fresh pre-image after a rewind, deletion; and racing writers of one pair,
 * of which exactly one wins.
 *
 * @example
 * runCheckpointStoreContract({ name: "in-memory", open: async () => ({ store: new InMemoryCheckpointStore(), close: async () => {} }) });
 */
export function runCheckpointStoreContract(target: CheckpointStoreContractTarget): void {
  describe(`CheckpointStore contract: ${target.name}`, () => {
    it("keeps the first pre-image of a path, with exact bytes, mode, hash, and every kind", async () => {
      await withStore(target, async (store) => {
        const first = fileImage(ALL_BYTES, 0o755);
        expect(await store.putPreImage(preImage("cp", "/w/bin.dat", first, 5))).toBe(true);
        expect(await store.putPreImage(preImage("cp", "/w/bin.dat", fileImage(Uint8Array.from([1, 2, 3])), 6))).toBe(false);
        expect(
          await store.putPreImage(preImage("cp", "/w/link", { kind: "symlink", mode: 0, sha256: sha256Hex("../t"), linkTarget: "../t", content: EMPTY })),
        ).toBe(true);
        expect(await store.putPreImage(preImage("cp", "/w/dir", { kind: "directory", mode: 0o750, sha256: "", linkTarget: "", content: EMPTY }))).toBe(true);
        expect(await store.putPreImage(preImage("cp", "/w/new.txt", { kind: "absent", mode: 0, sha256: "", linkTarget: "", content: EMPTY }))).toBe(true);
        expect(await store.putPreImage(preImage("cp", "/w/empty", fileImage(EMPTY, 0o600)))).toBe(true);
        const entries = await store.listEntries("cp");
        expect(entries.map((entry) => entry.path)).toEqual(["/w/bin.dat", "/w/dir", "/w/empty", "/w/link", "/w/new.txt"]);
        const binary = entries[0]!;
        expect(binary).toMatchObject({ checkpointId: "cp", toolName: "Write", callId: "call-/w/bin.dat", recordedAt: 5 });
        expect(binary.post).toBeUndefined();
        expect(binary.rewoundAt).toBeUndefined();
        expect(binary.pre.kind).toBe("file");
        expect(binary.pre.mode).toBe(0o755);
        expect(binary.pre.sha256).toBe(sha256Hex(ALL_BYTES));
        expect(Buffer.from(binary.pre.content).equals(Buffer.from(ALL_BYTES))).toBe(true);
        expect(entries[1]!.pre).toMatchObject({ kind: "directory", mode: 0o750 });
        expect(entries[2]!.pre.content.length).toBe(0);
        expect(entries[2]!.pre.mode).toBe(0o600);
        expect(entries[3]!.pre).toMatchObject({ kind: "symlink", linkTarget: "../t", sha256: sha256Hex("../t") });
        expect(entries[4]!.pre.kind).toBe("absent");
        expect(await store.listEntries("other")).toEqual([]);
      });
    });

    it("sets the post-image (the last one wins) only on an existing entry", async () => {
      await withStore(target, async (store) => {
        expect(await store.setPostImage("cp", "/w/a", { kind: "absent", mode: 0, sha256: "", linkTarget: "" })).toBe(false);
        expect(await store.listEntries("cp")).toEqual([]);
        await store.putPreImage(preImage("cp", "/w/a", fileImage(Uint8Array.from([65]))));
        expect(await store.setPostImage("cp", "/w/a", { kind: "file", mode: 0o644, sha256: "aa", linkTarget: "" })).toBe(true);
        expect(await store.setPostImage("cp", "/w/a", { kind: "file", mode: 0o600, sha256: "bb", linkTarget: "" })).toBe(true);
        const [entry] = await store.listEntries("cp");
        expect(entry!.post).toEqual({ kind: "file", mode: 0o600, sha256: "bb", linkTarget: "" });
        expect(Buffer.from(entry!.pre.content).toString()).toBe("A");
      });
    });

    it("lists paths in byte order and checkpoints newest first with their counts", async () => {
      await withStore(target, async (store) => {
        for (const [index, file] of ["/w/b", "/w/a-b", "/w/a/b", "/w/Z", "/w/é"].entries()) {
          await store.putPreImage(preImage("one", file, fileImage(Uint8Array.from([index])), 100 + index));
        }
        await store.putPreImage(preImage("two", "/w/x", fileImage(EMPTY), 500));
        await store.putPreImage(preImage("three", "/w/x", fileImage(EMPTY), 50));
        expect((await store.listEntries("one")).map((entry) => entry.path)).toEqual(["/w/Z", "/w/a-b", "/w/a/b", "/w/b", "/w/é"]);
        await store.markRewound("one", ["/w/b", "/w/Z", "/w/unknown"], 900);
        expect(await store.listCheckpoints()).toEqual([
          { checkpointId: "two", files: 1, rewound: 0, firstRecordedAt: 500, lastRecordedAt: 500 },
          { checkpointId: "one", files: 5, rewound: 2, firstRecordedAt: 100, lastRecordedAt: 104 },
          { checkpointId: "three", files: 1, rewound: 0, firstRecordedAt: 50, lastRecordedAt: 50 },
        ]);
      });
    });

    it("marks paths rewound; a path changed again after its rewind starts a fresh record", async () => {
      await withStore(target, async (store) => {
        await store.putPreImage(preImage("cp", "/w/a", fileImage(Uint8Array.from([1]))));
        await store.setPostImage("cp", "/w/a", { kind: "file", mode: 0o644, sha256: "p", linkTarget: "" });
        expect(await store.hasPendingPreImage("cp", "/w/a")).toBe(true);
        expect(await store.hasPendingPreImage("cp", "/w/none")).toBe(false);
        await store.markRewound("cp", ["/w/a"], 777);
        expect((await store.listEntries("cp"))[0]!.rewoundAt).toBe(777);
        expect(await store.hasPendingPreImage("cp", "/w/a")).toBe(false);
        expect(await store.putPreImage(preImage("cp", "/w/a", fileImage(Uint8Array.from([2])), 2_000))).toBe(true);
        const [fresh] = await store.listEntries("cp");
        expect(fresh!.rewoundAt).toBeUndefined();
        expect(fresh!.post).toBeUndefined();
        expect(fresh!.recordedAt).toBe(2_000);
        expect([...fresh!.pre.content]).toEqual([2]);
        expect(await store.putPreImage(preImage("cp", "/w/a", fileImage(Uint8Array.from([3]))))).toBe(false);
      });
    });

    it("deletes one checkpoint's entries and leaves the others", async () => {
      await withStore(target, async (store) => {
        await store.putPreImage(preImage("a", "/w/1", fileImage(EMPTY)));
        await store.putPreImage(preImage("a", "/w/2", fileImage(EMPTY)));
        await store.putPreImage(preImage("b", "/w/1", fileImage(EMPTY)));
        expect(await store.deleteCheckpoint("a")).toBe(2);
        expect(await store.deleteCheckpoint("a")).toBe(0);
        expect(await store.listEntries("a")).toEqual([]);
        expect((await store.listEntries("b")).map((entry) => entry.path)).toEqual(["/w/1"]);
        expect((await store.listCheckpoints()).map((summary) => summary.checkpointId)).toEqual(["b"]);
      });
    });

    it("lets exactly one of racing writers of one (checkpoint, path) record its pre-image", async () => {
      const many = target.openMany ? await target.openMany(3) : undefined;
      const opened = many ? undefined : await target.open();
      const stores = many ? many.stores : [opened!.store];
      try {
        for (let round = 0; round < 5; round += 1) {
          const attempts = Array.from({ length: 12 }, (_, index) =>
            stores[index % stores.length]!.putPreImage(preImage("race", `/w/${round}`, fileImage(Uint8Array.from([index])))),
          );
          const won = await Promise.all(attempts);
          expect(won.filter(Boolean)).toHaveLength(1);
          const winner = won.indexOf(true);
          const [entry] = (await stores[0]!.listEntries("race")).filter((candidate) => candidate.path === `/w/${round}`);
          expect([...entry!.pre.content]).toEqual([winner]);
        }
      } finally {
        await many?.close();
        await opened?.close();
      }
    });
  });
}
