/**
 * ApplyPatch through `executeToolCall` on the three places a registry edits
 * files: the local disk, a memory workspace and an SSH workspace (the real
 * OpenSSH server of @agent-tools/ssh/testing). The same scenarios on each:
 * a 5-file patch whose last hunk fails writes nothing; a patch that adds,
 * updates, moves and deletes keeps line endings, BOM and modes, and a
 * checkpoint rewind puts every file back; an existing file is never
 * overwritten by an Add or a Move; a symlink leading out of the root is
 * refused.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createFileCheckpoints, InMemoryCheckpointStore } from "@agent-tools/checkpoints";
import { createToolRegistry, toolResultText } from "@agent-tools/core";
import { createMemoryWorkspace, type Workspace } from "@agent-tools/core/workspace";
import { createSshWorkspace } from "@agent-tools/ssh";
import { startTestSshd, type TestSshd } from "@agent-tools/ssh/testing";
import { createFsToolBundle } from "@agent-tools/tools-fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "apply-patch-places-")));
let sshd: TestSshd | undefined;
beforeAll(async () => {
  sshd = await startTestSshd();
}, 60_000);
afterAll(async () => {
  await sshd?.stop();
  fs.rmSync(temporary, { recursive: true, force: true });
});

/** What a scenario sees of a file: its bytes (hex), mtime and permission bits; undefined when absent. */
interface FileFacts {
  readonly bytes: string;
  readonly mtimeMs: number;
  readonly mode: number;
}

/** A place files are edited in, with a registry of the file tools over it. */
interface Place {
  readonly root: string;
  readonly workspace: Workspace | undefined;
  put(relative: string, content: string | Buffer, mode?: number): Promise<void>;
  facts(relative: string): Promise<FileFacts | undefined>;
  /** Makes `relative` a symlink to `target` (undefined: the place cannot make symlinks). */
  symlink: ((target: string, relative: string) => Promise<void>) | undefined;
  close(): Promise<void>;
}

let counter = 0;

function localFacts(file: string): FileFacts | undefined {
  try {
    const stat = fs.statSync(file);
    return { bytes: fs.readFileSync(file).toString("hex"), mtimeMs: stat.mtimeMs, mode: stat.mode & 0o7777 };
  } catch {
    return undefined;
  }
}

async function localPlace(): Promise<Place> {
  const root = fs.mkdtempSync(path.join(temporary, "local-"));
  return {
    root,
    workspace: undefined,
    async put(relative, content, mode) {
      const file = path.join(root, relative);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
      if (mode !== undefined) fs.chmodSync(file, mode);
    },
    facts: async (relative) => localFacts(path.join(root, relative)),
    symlink: async (target, relative) => fs.symlinkSync(target, path.join(root, relative)),
    close: async () => undefined,
  };
}

async function memoryPlace(): Promise<Place> {
  const root = `/srv/apply-${++counter}`;
  const workspace = createMemoryWorkspace({ root });
  return {
    root,
    workspace,
    async put(relative, content, mode) {
      const file = `${root}/${relative}`;
      await workspace.fs.mkdir(path.posix.dirname(file), { recursive: true });
      await workspace.fs.writeFileAtomic(file, Buffer.from(content), mode === undefined ? {} : { mode });
    },
    async facts(relative) {
      const file = `${root}/${relative}`;
      try {
        const stat = await workspace.fs.stat(file);
        return { bytes: (await workspace.fs.readFile(file)).toString("hex"), mtimeMs: stat.mtimeMs, mode: stat.mode & 0o7777 };
      } catch {
        return undefined;
      }
    },
    symlink: undefined,
    close: () => workspace.close(),
  };
}

async function sshPlace(): Promise<Place> {
  if (sshd === undefined) throw new Error("the test sshd did not start");
  const root = `${sshd.root}/apply-${process.pid}-${++counter}`;
  const workspace = await createSshWorkspace({ ...sshd.connectOptions, root: sshd.root });
  await workspace.fs.mkdir(root);
  return {
    root,
    workspace,
    async put(relative, content, mode) {
      const file = `${root}/${relative}`;
      await workspace.fs.mkdir(path.posix.dirname(file), { recursive: true });
      await workspace.fs.writeFileAtomic(file, Buffer.from(content), mode === undefined ? {} : { mode });
    },
    // The server runs on this machine: its files are read here, with the disk's own mtimes (SFTP's are whole seconds).
    facts: async (relative) => localFacts(path.join(root, relative)),
    async symlink(target, relative) {
      const link = path.join(root, relative);
      fs.symlinkSync(target, link);
      const owner = fs.statSync(root);
      fs.lchownSync(link, owner.uid, owner.gid);
    },
    close: () => workspace.close(),
  };
}

const PLACES: ReadonlyArray<[string, () => Promise<Place>]> = [
  ["the local disk", localPlace],
  ["a memory workspace", memoryPlace],
  ["an SSH workspace", sshPlace],
];

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");
const hex = (text: string) => Buffer.from(text).toString("hex");

