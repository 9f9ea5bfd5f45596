/**
 * Red-team round on the anchored file helper of an SSH workspace
 * (`createSshWorkspace` of `@agent-tools/ssh` on a real OpenSSH server from
 * `startTestSshd`), searches: List, Glob (walked through the helper, and with
 * ripgrep on the remote machine) and Grep with remote ripgrep, while the
 * model's loop on the remote machine (its Bash runs as the workspace's own
 * Unix user) swaps a subfolder for a symlink to outside. Split from
 * ssh-helpers-redteam.attack.test.ts (same set-up).
 *
 * Runs as root (the test sshd's dedicated account `agtssh`); skipped otherwise.
 * Shared set-up: `__fixtures__/ssh-workspace.ts` (each file starts its own sshd).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Workspace } from "@agent-tools/core/workspace";
import { describe, expect, it } from "vitest";
import { RG, ROUNDS, asRoot, useSshWorkspaceHarness } from "./__fixtures__/ssh-workspace.js";

const harness = useSshWorkspaceHarness();
const { cleanups, asUser, scene, call } = harness;

/** Starts a Bash-like loop as the SSH user in the background; returns its stop. */
function userLoop(script: string): () => Promise<void> {
  // Its own process group: runuser forks, and the group kill ends the loop too.
  const child = spawn("runuser", ["-u", harness.sshd.username, "--", "/usr/bin/perl", "-e", script], { stdio: "ignore", detached: true });
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      process.kill(-(child.pid as number), "SIGKILL");
    });
}

