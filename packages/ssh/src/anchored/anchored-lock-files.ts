/**
 * The steps of the SFTP file system's lock (`sftp/sftp-lock.ts`) on the
 * anchored helper: the lock file is created, read, renamed, linked and
 * removed in the directory the walk reached, so a folder swapped for a
 * symlink never puts a lock file (or its heartbeat copy) outside the root.
 */
import { WorkspaceError } from "@agent-tools/core/workspace";
import type { LockFiles } from "../sftp/sftp-lock.js";
import type { AnchoredHelper } from "./anchored-helper.js";
import { anchoredError } from "./anchored-errors.js";

/** Lock files' text read at most. */
const MAX_LOCK_BYTES = 1_024;

/**
 * Runs `step` once more when it met a dropped connection (the helper's
 * session died under it; the next one starts on the new connection). Only
 * for steps that may run twice: a look, or a removal whose second run finds
 * nothing.
 */
async function again<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (!(error instanceof WorkspaceError) || error.code !== "connection") throw error;
    return step();
  }
}

/** The lock steps on `helper`; `bound(path)` is the root a path must stay in ("" for none). */
export function anchoredLockFiles(helper: AnchoredHelper, bound: (path: string) => string, root: string): LockFiles {
  return {
    async create(file, content) {
      const [created] = await helper.call(["create", file, bound(file), content]);
      return created === "1";
    },
    async lstat(file) {
      const fields = await again(() => helper.call(["lstat", file, bound(file)])).catch(() => undefined);
      const type = fields?.[0];
      if (!fields || !type) return undefined;
      return { type, mtimeMs: Number(fields[1]) * 1_000 };
    },
    async readText(file) {
      const frame = await again(() => helper.callRaw(["small", file, bound(file), String(MAX_LOCK_BYTES)])).catch(() => undefined);
      // "O", NUL, "1" (a regular file was read), NUL, its text.
      return frame?.[2] === 0x31 ? frame.subarray(4).toString("utf8") : undefined;
    },
    async rename(from, to) {
      await helper.call(["rename", from, bound(from), to, bound(to)]);
    },
    async link(from, to) {
      await helper.call(["link", from, bound(from), to, bound(to)]);
    },
    async unlink(file) {
      await again(() => helper.call(["unlink", file, bound(file)]));
    },
    async clockOffset() {
      const before = Date.now();
      const [seconds] = await again(() => helper.call(["now"]));
      return Number(seconds) * 1_000 - (before + Date.now()) / 2;
    },
    mapError: async (error, target) => anchoredError(error, "lock", target, root),
  };
}