describe.each(PLACES)("ApplyPatch on %s", (_name, makePlace) => {
  async function open() {
    const place = await makePlace();
    const checkpoints = createFileCheckpoints({ store: new InMemoryCheckpointStore() });
    const dataDir = fs.mkdtempSync(path.join(temporary, "data-"));
    const registry = createToolRegistry({
      workdir: place.root,
      dataDir,
      ports: { ...(place.workspace ? { workspace: place.workspace } : {}), fileCheckpoints: checkpoints },
      bundles: [createFsToolBundle()],
      loopBreaker: false,
    });
    const call = async (name: string, args: Record<string, unknown>, checkpointId?: string) => {
      const result = await registry.executeToolCall({ id: `p${++counter}`, name, arguments: args }, checkpointId ? { checkpointId } : undefined);
      return { ...result, text: toolResultText(result) };
    };
    const close = async () => {
      await registry.close();
      await place.close();
    };
    return { place, checkpoints, call, close };
  }

  it("writes nothing when the last hunk of a patch touching 5 files fails", async () => {
    const { place, call, close } = await open();
    try {
      const names = ["one.txt", "two.txt", "sub/three.txt", "four.txt", "five.txt"];
      for (const name of names) await place.put(name, `head of ${name}\nmiddle\ntail\n`);
      // Time passes, so a rewrite would show in the mtimes even on a clock of whole milliseconds.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const before = await Promise.all(names.map((name) => place.facts(name)));
      const result = await call("ApplyPatch", {
        patch: patch(
          ...names.flatMap((name, index) => [`*** Update File: ${name}`, "@@", index === 4 ? "-not in the file" : `-head of ${name}`, `+HEAD of ${name}`]),
          "*** Add File: fresh/dir/new.txt",
          "+new",
        ),
      });
      expect(result.isError).toBe(true);
      expect(result.details).toMatchObject({ code: "edit_no_match" });
      expect(result.text).toContain("five.txt");
      expect(await Promise.all(names.map((name) => place.facts(name)))).toEqual(before);
      expect(await place.facts("fresh/dir/new.txt")).toBeUndefined();
    } finally {
      await close();
    }
  });

  it("adds, updates, moves and deletes in one checkpoint, keeping endings, BOM and modes; the rewind restores every file", async () => {
    const { place, checkpoints, call, close } = await open();
    try {
      await place.put("win.txt", "one\r\ntwo\r\n");
      await place.put("bom.txt", "\uFEFFa\nb");
      await place.put("run.sh", "#!/bin/sh\necho one\n", 0o750);
      await place.put("gone.txt", "bye\n", 0o600);
      const result = await call(
        "ApplyPatch",
        {
          patch: patch(
            "*** Update File: win.txt",
            "@@",
            "-two",
            "+TWO",
            "*** Update File: bom.txt",
            "@@",
            " a",
            "-b",
            "+B",
            "*** Update File: run.sh",
            "*** Move to: bin/run.sh",
            "@@",
            "-echo one",
            "+echo two",
            "*** Delete File: gone.txt",
            "*** Add File: docs/new.md",
            "+# new",
          ),
        },
        "turn-1",
      );
      expect(result.isError, result.text).toBe(false);
      expect((await place.facts("win.txt"))?.bytes).toBe(hex("one\r\nTWO\r\n"));
      expect((await place.facts("bom.txt"))?.bytes).toBe(hex("\uFEFFa\nB"));
      expect(await place.facts("run.sh")).toBeUndefined();
      expect(await place.facts("bin/run.sh")).toMatchObject({ bytes: hex("#!/bin/sh\necho two\n"), mode: 0o750 });
      expect(await place.facts("gone.txt")).toBeUndefined();
      expect((await place.facts("docs/new.md"))?.bytes).toBe(hex("# new\n"));

      const report = await checkpoints.rewindCheckpoint("turn-1", place.workspace ? { workspace: place.workspace } : {});
      expect(report.conflicts).toEqual([]);
      expect((await place.facts("win.txt"))?.bytes).toBe(hex("one\r\ntwo\r\n"));
      expect((await place.facts("bom.txt"))?.bytes).toBe(hex("\uFEFFa\nb"));
      expect(await place.facts("run.sh")).toMatchObject({ bytes: hex("#!/bin/sh\necho one\n"), mode: 0o750 });
      expect(await place.facts("bin/run.sh")).toBeUndefined();
      expect(await place.facts("gone.txt")).toMatchObject({ bytes: hex("bye\n"), mode: 0o600 });
      expect(await place.facts("docs/new.md")).toBeUndefined();
    } finally {
      await close();
    }
  });

  it("never overwrites with an Add of an unread file or a Move", async () => {
    const { place, call, close } = await open();
    try {
      await place.put("a.txt", "a\n");
      await place.put("b.txt", "b\n");
      const add = await call("ApplyPatch", { patch: patch("*** Add File: b.txt", "+new") });
      expect(add.details).toMatchObject({ code: "conflict" });
      const move = await call("ApplyPatch", { patch: patch("*** Update File: a.txt", "*** Move to: b.txt", "@@", "-a", "+A") });
      expect(move.details).toMatchObject({ code: "conflict" });
      expect([(await place.facts("a.txt"))?.bytes, (await place.facts("b.txt"))?.bytes]).toEqual([hex("a\n"), hex("b\n")]);
    } finally {
      await close();
    }
  });

  it("refuses a symlink that leads out of the root, writing nothing", async () => {
    const { place, call, close } = await open();
    try {
      if (place.symlink === undefined) return;
      const outside = fs.mkdtempSync(path.join(temporary, "outside-"));
      fs.writeFileSync(path.join(outside, "secret.txt"), "secret\n");
      // Readable and writable by the SSH account too: only the root check stands between it and the file.
      fs.chmodSync(temporary, 0o755);
      fs.chmodSync(outside, 0o777);
      fs.chmodSync(path.join(outside, "secret.txt"), 0o666);
      await place.put("a.txt", "a\n");
      await place.symlink(path.join(outside, "secret.txt"), "link.txt");
      const result = await call("ApplyPatch", {
        patch: patch("*** Update File: a.txt", "@@", "-a", "+A", "*** Update File: link.txt", "@@", "-secret", "+leaked"),
      });
      expect(result.details).toMatchObject({ code: "out_of_bounds" });
      expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("secret\n");
      expect((await place.facts("a.txt"))?.bytes).toBe(hex("a\n"));
    } finally {
      await close();
    }
  });
});
