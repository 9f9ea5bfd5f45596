import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ToolError } from "@agent-tools/core";
import { SKILLS_ROOT_FOLDERS } from "../domain/skill-types.js";

/** What the lock file `<root>/.lock` holds. */
export interface SkillsLockHolder {
  readonly pid: number;
  readonly hostname: string;
  /** Milliseconds since the epoch. */
  readonly acquiredAt: number;
  /** Unique per acquisition, so a takeover can tell one lock from the next. */
  readonly token: string;
}

/** Options of a {@link SkillsWriteGuard}. */
export interface SkillsWriteGuardOptions {
  /** How long `run` waits for the lock before failing with `unavailable` (default 30 s). */
  readonly timeoutMs?: number;
  /** A lock file that cannot be parsed is treated as stale once older than this (default 2 s). */
  readonly unreadableGraceMs?: number;
  /** Pause after a stale-lock takeover before checking it stuck (default 50 ms). */
  readonly takeoverSettleMs?: number;
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/**
 * Serialises writes to one skills root: installs' swaps, deletes, packaging
 * and built-in seeding. Two layers:
 *
 * - an in-process promise chain (per instance), so calls of one instance run
 *   one at a time without touching the disk lock in between;
 * - a cross-process lock file `<root>/.lock` created with exclusive create
 *   (`wx`) and holding `{ pid, hostname, acquiredAt, token }`; released by
 *   deleting it (only when it is still ours).
 *
 * A lock whose holder is on this host and dead (`process.kill(pid, 0)` says
 * ESRCH) is stale, as is a lock file that cannot be parsed and is older than
 * `unreadableGraceMs` (a holder killed between creating and writing it).
 * Taking it over is done without ever deleting the lock: a fresh lock is
 * written to a private temporary file, the lock is read again and must still
 * be the same stale one (same token), and only then is the temporary file
 * renamed over it (an atomic replace). Two waiters that find the same stale
 * lock may both pass the re-check in the microseconds before either renames;
 * the later rename then wins. To catch that, a taker pauses
 * `takeoverSettleMs` after its rename and reads the lock once more: if it
 * no longer holds its own token, it lost and goes back to waiting. What is
 * left is a waiter stalled for longer than the pause between its re-check
 * and its rename, which a lock file without kernel support cannot rule out.
 * A live holder (or one on another host, whose liveness cannot be checked)
 * is waited for with a bounded backoff until `timeoutMs`, then `run` fails
 * with `unavailable` naming the holder.
 *
 * Not reentrant: `fn` must not call `run` of the same guard.
 *
 * @example
 * const guard = new SkillsWriteGuard("/home/me/.agent-tools/skills");
 * await guard.run(async () => rename(staged, target));
 */
export class SkillsWriteGuard {
  readonly #root: string;
  readonly #lockFile: string;
  readonly #timeoutMs: number;
  readonly #unreadableGraceMs: number;
  readonly #takeoverSettleMs: number;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(rootDir: string, options: SkillsWriteGuardOptions = {}) {
    this.#root = rootDir;
    this.#lockFile = path.join(rootDir, SKILLS_ROOT_FOLDERS.lock);
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#unreadableGraceMs = options.unreadableGraceMs ?? 2_000;
    this.#takeoverSettleMs = options.takeoverSettleMs ?? 50;
  }

  /** Runs `fn` while holding both locks; releases them however `fn` ends. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(async () => {
      const token = await this.#acquire();
      try {
        return await fn();
      } finally {
        await this.#release(token);
      }
    });
    // The chain continues whether this call succeeded or failed.
    this.#tail = result.catch(() => undefined);
    return result;
  }

  async #acquire(): Promise<string> {
    await mkdir(this.#root, { recursive: true, mode: 0o700 });
    const started = Date.now();
    let delay = 5;
    let holder: SkillsLockHolder | undefined;
    for (;;) {
      const token = randomBytes(8).toString("hex");
      const content = JSON.stringify(this.#holder(token));
      try {
        await writeFile(this.#lockFile, content, { flag: "wx" });
        return token;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const current = await this.#read();
      if (current === "gone") continue;
      holder = current === "unreadable" ? undefined : current;
      if (await this.#isStale(current)) {
        if (await this.#takeOver(current, token, content)) return token;
        continue;
      }
      if (Date.now() - started >= this.#timeoutMs) throw this.#timeoutError(holder);
      await sleep(delay + Math.floor(Math.random() * delay));
      delay = Math.min(delay * 2, 250);
    }
  }

  #holder(token: string): SkillsLockHolder {
    return { pid: process.pid, hostname: os.hostname(), acquiredAt: Date.now(), token };
  }

  async #read(): Promise<SkillsLockHolder | "unreadable" | "gone"> {
    let text: string;
    try {
      text = await readFile(this.#lockFile, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return "gone";
      throw error;
    }
    try {
      const parsed = JSON.parse(text) as Partial<SkillsLockHolder>;
      if (typeof parsed.pid === "number" && typeof parsed.hostname === "string" && typeof parsed.token === "string") {
        return { pid: parsed.pid, hostname: parsed.hostname, acquiredAt: Number(parsed.acquiredAt), token: parsed.token };
      }
    } catch {
      // fall through: unreadable
    }
    return "unreadable";
  }

  async #isStale(current: SkillsLockHolder | "unreadable"): Promise<boolean> {
    if (current === "unreadable") {
      try {
        return Date.now() - (await stat(this.#lockFile)).mtimeMs > this.#unreadableGraceMs;
      } catch {
        return false;
      }
    }
    if (current.hostname !== os.hostname()) return false;
    if (current.pid === process.pid) return false;
    try {
      process.kill(current.pid, 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "ESRCH";
    }
  }

  /** Replaces the stale lock `seen` by ours; see the class comment for the race handling. */
  async #takeOver(seen: SkillsLockHolder | "unreadable", token: string, content: string): Promise<boolean> {
    const temporary = `${this.#lockFile}.${process.pid}.${token}`;
    await writeFile(temporary, content, { flag: "wx" });
    try {
      const again = await this.#read();
      const same = seen === "unreadable" ? again === "unreadable" : again !== "unreadable" && again !== "gone" && again.token === seen.token;
      if (!same) return false;
      await rename(temporary, this.#lockFile);
    } finally {
      await unlink(temporary).catch(() => undefined);
    }
    await sleep(this.#takeoverSettleMs);
    const after = await this.#read();
    return after !== "unreadable" && after !== "gone" && after.token === token;
  }

  async #release(token: string): Promise<void> {
    const current = await this.#read().catch(() => "gone" as const);
    if (current !== "gone" && current !== "unreadable" && current.token === token) {
      await unlink(this.#lockFile).catch(() => undefined);
    }
  }

  #timeoutError(holder: SkillsLockHolder | undefined): ToolError {
    const who =
      holder === undefined
        ? "an unknown process (the lock file cannot be read)"
        : `process ${holder.pid} on ${holder.hostname} since ${new Date(holder.acquiredAt).toISOString()}`;
    return new ToolError(
      "unavailable",
      `The skills folder is locked by ${who}; waited ${Math.round(this.#timeoutMs / 1000)} s. Try again when it has finished; if that process no longer runs, delete ${this.#lockFile}.`,
      { details: { lockFile: this.#lockFile, holder: holder ?? null } },
    );
  }
}
