/**
 * The lock table of a memory workspace: one holder per path, waiters served
 * in arrival order, shared by every client of the same tree.
 */
import { abortReason } from "../abort.js";
import { WorkspaceError } from "./workspace-error.js";
import type { WorkspaceLock } from "./workspace-port.js";

/** Default wait of a lock (the port's documented default). */
const DEFAULT_LOCK_TIMEOUT_MS = 10_000;

interface Waiter {
  readonly owner: object;
  readonly grant: () => void;
  readonly fail: (error: unknown) => void;
}

interface LockSlot {
  holder: object | undefined;
  holderLock: WorkspaceLock | undefined;
  readonly queue: Waiter[];
}

/** The lock table of one memory tree. */
export interface MemoryLockTable {
  /** Takes the lock of `key` for `owner` (a client), waiting behind earlier takers. */
  acquire(key: string, owner: object, options: { timeoutMs?: number; signal?: AbortSignal }): Promise<WorkspaceLock>;
  /** Releases every lock `owner` holds and fails its waiters with `error` (the client closed). */
  dropOwner(owner: object, error: () => unknown): void;
}

/** A new, empty lock table. */
export function createMemoryLockTable(): MemoryLockTable {
  const slots = new Map<string, LockSlot>();

  const handOver = (key: string, slot: LockSlot) => {
    slot.holder = undefined;
    slot.holderLock = undefined;
    const next = slot.queue.shift();
    if (next === undefined) {
      slots.delete(key);
      return;
    }
    next.grant();
  };

  const grantTo = (key: string, slot: LockSlot, owner: object): WorkspaceLock => {
    let released = false;
    const lock: WorkspaceLock = {
      release: async () => {
        if (released) return;
        released = true;
        if (slot.holderLock === lock) handOver(key, slot);
      },
    };
    slot.holder = owner;
    slot.holderLock = lock;
    return lock;
  };

  return {
    acquire(key, owner, options) {
      const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
      const signal = options.signal;
      if (signal?.aborted) return Promise.reject(abortReason(signal));
      let slot = slots.get(key);
      if (slot === undefined) {
        slot = { holder: undefined, holderLock: undefined, queue: [] };
        slots.set(key, slot);
      }
      const current = slot;
      if (current.holder === undefined) return Promise.resolve(grantTo(key, current, owner));
      return new Promise<WorkspaceLock>((resolve, reject) => {
        const leave = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          const position = current.queue.indexOf(waiter);
          if (position >= 0) current.queue.splice(position, 1);
        };
        const waiter: Waiter = {
          owner,
          grant: () => {
            leave();
            resolve(grantTo(key, current, owner));
          },
          fail: (error) => {
            leave();
            reject(error);
          },
        };
        const onAbort = () => waiter.fail(abortReason(signal as AbortSignal));
        const timer = setTimeout(
          () => waiter.fail(new WorkspaceError("locked", `lock ${key}: still held by another writer after ${timeoutMs} ms`, { path: key, operation: "lock" })),
          Math.max(0, timeoutMs),
        );
        signal?.addEventListener("abort", onAbort, { once: true });
        current.queue.push(waiter);
      });
    },
    dropOwner(owner, error) {
      for (const [key, slot] of [...slots]) {
        for (const waiter of slot.queue.filter((entry) => entry.owner === owner)) waiter.fail(error());
        if (slot.holder === owner) handOver(key, slot);
      }
    },
  };
}
