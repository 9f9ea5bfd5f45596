/**
 * Attacks on a registry built on an SSH workspace (`createSshWorkspace` of
 * `@agent-tools/ssh`, a real OpenSSH server from `startTestSshd`), played by
 * a model calling `executeToolCall` whose Bash runs on the remote machine as
 * the SSH user, so it can plant files there at will; paths:
 *
 * - containment of Read, Write, Edit, Delete, List, Glob, Grep and Image:
 *   remote symlinks to outside planted before the call, `..`, absolute and
 *   `root://` paths, a symlinked workdir, a planted lock file;
 * - file names with newlines, quotes, `$()` and leading dashes given to a
 *   ripgrep run on the remote machine (Grep, Glob);
 * - the registry never reads or writes a local file for a workspace path
 *   (the "remote" machine is this host, so a root-only local file tells a
 *   local read from a remote one).
 *
 * Runs as root (the test sshd's dedicated account `agtssh`); skipped otherwise.
 * Shared set-up: `__fixtures__/ssh-workspace.ts` (each file starts its own sshd).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Workspace } from "@agent-tools/core/workspace";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import type { TestSshd } from "@agent-tools/ssh/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { RG, asRoot, snapshot, useSshWorkspaceHarness } from "./__fixtures__/ssh-workspace.js";

const harness = useSshWorkspaceHarness();
const { localTemporary, cleanups, asUser, openWorkspace, scene, call } = harness;
let sshd: TestSshd;
let home: string;
beforeAll(() => {
  if (!asRoot) return;
  sshd = harness.sshd;
  home = harness.home;
});

describe.skipIf(!asRoot)("attack: an SSH workspace through the tools", () => {
  it("planted remote symlinks, .., absolute and root:// paths reach nothing outside the root", async () => {
    const { workdir, docs, outside, registry } = await scene({ additionalRoot: true });
    asUser(
      [
        `cd '${workdir}'`,
        `ln -s '${outside}/secret.txt' leak.txt`,
        `ln -s '${outside}/dir' linkdir`,
        `ln -s '${outside}' '${docs}/out'`,
        `ln -s '${outside}/secret.txt' '${docs}/leak.txt'`,
        `ln -s ../../outside-x/nothing dangling.txt`,
        `ln -s '${outside}/secret.txt' shot.png`,
        "printf 'inside\\n' > sub/in.txt",
      ].join(" && "),
    );
    const before = snapshot(outside);
    const rel = path.relative(workdir, `${outside}/secret.txt`);
    const reads = [
      "leak.txt",
      "linkdir/inner.txt",
      rel,
      `${outside}/secret.txt`,
      `sub/../../../outside-${path.basename(workdir)}/secret.txt`,
      "root://docs/out/secret.txt",
      "root://docs/leak.txt",
      "root://docs/../../../secret.txt",
      `root://docs/../${rel}`,
    ];
    for (const p of reads) {
      const read = await call(registry, "Read", { path: p });
      expect(read.text, `Read ${p}`).not.toContain("OUTSIDE");
      expect(read.isError, `Read ${p}: ${read.text}`).toBe(true);
    }
    for (const p of ["shot.png", `${outside}/secret.txt`]) {
      const image = await call(registry, "Image", { path: p });
      expect(image.isError, `Image ${p}`).toBe(true);
      expect(image.text).not.toContain("OUTSIDE");
    }
    for (const p of [
      "leak.txt",
      "linkdir/new.txt",
      "linkdir/inner.txt",
      `${outside}/secret.txt`,
      "root://docs/out/new.txt",
      "root://docs/leak.txt",
      "dangling.txt",
    ]) {
      const written = await call(registry, "Write", { path: p, content: "PWNED\n" });
      expect(written.isError, `Write ${p}: ${written.text}`).toBe(true);
      const edited = await call(registry, "Edit", { path: p, old_string: "OUTSIDE-SECRET", new_string: "PWNED" });
      expect(edited.isError, `Edit ${p}`).toBe(true);
    }
    for (const p of ["linkdir/inner.txt", `${outside}/secret.txt`, "root://docs/out/secret.txt"]) {
      const deleted = await call(registry, "Delete", { path: p });
      expect(deleted.isError, `Delete ${p}: ${deleted.text}`).toBe(true);
    }
    // Delete of the link itself removes the link, never its target.
    const unlinked = await call(registry, "Delete", { path: "leak.txt" });
    expect(unlinked.isError, unlinked.text).toBe(false);
    for (const [tool, args] of [
      ["List", { path: "linkdir" }],
      ["List", { path: "root://docs/out" }],
      ["List", { path: outside }],
      ["Glob", { pattern: "**/*.txt" }],
      ["Glob", { pattern: "*", path: "linkdir" }],
      ["Glob", { pattern: "**/*", path: "root://docs" }],
      ["Grep", { pattern: "OUTSIDE", output_mode: "content" }],
      ["Grep", { pattern: "OUTSIDE", path: "linkdir", output_mode: "content" }],
      ["Grep", { pattern: "OUTSIDE", path: "root://docs", output_mode: "content" }],
      ["Grep", { pattern: "OUTSIDE", path: "root://docs/leak.txt", output_mode: "content" }],
    ] as const) {
      const listed = await call(registry, tool, args);
      expect(listed.text, `${tool} ${JSON.stringify(args)}`).not.toMatch(/OUTSIDE-SECRET|OUTSIDE-DIR-FILE|inner\.txt/);
    }
    expect(snapshot(outside)).toEqual(before);
    expect(fs.lstatSync(`${outside}/secret.txt`).isFile()).toBe(true);
  }, 120_000);

  it("refuses a workdir or root that is a remote symlink to outside", async () => {
    const name = `wlink-${process.pid}`;
    const outside = path.join(home, `outside-${name}`);
    asUser(`mkdir -p '${outside}' && ln -sfn '${outside}' '${sshd.root}/${name}'`);
    cleanups.push(() => fs.rmSync(outside, { recursive: true, force: true }));
    const workspace = await openWorkspace();
    cleanups.push(() => workspace.close());
    await expect(
      buildBuiltinToolRegistry({ workspace, workdir: `${sshd.root}/${name}`, dataDir: path.join(localTemporary, name), memory: false }),
    ).rejects.toThrow(/outside the workspace root/);
  }, 60_000);

  it("a lock file or a directory planted at the sidecar names never redirects a Write", async () => {
    const { workdir, outside, registry } = await scene();
    asUser(
      `cd '${workdir}' && printf 'v1\\n' > a.txt && ln -s '${outside}/secret.txt' .a.txt.agent-tools-lock && ln -s '${outside}/secret.txt' .b.txt.agent-tools-lock`,
    );
    const before = snapshot(outside);
    const a = await call(registry, "Write", { path: "a.txt", content: "v2\n" });
    const b = await call(registry, "Write", { path: "b.txt", content: "new\n" });
    expect(snapshot(outside)).toEqual(before);
    // A planted link only blocks (locked); it never gets written through.
    expect(a.isError).toBe(true);
    expect(b.isError).toBe(true);
    expect(a.text).toMatch(/lock/i);
    expect(fs.readFileSync(`${workdir}/a.txt`, "utf8")).toBe("v1\n");
  }, 60_000);

  it("file names with newlines, quotes, $() and leading dashes reach ripgrep on the remote machine as data", async () => {
    expect(fs.existsSync(RG)).toBe(true);
    const binDir = path.join(home, `bin-${process.pid}`);
    asUser(`mkdir -p '${binDir}'`);
    fs.copyFileSync(RG, path.join(binDir, "rg"));
    fs.chmodSync(path.join(binDir, "rg"), 0o755);
    cleanups.push(() => fs.rmSync(binDir, { recursive: true, force: true }));
    const base = await openWorkspace();
    // A remote machine with ripgrep on the PATH: the adapter's own runner, with the folder put first.
    const processes = base.processes!;
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
    const { workdir, registry } = await scene({ workspace });
    const marker = path.join(workdir, "INJECTED");
    const names = ["--pre=sh", "-e", "$(touch INJECTED)", "`touch INJECTED`", "a'b\"c;touch INJECTED", "line\nbreak;touch INJECTED", "--files", "-"];
    for (const name of names) fs.writeFileSync(path.join(workdir, "sub", name), "needle here\n");
    fs.writeFileSync(path.join(workdir, "sub", "sh"), "#!/bin/sh\ntouch INJECTED\n", { mode: 0o755 });
    execFileSync("chown", ["-R", `${sshd.username}:`, workdir]);
    const found = await call(registry, "Grep", { pattern: "needle", output_mode: "files" });
    expect(found.isError, found.text).toBe(false);
    expect(found.details?.engine ?? "ripgrep").toBeDefined();
    for (const pattern of ["--pre=sh", "$(touch INJECTED)", "-e", "'; touch INJECTED; '"]) {
      await call(registry, "Grep", { pattern, output_mode: "content" });
      await call(registry, "Grep", { pattern: "needle", file_pattern: pattern, output_mode: "files" });
      await call(registry, "Glob", { pattern });
    }
    for (const name of names) await call(registry, "Grep", { pattern: "needle", path: `sub/${name}`, output_mode: "content" });
    await call(registry, "Grep", { pattern: "needle", path: "sub", output_mode: "count" });
    expect(fs.existsSync(marker)).toBe(false);
    expect(fs.existsSync(path.join(workdir, "sub", "INJECTED"))).toBe(false);
  }, 120_000);

  it("never reads or writes a local file for a workspace path (a root-only local file, the dataDir)", async () => {
    const { workdir, registry, dataDir } = await scene();
    // Local root-only files: the SSH user cannot read or write them, so only a local read or write would succeed.
    fs.writeFileSync(path.join(workdir, "root-only.txt"), "LOCAL-ROOT-ONLY\n", { mode: 0o600 });
    fs.mkdirSync(path.join(workdir, "root-dir"), { mode: 0o755 });
    fs.writeFileSync(path.join(workdir, "root-dir", "f.txt"), "LOCAL-ROOT-ONLY\n", { mode: 0o644 });
    const read = await call(registry, "Read", { path: "root-only.txt" });
    expect(read.text).not.toContain("LOCAL-ROOT-ONLY");
    expect(read.isError).toBe(true);
    const grep = await call(registry, "Grep", { pattern: "LOCAL-ROOT-ONLY", output_mode: "content" });
    expect(grep.text).not.toMatch(/root-only\.txt:.*LOCAL/);
    const written = await call(registry, "Write", { path: "root-dir/new.txt", content: "x\n" });
    expect(written.isError).toBe(true);
    expect(fs.existsSync(path.join(workdir, "root-dir", "new.txt"))).toBe(false);
    const overwritten = await call(registry, "Write", { path: "root-only.txt", content: "x\n" });
    expect(overwritten.isError).toBe(true);
    expect(fs.readFileSync(path.join(workdir, "root-only.txt"), "utf8")).toBe("LOCAL-ROOT-ONLY\n");
    // The dataDir and a local-only path: absolute paths outside the workspace root.
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, "local-secret.txt"), "LOCAL-DATADIR\n");
    for (const p of [path.join(dataDir, "local-secret.txt"), path.join(localTemporary, "nowhere.txt"), "/etc/hostname"]) {
      const r = await call(registry, "Read", { path: p });
      expect(r.isError, `Read ${p}`).toBe(true);
      expect(r.text).not.toContain("LOCAL-DATADIR");
      const w = await call(registry, "Write", { path: p, content: "PWNED\n" });
      expect(w.isError, `Write ${p}`).toBe(true);
      const l = await call(registry, "List", { path: path.dirname(p) });
      expect(l.text).not.toContain("local-secret.txt");
    }
    expect(fs.existsSync(path.join(localTemporary, "nowhere.txt"))).toBe(false);
    expect(fs.readFileSync(path.join(dataDir, "local-secret.txt"), "utf8")).toBe("LOCAL-DATADIR\n");
  }, 60_000);

  // Open: anchoredOpens is false. Write resolves the path once (resolveInWorkspace), then mkdir -p, lock,
  // stat, lstat, open of the temporary file and rename all go by path over SFTP with nothing re-checked,
  // so a directory swapped for a symlink to outside in that window takes the file outside.
});