describe.skipIf(!asRoot)("attack: the SSH workspace's remote helpers under a folder swap (red team)", () => {
  // Was open: List and Glob read subfolders by path over SFTP (readdir follows a symlink), so a subfolder the
  // model's loop swaps for a symlink to an outside folder between its parent's listing and its own was listed and
  // the outside folder's names showed (Glob answered "sub/outside-name.txt" within 3 s). Fixed: with the anchored
  // helper, readdir walks the path from / and lists the directory it entered (a symlink to outside: out_of_bounds).
  it("List and Glob never show the names of an outside folder a loop swaps in for a subfolder", async () => {
    const { workdir, outside, registry } = await scene();
    asUser(`printf 'in\\n' > '${workdir}/sub/inside-name.txt' && mv '${outside}/dir/inner.txt' '${outside}/dir/outside-name.txt'`);
    const stop = userLoop(
      `while (1) { rename "${workdir}/sub", "${workdir}/subR"; symlink "${outside}/dir", "${workdir}/sub"; unlink "${workdir}/sub"; rename "${workdir}/subR", "${workdir}/sub"; }`,
    );
    const shown: string[] = [];
    try {
      for (let round = 0; round < ROUNDS * 5; round += 1) {
        const list = await call(registry, "List", { path: ".", depth: 3 });
        const glob = await call(registry, "Glob", { pattern: "**/*.txt" });
        for (const text of [list.text, glob.text]) if (text.includes("outside-name")) shown.push(text);
        if (shown.length > 0) break;
      }
    } finally {
      await stop();
    }
    asUser(`[ -d '${workdir}/sub' ] && [ ! -L '${workdir}/sub' ] || { rm -f '${workdir}/sub'; mv '${workdir}/subR' '${workdir}/sub'; }`);
    expect(shown, "an outside folder's names").toEqual([]);
  }, 180_000);

  // Glob with ripgrep on the remote machine: `rg --files` walks by path and follows a subfolder swapped for a
  // symlink to outside; each name Glob shows is found again in an anchored listing of its folder.
  it("Glob with ripgrep on the remote machine never shows the names of an outside folder a loop swaps in for a subfolder", async () => {
    expect(fs.existsSync(RG)).toBe(true);
    const binDir = path.join(harness.home, `rgbin-glob-${process.pid}`);
    asUser(`mkdir -p '${binDir}'`);
    fs.copyFileSync(RG, path.join(binDir, "rg-real"));
    fs.chmodSync(path.join(binDir, "rg-real"), 0o755);
    // A wrapper that leaves a mark, so the test knows Glob listed with the remote rg.
    fs.writeFileSync(path.join(binDir, "rg"), `#!/bin/sh\ntouch '${binDir}/used'\nexec '${binDir}/rg-real' "$@"\n`);
    fs.chmodSync(path.join(binDir, "rg"), 0o755);
    cleanups.push(() => fs.rmSync(binDir, { recursive: true, force: true }));
    const base = await harness.openWorkspace();
    const processes = base.processes as NonNullable<Workspace["processes"]>;
    const workspace: Workspace = {
      ...base,
      capabilities: { ...base.capabilities, ripgrep: true },
      processes: {
        ...processes,
        spawn: (options) => processes.spawn({ ...options, env: { ...(options.env ?? {}), PATH: `${binDir}:/usr/bin:/bin` } }),
        close: () => processes.close(),
      } as typeof processes,
      close: () => base.close(),
    };
    const { workdir, outside, registry } = await scene({ workspace });
    asUser(`printf 'in\\n' > '${workdir}/sub/inside-name.txt' && mv '${outside}/dir/inner.txt' '${outside}/dir/outside-name.txt'`);
    const first = await call(registry, "Glob", { pattern: "**/*.txt" });
    expect(first.text).toContain("sub/inside-name.txt");
    expect(fs.existsSync(path.join(binDir, "used")), "Glob ran the remote rg").toBe(true);
    const stop = userLoop(
      `while (1) { rename "${workdir}/sub", "${workdir}/subR"; symlink "${outside}/dir", "${workdir}/sub"; select(undef, undef, undef, 0.002); unlink "${workdir}/sub"; rename "${workdir}/subR", "${workdir}/sub"; select(undef, undef, undef, 0.002); }`,
    );
    const shown: string[] = [];
    try {
      for (let round = 0; round < ROUNDS * 5 && shown.length === 0; round += 1) {
        const glob = await call(registry, "Glob", { pattern: "**/*.txt" });
        if (glob.text.includes("outside-name")) shown.push(`round ${round}: ${glob.text.slice(0, 200)}`);
      }
    } finally {
      await stop();
    }
    asUser(`[ -d '${workdir}/sub' ] && [ ! -L '${workdir}/sub' ] || { rm -f '${workdir}/sub'; mv '${workdir}/subR' '${workdir}/sub'; }`);
    expect(shown).toEqual([]);
  }, 240_000);

  // Was open: ripgrep walks the tree by path, so a subfolder that was a folder when its parent was listed and
  // is a symlink to outside when rg opens it is followed, and the outside file's lines were answered (round 3
  // of the first run; the start folder's own `cd -P`/`pwd -P` check does not cover the folders below it).
  // Fixed in tools-fs's workspace Grep: with anchored opens rg only names the files with a match; each is read
  // again through the anchored helper and matched in-process, so a file reached through the swap is refused.
  it("Grep with ripgrep on the remote machine below a stable folder never shows the lines of an outside folder a loop swaps in for a subfolder", async () => {
    expect(fs.existsSync(RG)).toBe(true);
    const binDir = path.join(harness.home, `rgbin-red-${process.pid}`);
    asUser(`mkdir -p '${binDir}'`);
    fs.copyFileSync(RG, path.join(binDir, "rg"));
    fs.chmodSync(path.join(binDir, "rg"), 0o755);
    cleanups.push(() => fs.rmSync(binDir, { recursive: true, force: true }));
    const base = await harness.openWorkspace();
    // A remote machine with ripgrep on the PATH: the adapter's own runner, with the folder put first.
    const processes = base.processes as NonNullable<Workspace["processes"]>;
    const workspace: Workspace = {
      ...base,
      capabilities: { ...base.capabilities, ripgrep: true },
      processes: {
        ...processes,
        spawn: (options) => processes.spawn({ ...options, env: { ...(options.env ?? {}), PATH: `${binDir}:/usr/bin:/bin` } }),
        close: () => processes.close(),
      } as typeof processes,
      close: () => base.close(),
    };
    const { workdir, outside, registry } = await scene({ workspace });
    asUser(`printf 'INSIDE-LINE\\n' > '${workdir}/sub/inner.txt'`);
    const first = await call(registry, "Grep", { pattern: "INSIDE-LINE", path: ".", output_mode: "content" });
    expect(first.text).toContain("INSIDE-LINE");
    expect(first.details?.engine).toBe("ripgrep");
    const stop = userLoop(
      `while (1) { rename "${workdir}/sub", "${workdir}/subR"; symlink "${outside}/dir", "${workdir}/sub"; select(undef, undef, undef, 0.002); unlink "${workdir}/sub"; rename "${workdir}/subR", "${workdir}/sub"; select(undef, undef, undef, 0.002); }`,
    );
    const shown: string[] = [];
    try {
      for (let round = 0; round < ROUNDS * 5 && shown.length === 0; round += 1) {
        const grep = await call(registry, "Grep", { pattern: "(OUT|IN)SIDE-(DIR-FILE|LINE)", path: ".", output_mode: "content" });
        if (grep.text.includes("OUTSIDE-DIR-FILE")) shown.push(`round ${round}: ${grep.text.slice(0, 200)}`);
      }
    } finally {
      await stop();
    }
    asUser(`[ -d '${workdir}/sub' ] && [ ! -L '${workdir}/sub' ] || { rm -f '${workdir}/sub'; mv '${workdir}/subR' '${workdir}/sub'; }`);
    expect(shown).toEqual([]);
  }, 240_000);
});
