/**
 * Attacks on ApplyPatch and Edit's multi-edit form on an SSH workspace (real
 * sshd; the model's Bash plants remote symlinks as the SSH user): links
 * leading out of the root as a leaf, as a parent and as a Move destination,
 * Delete File of a link (never its target), `..` and absolute paths, one
 * file named twice (an alias link, `./`; no deadlock on the workspace's
 * lock), and a patch whose last path is refused after others were planned:
 * nothing outside changes, nothing inside is half applied. A remote Bash
 * loop flipping `sub` to a symlink out while patches below it are applied
 * or refused (their clean-up removing the folders they made; the outside
 * folder holds empty folders of those names): nothing outside changes
 * (`ATTACK_ROUNDS` rounds).
 *
 * Runs as root (the test sshd's dedicated account); skipped otherwise.
 * Shared set-up: `__fixtures__/ssh-workspace.ts`.
 */
import fs from "node:fs";
import path from "node:path";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { describe, expect, it } from "vitest";
import { ROUNDS, asRoot, snapshot, useSshWorkspaceHarness } from "./__fixtures__/ssh-workspace.js";

const harness = useSshWorkspaceHarness();
const { localTemporary, cleanups, asUser, openWorkspace, call } = harness;

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

/** A call raced against 20 s: a call that never returns (a nested hold on one lock) is a finding. */
async function timed(registry: Parameters<typeof call>[0], name: string, args: Record<string, unknown>) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ isError: boolean; text: string; timedOut: true }>((resolve) => {
    timer = setTimeout(() => resolve({ isError: true, text: "TIMEOUT", timedOut: true }), 20_000);
  });
  const result = await Promise.race([call(registry, name, args).then((answer) => ({ ...answer, timedOut: false })), timeout]);
  clearTimeout(timer);
  return result;
}

let scenes = 0;
async function sshScene() {
  const name = `ap${(scenes += 1)}-${process.pid}`;
  const root = harness.sshd.root;
  const workdir = path.join(root, name);
  const outside = path.join(path.dirname(root), `outside-${name}`);
  asUser(
    [
      `mkdir -p '${workdir}/sub' '${outside}/dir'`,
      `printf 'OUTSIDE-SECRET\\n' > '${outside}/secret.txt'`,
      `printf 'victim\\n' > '${outside}/victim.txt'`,
      `printf 'one\\ntwo\\nthree\\n' > '${workdir}/a.txt'`,
      `printf 'keep\\n' > '${workdir}/keep.txt'`,
      `cd '${workdir}'`,
      `ln -s '${outside}/victim.txt' leak.txt`,
      `ln -s '${outside}' outdir`,
      "ln -s a.txt alias.txt",
    ].join(" && "),
  );
  cleanups.push(() => fs.rmSync(outside, { recursive: true, force: true }));
  const workspace = await openWorkspace();
  const registry = await buildBuiltinToolRegistry({
    workspace,
    workdir,
    dataDir: path.join(localTemporary, `data-${name}`),
    memory: false,
    editSurface: "both",
  });
  cleanups.push(async () => {
    await registry.close();
    await workspace.close();
  });
  return { workdir, outside, registry };
}

