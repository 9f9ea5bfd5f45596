/** Contract cases: atomic writes (concurrent readers, aborts, crashed writers) and locks. */
import { posix } from "node:path";
import { expect, it } from "vitest";
import type { Workspace, WorkspaceLock } from "@agent-tools/core/workspace";
import { type WorkspaceContractContext, expectWorkspaceError, isDottedSidecar, patternBytes } from "./workspace-contract-support.js";

/** Version `index` of the torn-write check: `size(index)` bytes, all equal to `index + 1`. */
function version(index: number): Buffer {
  return Buffer.alloc(1 + ((index * 7919) % 20) * 24_593, index + 1);
}

/** True when `data` is exactly one of the versions (uniform byte, that version's length). */
function isWholeVersion(data: Buffer): boolean {
  if (data.length === 0) return false;
  const index = (data[0] as number) - 1;
  if (index < 0 || index > 20 || data.length !== version(index).length) return false;
  for (const byte of data) if (byte !== index + 1) return false;
  return true;
}

/** Settled state of a promise, without waiting for it. */
function settledFlag(promise: Promise<unknown>): { readonly settled: boolean } {
  const flag = { settled: false };
  promise.then(
    () => {
      flag.settled = true;
    },
    () => {
      flag.settled = true;
    },
  );
  return flag;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Registers the atomic-write cases. */
export function atomicCases(context: WorkspaceContractContext): void {
  it("atomicity: a concurrent reader never sees a torn file while 20 writes of different sizes replace it", async () => {
    const { workspace, scratch } = await context.open();
    const file = posix.join(scratch, "contended.bin");
    await workspace.fs.writeFileAtomic(file, version(0));
    let writing = true;
    const torn: number[] = [];
    let reads = 0;
    const reader = (async () => {
      while (writing) {
        const data = await workspace.fs.readFile(file);
        reads += 1;
        if (!isWholeVersion(data)) torn.push(data.length);
        // Let timers run: an adapter answering without I/O must not starve a writer that waits on one.
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    try {
      for (let index = 1; index <= 20; index += 1) await workspace.fs.writeFileAtomic(file, version(index));
    } finally {
      writing = false;
      await reader;
    }
    expect(torn, "reads that saw a torn file (their lengths)").toEqual([]);
    expect(reads).toBeGreaterThan(0);
    expect((await workspace.fs.readFile(file)).equals(version(20))).toBe(true);
    expect((await workspace.fs.readdir(scratch)).map((entry) => entry.name)).toEqual(["contended.bin"]);
  });

  it("atomicity: a write aborted by its signal leaves the old file and no temporary file", async () => {
    const { workspace, scratch } = await context.open();
    const file = posix.join(scratch, "kept.txt");
    await workspace.fs.writeFileAtomic(file, Buffer.from("old content"));
    const controller = new AbortController();
    async function* slowly() {
      yield Buffer.from("new content, part 1, ");
      controller.abort();
      await pause(20);
      yield Buffer.from("part 2");
    }
    const outcome = await workspace.fs.writeFileAtomic(file, slowly(), { signal: controller.signal }).then(
      () => "written",
      (error: unknown) => (error as Error).name,
    );
    expect(outcome).toBe("AbortError");
    expect((await workspace.fs.readFile(file)).toString()).toBe("old content");
    expect((await workspace.fs.readdir(scratch)).map((entry) => entry.name)).toEqual(["kept.txt"]);
    const before = new AbortController();
    before.abort();
    await expect(workspace.fs.writeFileAtomic(posix.join(scratch, "never.txt"), Buffer.from("x"), { signal: before.signal })).rejects.toThrow();
    await expectWorkspaceError(() => workspace.fs.stat(posix.join(scratch, "never.txt")), "not_found");
  });

  const crash = context.target.crashDuringWrite;
  it.skipIf(crash === undefined)(
    "atomicity: a writer killed in the middle of a big write leaves the old file or the new one, and at most a dotted sidecar",
    async () => {
      const { workspace, scratch } = await context.open();
      const file = posix.join(scratch, "crash.bin");
      const old = patternBytes(64 * 1024, 7);
      const replacement = patternBytes(32 * 1024 * 1024, 11);
      await workspace.fs.writeFileAtomic(file, old);
      await (crash as NonNullable<typeof crash>).call(context.target, workspace, file, replacement);
      const after = await workspace.fs.readFile(file);
      const whole = after.equals(old) || after.equals(replacement);
      expect(whole, `after the crash the file has ${after.length} bytes: neither the old (${old.length}) nor the new (${replacement.length}) file`).toBe(true);
      const strays = (await workspace.fs.readdir(scratch)).map((entry) => entry.name).filter((name) => name !== "crash.bin");
      expect(
        strays.filter((name) => !isDottedSidecar(name, "crash.bin")),
        "entries left beside the file (only a dotted sidecar such as .crash.bin.tmp-123 is accepted)",
      ).toEqual([]);
    },
  );
}

async function expectExclusion(first: Workspace, second: Workspace, path: string): Promise<void> {
  const held = await first.fs.lock(path);
  const waiting = second.fs.lock(path, { timeoutMs: 60_000 });
  const state = settledFlag(waiting);
  await pause(300);
  expect(state.settled, "a second lock of the same file was granted while the first was held").toBe(false);
  await held.release();
  const next = await waiting;
  await held.release(); // a second release is harmless and does not free `next`
  const third = second.fs.lock(path, { timeoutMs: 60_000 });
  const thirdState = settledFlag(third);
  await pause(200);
  expect(thirdState.settled, "a repeated release of an old lock freed the current holder's lock").toBe(false);
  await next.release();
  await (await third).release();
}

/** Registers the lock cases. */
export function lockCases(context: WorkspaceContractContext): void {
  it("locks: a second lock of the same file in one client waits until the first is released", async () => {
    const { workspace, scratch } = await context.open();
    await expectExclusion(workspace, workspace, posix.join(scratch, "one.lock-target"));
    const other = await workspace.fs.lock(posix.join(scratch, "another-file"), { timeoutMs: 5_000 });
    await other.release();
  });

  it("locks: waiting times out with locked, and an aborted signal stops the wait", async () => {
    const { workspace, scratch } = await context.open();
    const path = posix.join(scratch, "busy");
    const held: WorkspaceLock = await workspace.fs.lock(path);
    await expectWorkspaceError(() => workspace.fs.lock(path, { timeoutMs: 200 }), "locked");
    const controller = new AbortController();
    const waiting = workspace.fs.lock(path, { timeoutMs: 60_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(waiting).rejects.toMatchObject({ name: "AbortError" });
    await held.release();
    const again = await workspace.fs.lock(path, { timeoutMs: 5_000 });
    await again.release();
  });

  const second = context.target.secondClient;
  it.skipIf(second === undefined)("locks: across two clients of the same storage, one holder at a time; close() drops a client's locks", async () => {
    const { workspace, scratch } = await context.open();
    const other = context.track(await (second as NonNullable<typeof second>).call(context.target, workspace));
    const path = posix.join(scratch, "shared");
    await expectExclusion(workspace, other, path);
    await expectExclusion(other, workspace, path);
    const held = await other.fs.lock(path);
    await expectWorkspaceError(() => workspace.fs.lock(path, { timeoutMs: 200 }), "locked");
    const waiting = workspace.fs.lock(path, { timeoutMs: 60_000 });
    await pause(100);
    await other.close();
    await (await waiting).release();
    await held.release();
  });
}
