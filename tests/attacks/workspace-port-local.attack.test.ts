/**
 * Attacks on the Workspace port's local adapter used directly by a host
 * (`createLocalWorkspace(...).fs`): writes, locks, renames, unlinks, mkdirs
 * and rmdirs through a symlinked parent, a planted lock sidecar and a folder
 * flipped to a link, and reads after the host's `resolveInWorkspace`.
 *
 * The model plants symlinks under the root as its own Bash could (here with
 * `fs.symlinkSync` on the host), then the host acts. Shared set-up:
 * `__fixtures__/workspace-port.ts`.
 */
import fs from "node:fs";
import path from "node:path";
import { WorkspaceError, resolveInWorkspace } from "@agent-tools/core/workspace";
import { createLocalWorkspace } from "@agent-tools/node";
import { describe, expect, it } from "vitest";
import { ROUNDS, snapshot, useWorkspacePortTemporary, workspaceCode } from "./__fixtures__/workspace-port.js";

const { hostTree } = useWorkspacePortTemporary();

describe("createLocalWorkspace used directly: every change stays below the root", () => {
  it("a symlinked parent leading out refuses writeFileAtomic, lock, unlink, rename, mkdir and rmdir (out_of_bounds); nothing outside changes", async () => {
    const { root, outside } = hostTree("parents");
    fs.symlinkSync(outside, path.join(root, "out"));
    fs.writeFileSync(path.join(root, "mine.txt"), "mine\n");
    const before = snapshot(outside);
    const workspace = await createLocalWorkspace({ root });
    try {
      expect(workspace.capabilities.anchoredOpens).toBe(true);
      const out = path.join(root, "out");
      const attempts: Record<string, () => Promise<unknown>> = {
        writeFileAtomic: () => workspace.fs.writeFileAtomic(`${out}/victim.txt`, Buffer.from("pwned\n")),
        writeExclusive: () => workspace.fs.writeFileAtomic(`${out}/new.txt`, Buffer.from("pwned\n"), { exclusive: true }),
        writeStream: () =>
          workspace.fs.writeFileAtomic(
            `${out}/streamed.txt`,
            (async function* () {
              yield Buffer.from("pwned\n");
            })(),
          ),
        lock: () => workspace.fs.lock(`${out}/victim.txt`, { timeoutMs: 100 }),
        unlink: () => workspace.fs.unlink(`${out}/victim.txt`),
        renameOut: () => workspace.fs.rename(path.join(root, "mine.txt"), `${out}/mine.txt`),
        renameIn: () => workspace.fs.rename(`${out}/victim.txt`, path.join(root, "taken.txt")),
        mkdir: () => workspace.fs.mkdir(`${out}/made`),
        mkdirRecursive: () => workspace.fs.mkdir(`${out}/made/deeper`, { recursive: true }),
        rmdir: () => workspace.fs.rmdir(`${out}/empty`),
        nestedLink: () => workspace.fs.writeFileAtomic(`${root}/a/../out/victim.txt`, Buffer.from("pwned\n")),
      };
      for (const [name, attempt] of Object.entries(attempts)) expect(await workspaceCode(attempt), name).toBe("out_of_bounds");
      // The root itself cannot be removed or renamed away either.
      expect(await workspaceCode(() => workspace.fs.rmdir(root))).toBe("out_of_bounds");
      expect(await workspaceCode(() => workspace.fs.rename(root, `${root}-moved`))).toBe("out_of_bounds");
    } finally {
      await workspace.close();
    }
    expect(snapshot(outside)).toEqual(before);
    expect(fs.readFileSync(path.join(root, "mine.txt"), "utf8")).toBe("mine\n");
  });

  it("the lock sidecar planted as a symlink to an outside file is never written through by lock or writeFileAtomic", async () => {
    const { root, outside } = hostTree("sidecars");
    fs.writeFileSync(path.join(root, "a.txt"), "a\n");
    fs.symlinkSync(path.join(outside, "victim.txt"), path.join(root, ".a.txt.agent-tools.lock"));
    const before = snapshot(outside);
    const workspace = await createLocalWorkspace({ root });
    try {
      const lock = await workspace.fs.lock(path.join(root, "a.txt"), { timeoutMs: 2000 });
      await lock.release();
      await workspace.fs.writeFileAtomic(path.join(root, "a.txt"), Buffer.from("b\n"));
    } finally {
      await workspace.close();
    }
    expect(snapshot(outside)).toEqual(before);
    expect(fs.readFileSync(path.join(root, "a.txt"), "utf8")).toBe("b\n");
  });

  it(`writes racing a folder flipped to a symlink out (${ROUNDS} rounds) land inside or are refused, never outside`, async () => {
    const { root, outside } = hostTree("race-write");
    const dir = path.join(root, "dir");
    fs.mkdirSync(dir);
    const before = snapshot(outside);
    const workspace = await createLocalWorkspace({ root });
    let flipping = true;
    const flipper = (async () => {
      while (flipping) {
        try {
          fs.rmSync(dir, { recursive: true, force: true });
          fs.symlinkSync(outside, dir);
          await new Promise((resolve) => setImmediate(resolve));
          fs.unlinkSync(dir);
          fs.mkdirSync(dir);
        } catch {
          // a write racing in between: keep flipping
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    try {
      for (let round = 0; round < ROUNDS; round += 1) {
        await workspace.fs.writeFileAtomic(path.join(dir, "victim.txt"), Buffer.from(`pwned ${round}\n`)).catch(() => undefined);
        await workspace.fs.unlink(path.join(dir, "secret.txt")).catch(() => undefined);
        const lock = await workspace.fs.lock(path.join(dir, "secret.txt"), { timeoutMs: 50 }).catch(() => undefined);
        await lock?.release();
      }
    } finally {
      flipping = false;
      await flipper;
      await workspace.close();
    }
    expect(snapshot(outside)).toEqual(before);
  });

  it("resolveInWorkspace then readFile: a folder swapped for a symlink out between the two (anchoredOpens) shows nothing outside", async () => {
    const { root, outside } = hostTree("read-split");
    const dir = path.join(root, "dir");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "secret.txt"), "inside\n");
    const workspace = await createLocalWorkspace({ root });
    try {
      const checked = await resolveInWorkspace(workspace.fs, workspace.root, path.join(dir, "secret.txt"));
      expect(checked.canonicalPath).toBe(path.join(dir, "secret.txt"));
      // The model's Bash, between the host's check and its read.
      fs.rmSync(dir, { recursive: true });
      fs.symlinkSync(outside, dir);
      const read = await workspace.fs.readFile(checked.canonicalPath).then(
        (bytes) => bytes.toString(),
        (error: unknown) => (error instanceof WorkspaceError ? error.code : String(error)),
      );
      expect(read).toBe("out_of_bounds");
      const streamed = await (async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of workspace.fs.readStream(checked.canonicalPath)) chunks.push(chunk);
        return Buffer.concat(chunks).toString();
      })().catch((error: unknown) => (error instanceof WorkspaceError ? error.code : String(error)));
      expect(streamed).toBe("out_of_bounds");
    } finally {
      await workspace.close();
    }
  });

  it("a `..` after a symlink: resolveInWorkspace places the path inside (lexically), so readFile of the same path must not read outside", async () => {
    const { root, outside } = hostTree("dotdot");
    fs.mkdirSync(path.join(outside, "deep"));
    fs.symlinkSync(path.join(outside, "deep"), path.join(root, "link"));
    fs.writeFileSync(path.join(root, "secret.txt"), "inside\n");
    const workspace = await createLocalWorkspace({ root });
    try {
      const asked = `${root}/link/../secret.txt`;
      const checked = await resolveInWorkspace(workspace.fs, workspace.root, asked);
      expect(checked.canonicalPath).toBe(path.join(root, "secret.txt"));
      const read = await workspace.fs.readFile(asked).then(
        (bytes) => bytes.toString(),
        (error: unknown) => (error instanceof WorkspaceError ? error.code : String(error)),
      );
      expect(read).not.toBe("OUTSIDE SECRET\n");
    } finally {
      await workspace.close();
    }
  });
});