describe.skipIf(!asRoot)("attack: ApplyPatch on an SSH workspace", () => {
  it("links leading out, `..`, absolute paths and a refused last path change nothing outside and nothing inside", async () => {
    const { workdir, outside, registry } = await sshScene();
    const control = await timed(registry, "ApplyPatch", { patch: patch("*** Update File: keep.txt", "@@", "-keep", "+kept") });
    expect(control.isError, control.text).toBe(false);
    asUser(`printf 'keep\\n' > '${workdir}/keep.txt'`);
    await timed(registry, "Read", { path: "keep.txt" });
    const before = { outside: snapshot(outside), work: snapshot(workdir) };
    const targets = [
      "leak.txt",
      "outdir/new.txt",
      "outdir/victim.txt",
      "../x.txt",
      `${outside}/victim.txt`,
      `${workdir}/../outside-x/new.txt`,
      "sub/../../x.txt",
    ];
    for (const target of targets) {
      for (const text of [
        patch(`*** Add File: ${target}`, "+pwned"),
        patch(`*** Update File: ${target}`, "@@", "-victim", "+pwned"),
        patch(`*** Delete File: ${target}`),
        patch("*** Update File: a.txt", `*** Move to: ${target}`),
        patch("*** Update File: keep.txt", "@@", "-keep", "+changed", `*** Add File: ${target}`, "+pwned"),
      ]) {
        const result = await timed(registry, "ApplyPatch", { patch: text });
        expect(result.timedOut, text).toBe(false);
        expect(result.isError, `${text}: ${result.text}`).toBe(true);
      }
    }
    expect(snapshot(outside)).toEqual(before.outside);
    expect(snapshot(workdir)).toEqual(before.work);
  });

  it("one file named twice (an alias link, ./, b/../) is refused without a deadlock", async () => {
    const { workdir, registry } = await sshScene();
    for (const other of ["alias.txt", "./a.txt", "sub/../a.txt"]) {
      for (const text of [
        patch("*** Update File: a.txt", "@@", "-one", "+ONE", `*** Update File: ${other}`, "@@", "-three", "+THREE"),
        patch("*** Update File: a.txt", "@@", "-one", "+ONE", `*** Delete File: ${other}`),
        patch(`*** Delete File: ${other}`, "*** Update File: a.txt", "@@", "-one", "+ONE"),
      ]) {
        const result = await timed(registry, "ApplyPatch", { patch: text });
        expect(result.timedOut, text).toBe(false);
        expect(result.isError, `${text}: ${result.text}`).toBe(true);
        expect(fs.readFileSync(path.join(workdir, "a.txt"), "utf8")).toBe("one\ntwo\nthree\n");
      }
    }
  });

  it("Edit's edits through a remote link out of the root are refused; an edit failing last writes nothing", async () => {
    const { workdir, outside, registry } = await sshScene();
    const out = await timed(registry, "Edit", { path: "leak.txt", edits: [{ old_string: "victim", new_string: "pwned" }] });
    expect(out.isError).toBe(true);
    expect(fs.readFileSync(path.join(outside, "victim.txt"), "utf8")).toBe("victim\n");
    const partial = await timed(registry, "Edit", {
      path: "a.txt",
      edits: [
        { old_string: "one", new_string: "ONE" },
        { old_string: "nothing like it", new_string: "x" },
      ],
    });
    expect(partial.isError).toBe(true);
    expect(fs.readFileSync(path.join(workdir, "a.txt"), "utf8")).toBe("one\ntwo\nthree\n");
  });

  it("patches below a folder a remote Bash loop flips to a symlink out, and their refused clean-up, touch nothing outside", async () => {
    const { workdir, outside, registry } = await sshScene();
    const rounds = ROUNDS;
    asUser(
      [
        `mkdir -p '${workdir}/sub'`,
        `printf 'alpha\\n' > '${workdir}/sub/e.txt'`,
        `cd '${outside}' && for i in $(seq 0 ${rounds}); do mkdir -p new$i/deep; printf 'OUTSIDE-$i\\n' > m$i.txt; done`,
        `cd '${workdir}/sub' && for i in $(seq 0 ${rounds}); do printf 'inside-$i\\n' > m$i.txt; done`,
      ].join(" && "),
    );
    const before = snapshot(outside);
    const flipper = `
      cd '${workdir}'
      while [ ! -e STOP ]; do
        mv sub sub.real 2>/dev/null; ln -sfn '${outside}' sub; sleep 0.002
        rm -f sub; mv sub.real sub 2>/dev/null; sleep 0.004
      done`;
    const child = (await import("node:child_process")).spawn("runuser", ["-u", harness.sshd.username, "--", "/bin/sh", "-c", flipper], { stdio: "ignore" });
    cleanups.push(() => child.kill("SIGKILL"));
    try {
      for (let round = 0; round < rounds; round += 1) {
        for (const text of [
          patch(`*** Add File: sub/new${round}/deep/n.txt`, "+inside", "*** Update File: sub/e.txt", "@@", "-no such line", "+x"),
          patch(`*** Add File: sub/new${round}/deep/n.txt`, "+inside", `*** Update File: sub/m${round}.txt`, `*** Move to: sub/moved${round}.txt`),
        ]) {
          const result = await timed(registry, "ApplyPatch", { patch: text });
          expect(result.timedOut).toBe(false);
          expect(result.text).not.toContain("OUTSIDE-");
        }
      }
    } finally {
      fs.writeFileSync(`${workdir}/STOP`, "");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    expect(snapshot(outside)).toEqual(before);
    // snapshot lists files only: the empty folders outside must all still be there too.
    for (let round = 0; round < rounds; round += 1) expect(fs.existsSync(path.join(outside, `new${round}`, "deep")), `new${round}/deep`).toBe(true);
  }, 180_000);
});
