import { closeSync, fstatSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { contentHash } from "../shared/content-hash.js";
import { HashWorker, MAX_FILE_HASHES_IN_FLIGHT, ownedArrayBuffer } from "./hash-worker.js";

const worker = new HashWorker();
const hashOffThread = (pieces: readonly Uint8Array[], transfer?: ArrayBuffer) => worker.hash(pieces, transfer);
const hashWorkerRunning = () => worker.running;

afterAll(async () => {
  await worker.close();
  expect(hashWorkerRunning()).toBe(false);
});

function pseudoRandom(length: number, seed: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  let state = seed;
  for (let index = 0; index < length; index += 1) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[index] = state >>> 24;
  }
  return bytes;
}

describe("hashOffThread", () => {
  it("computes the same FNV-1a 64 as contentHash, over pieces in order", async () => {
    expect(await hashOffThread([]).wait()).toBe(contentHash(Buffer.alloc(0)));
    expect(await hashOffThread([Buffer.from("hello")]).wait()).toBe(contentHash(Buffer.from("hello")));
    const whole = pseudoRandom(9 * 1024 * 1024 + 17, 5); // spans the worker's 4 MB chunks
    const pieces = [whole.subarray(0, 3), whole.subarray(3, 5_000_000), whole.subarray(5_000_000)];
    expect(await hashOffThread(pieces).wait()).toBe(contentHash(whole));
    expect(hashWorkerRunning()).toBe(true);
  });

  it("moves an owned buffer to the worker instead of copying it", async () => {
    const bytes = pseudoRandom(2 * 1024 * 1024, 9);
    const expected = contentHash(bytes);
    const owned = new Uint8Array(bytes.length);
    owned.set(bytes);
    const transfer = ownedArrayBuffer(owned);
    expect(transfer).toBeDefined();
    const pending = hashOffThread([owned.subarray(0, 10), owned.subarray(10)], transfer);
    expect(owned.byteLength).toBe(0); // detached: the memory went to the worker
    expect(await pending.wait()).toBe(expected);
  });

  it("answers many concurrent jobs with their own hashes", async () => {
    const inputs = Array.from({ length: 12 }, (_, index) => pseudoRandom(1000 + index * 7919, index + 1));
    const hashes = await Promise.all(inputs.map((input) => hashOffThread([input]).promise));
    expect(hashes).toEqual(inputs.map((input) => contentHash(input)));
  });

  it("never reports a wrong hash when the worker is stopped mid-flight", async () => {
    const copied = pseudoRandom(3 * 1024 * 1024, 3);
    const moved = new Uint8Array(copied.length);
    const first = hashOffThread([copied]);
    const second = hashOffThread([moved], ownedArrayBuffer(moved));
    await worker.close();
    expect(hashWorkerRunning()).toBe(false);
    // A job the worker had not copied yet is hashed on the main thread; one whose
    // memory it took (moved, or copied and handed back) fails rather than hash reused memory.
    const outcome = (pending: ReturnType<typeof hashOffThread>, expected: string) =>
      pending.wait().then(
        (hash) => expect(hash).toBe(expected),
        (error: Error) => expect(error.message).toMatch(/stopped/),
      );
    await outcome(first, contentHash(copied));
    await outcome(second, contentHash(new Uint8Array(copied.length)));
    await Promise.all([first.released, second.released]);
    // After close, jobs are hashed on the main thread and no worker starts again.
    expect(await hashOffThread([Buffer.from("again")]).wait()).toBe(contentHash(Buffer.from("again")));
    expect(hashWorkerRunning()).toBe(false);
  });
});

describe("hashFile", () => {
  it("hashes an open file's first size bytes only while it stays the expected version", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "hash-file-"));
    const file = path.join(dir, "data.bin");
    const bytes = pseudoRandom(5 * 1024 * 1024 + 3, 9); // spans the worker's 4 MB chunks
    writeFileSync(file, bytes);
    const fd = openSync(file, "r");
    const fresh = new HashWorker();
    try {
      const stat = fstatSync(fd);
      const identity = { mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, ino: stat.ino, size: stat.size };
      expect(await fresh.hashFile(fd, identity)!.wait()).toBe(contentHash(bytes));
      // Continued from the state after the first bytes, as a Read hashed them: the same hash.
      const prefix = { bytes: 70_001, hash: contentHash(bytes.subarray(0, 70_001)) };
      expect(await fresh.hashFile(fd, identity, prefix)!.wait()).toBe(contentHash(bytes));
      // A prefix other than the file's bytes gives another hash: the prefix is what the Read saw.
      expect(await fresh.hashFile(fd, identity, { ...prefix, hash: contentHash(Buffer.from("other")) })!.wait()).not.toBe(contentHash(bytes));
      // Another identity than the file's (it changed after the Read's stat): unknown, never the new bytes' hash.
      expect(await fresh.hashFile(fd, { ...identity, ctimeMs: identity.ctimeMs - 1 })!.wait()).toBe("");
      expect(await fresh.hashFile(fd, { ...identity, size: identity.size - 1 })!.wait()).toBe("");
      // At most MAX_FILE_HASHES_IN_FLIGHT descriptors are held for hashing; one more is refused (its version stays without a hash).
      const many = Array.from({ length: MAX_FILE_HASHES_IN_FLIGHT }, () => fresh.hashFile(fd, identity)!);
      expect(fresh.hashFile(fd, identity)).toBeUndefined();
      expect(new Set(await Promise.all(many.map((pending) => pending.wait())))).toEqual(new Set([contentHash(bytes)]));
      await Promise.all(many.map((pending) => pending.released));
      expect(await fresh.hashFile(fd, identity)!.wait()).toBe(contentHash(bytes));
      // After close a file's hash is unknown at once (its registry is closed): never read whole on the main thread.
      await fresh.close();
      expect(await fresh.hashFile(fd, identity)!.wait()).toBe("");
    } finally {
      closeSync(fd);
      await fresh.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("ownedArrayBuffer", () => {
  it("only accepts views spanning their whole buffer", () => {
    expect(ownedArrayBuffer(new Uint8Array(10))).toBeDefined();
    expect(ownedArrayBuffer(new Uint8Array(10).subarray(1))).toBeUndefined();
    expect(ownedArrayBuffer(Buffer.from("small"))).toBeUndefined(); // from Node's shared pool
  });
});
