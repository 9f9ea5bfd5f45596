/**
 * Attacks on the Workspace port: the local adapter used directly by a host
 * (`createLocalWorkspace(...).fs`), the lexical path policy of a registry on
 * a memory workspace, the registry's `workspace` option, and the staleness
 * rules of Write and Edit on a workspace against the local disk.
 *
 * The model plants symlinks under the root as its own Bash could (here with
 * `fs.symlinkSync` on the host, or `MemoryWorkspace.symlink`), then the host
 * or the tools act.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SdkError, toolResultText } from "@agent-tools/core";
import { type Workspace, WorkspaceError, createMemoryWorkspace, resolveInWorkspace } from "@agent-tools/core/workspace";
import { createLocalWorkspace } from "@agent-tools/node";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const ROUNDS = Number(process.env.ATTACK_ROUNDS ?? 40);
const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-workspace-port-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

type Registry = Awaited<ReturnType<typeof buildBuiltinToolRegistry>>;

async function call(registry: Registry, name: string, args: Record<string, unknown>) {
  const result = await registry.executeToolCall({ id: `${name}-${Math.random()}`, name, arguments: args });
  return { isError: result.isError === true, text: toolResultText(result, "") };
}

async function rejection(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return undefined;
}

async function workspaceCode(run: () => Promise<unknown>): Promise<string> {
  const error = await rejection(run);
  return error instanceof WorkspaceError ? error.code : `not a WorkspaceError: ${String(error)}`;
}

/** A root and an outside folder on the host; `outside/secret.txt` and `outside/victim.txt` hold known bytes. */
function hostTree(label: string): { root: string; outside: string } {
  const root = path.join(temporary, label, "root");
  const outside = path.join(temporary, label, "outside");
  fs.mkdirSync(root, { recursive: true });
  fs.mkdirSync(path.join(outside, "empty"), { recursive: true });
  fs.writeFileSync(path.join(outside, "secret.txt"), "OUTSIDE SECRET\n");
  fs.writeFileSync(path.join(outside, "victim.txt"), "victim\n");
  return { root, outside };
}

/** Every file below `dir` with its bytes (symlinks as their target text). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const stats = fs.lstatSync(full);
    out[path.relative(dir, full)] = stats.isSymbolicLink() ? `-> ${fs.readlinkSync(full)}` : stats.isFile() ? fs.readFileSync(full, "utf8") : "dir";
  }
  return out;
}

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

describe("a registry on a memory workspace: the lexical path policy", () => {
  it("Write, Edit and Delete refuse `.git` reached through a symlink, as the local registry does", async () => {
    const memory = createMemoryWorkspace({
      root: "/ws",
      files: { ".git/config": "[core]\n\tbare = false\n", ".git/hooks/README": "hooks\n" },
      symlinks: { cfg: ".git", hookdir: "/ws/.git/hooks", conf: ".git/config" },
    });
    const registry = await buildBuiltinToolRegistry({ workspace: memory, dataDir: path.join(temporary, "git-memory"), memory: false });
    const local = hostTree("git-local").root;
    fs.mkdirSync(path.join(local, ".git/hooks"), { recursive: true });
    fs.writeFileSync(path.join(local, ".git/config"), "[core]\n\tbare = false\n");
    fs.writeFileSync(path.join(local, ".git/hooks/README"), "hooks\n");
    fs.symlinkSync(".git", path.join(local, "cfg"));
    fs.symlinkSync(path.join(local, ".git/hooks"), path.join(local, "hookdir"));
    fs.symlinkSync(".git/config", path.join(local, "conf"));
    const localRegistry = await buildBuiltinToolRegistry({ workdir: local, dataDir: path.join(temporary, "git-local-data"), memory: false });
    try {
      const attempts: Array<[string, Record<string, unknown>]> = [
        ["Write", { path: "cfg/config", content: "[core]\n\tfsmonitor = touch /tmp/pwned\n" }],
        ["Write", { path: "hookdir/pre-commit", content: "#!/bin/sh\ntouch /tmp/pwned\n" }],
        ["Write", { path: "conf", content: "[core]\n\tfsmonitor = x\n" }],
        ["Write", { path: ".GIT/config", content: "x\n" }],
        ["Delete", { path: "cfg/hooks/README" }],
      ];
      for (const [name, args] of attempts) {
        if (name !== "Write") continue;
        await call(registry, "Read", { path: String(args.path) }).catch(() => undefined);
        await call(localRegistry, "Read", { path: String(args.path) }).catch(() => undefined);
      }
      for (const [name, args] of attempts) {
        const onLocal = await call(localRegistry, name, args);
        const onMemory = await call(registry, name, args);
        expect(onLocal.isError, `local ${name} ${String(args.path)}: ${onLocal.text}`).toBe(true);
        expect(onMemory.isError, `memory ${name} ${String(args.path)}: ${onMemory.text}`).toBe(true);
      }
      expect((await memory.fs.readFile("/ws/.git/config")).toString()).toBe("[core]\n\tbare = false\n");
      expect(await workspaceCode(() => memory.fs.stat("/ws/.git/hooks/pre-commit"))).toBe("not_found");
      expect((await memory.fs.readFile("/ws/.git/hooks/README")).toString()).toBe("hooks\n");
    } finally {
      await registry.close();
      await localRegistry.close();
      await memory.close();
    }
  });

  it("hostile path forms reach nothing outside the workdir: `..`, absolute, `~`, `skill://`, unknown `root://`, backslashes, NUL, a read-only root", async () => {
    const memory = createMemoryWorkspace({
      root: "/",
      files: { "ws/a.txt": "a\n", "ro/doc.txt": "read only\n", "etc/passwd": "root:x:0:0\n" },
      symlinks: { "ws/to-ro": "/ro", "ws/to-ro-doc": "/ro/doc.txt" },
    });
    const registry = await buildBuiltinToolRegistry({
      workspace: memory,
      workdir: "/ws",
      additionalRoots: [{ alias: "ro", path: "/ro", access: "read" }],
      dataDir: path.join(temporary, "forms-data"),
      memory: false,
    });
    try {
      expect((await call(registry, "Read", { path: "root://ro/doc.txt" })).text).toContain("read only");
      const writes = [
        "../escape.txt",
        "a/../../escape.txt",
        "/escape.txt",
        "/etc/passwd",
        "~/escape.txt",
        "skill://x/SKILL.md",
        "root://nope/x.txt",
        "root://ro/new.txt",
        "root://ro/../escape.txt",
        "/ro/new.txt",
        "/ro/doc.txt",
        "to-ro/new.txt",
        "to-ro-doc",
        "..\\escape.txt",
        "a\0b.txt",
        "/ws/../etc/passwd",
      ];
      for (const target of writes) {
        const written = await call(registry, "Write", { path: target, content: "pwned\n" });
        expect(written.isError, `Write ${JSON.stringify(target)}: ${written.text}`).toBe(true);
      }
      for (const target of ["/ro/doc.txt", "to-ro-doc", "root://ro/doc.txt"]) {
        await call(registry, "Read", { path: target });
        const edited = await call(registry, "Edit", { path: target, old_string: "read only", new_string: "pwned" });
        expect(edited.isError, `Edit ${target}`).toBe(true);
      }
      for (const target of ["/ro/doc.txt", "root://ro/doc.txt", "to-ro/doc.txt"]) {
        const deleted = await call(registry, "Delete", { path: target });
        expect(deleted.isError, `Delete ${target}`).toBe(true);
      }
      // The link itself lives in the writable workdir: Delete removes the link, never the read-only file.
      expect((await call(registry, "Delete", { path: "to-ro-doc" })).isError).toBe(false);
      for (const target of ["/etc/passwd", "../etc/passwd", "a/../../etc/passwd"]) {
        const read = await call(registry, "Read", { path: target });
        expect(read.isError, `Read ${target}`).toBe(true);
        expect(read.text).not.toContain("root:x");
      }
      const top = (await memory.fs.readdir("/")).map((entry) => entry.name).sort();
      expect(top).toEqual(["etc", "ro", "ws"]);
      expect((await memory.fs.readdir("/ro")).map((entry) => entry.name)).toEqual(["doc.txt"]);
      expect((await memory.fs.readFile("/ro/doc.txt")).toString()).toBe("read only\n");
      expect((await memory.fs.readFile("/etc/passwd")).toString()).toBe("root:x:0:0\n");
      // A backslash is an ordinary name character on POSIX: if written, it stays a file inside the workdir.
      for (const entry of await memory.fs.readdir("/ws")) expect(entry.name).not.toMatch(/escape|pwned/);
    } finally {
      await registry.close();
      await memory.close();
    }
  });
});

describe("buildBuiltinToolRegistry({ workspace }): malformed workspaces fail the build", () => {
  async function buildError(options: Record<string, unknown>): Promise<SdkError | string> {
    const error = await rejection(() => buildBuiltinToolRegistry({ dataDir: path.join(temporary, "options-data"), memory: false, ...options } as never));
    if (error instanceof SdkError) return error;
    return `not an SdkError: ${String(error)}`;
  }

  it('a capabilities.localPaths that is not a boolean (the string "false") is refused, not taken as the host\'s disk', async () => {
    // A memory workspace whose root also exists on this host: with localPaths taken as true the tools would read the host's file.
    const { root } = hostTree("local-paths");
    fs.writeFileSync(path.join(root, "host-only.txt"), "HOST DISK\n");
    const memory = createMemoryWorkspace({ root, files: { "memory-only.txt": "memory\n" } });
    const workspace: Workspace = { ...memory, capabilities: { ...memory.capabilities, localPaths: "false" as unknown as boolean } };
    const error = await buildError({ workspace });
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).code).toBe("invalid_options");
    expect((error as SdkError).message).toMatch(/capabilities\.localPaths/);
  });

  it("a workspace whose fs lacks methods, or whose capabilities are missing, names the workspace option", async () => {
    const memory = createMemoryWorkspace({ root: "/ws" });
    const cases: Array<[string, unknown]> = [
      ["fs without methods", { ...memory, fs: {} }],
      ["fs without writeFileAtomic", { ...memory, fs: { ...memory.fs, writeFileAtomic: undefined } }],
      ["no capabilities", { ...memory, capabilities: undefined }],
      ["a string", "/ws"],
      ["relative root", { ...memory, root: "ws" }],
      ["processes claimed, none given", { ...memory, capabilities: { ...memory.capabilities, processes: true } }],
    ];
    for (const [label, workspace] of cases) {
      const error = await buildError({ workspace });
      expect(error, label).toBeInstanceOf(SdkError);
      expect((error as SdkError).details.option, label).toBe("workspace");
    }
    for (const [label, options] of [
      ["workdir outside the root", { workspace: memory, workdir: "/etc" }],
      ["workdir with ..", { workspace: memory, workdir: "/ws/../etc" }],
      ["sandbox on a memory workspace", { workspace: memory, sandbox: { enabled: true } }],
      ["two different workspaces", { workspace: memory, ports: { workspace: createMemoryWorkspace({ root: "/ws" }) } }],
    ] as const) {
      const error = await buildError(options);
      expect(error, label).toBeInstanceOf(SdkError);
    }
  });
});

describe("staleness: Write and Edit on a memory workspace refuse what the local registry refuses", () => {
  async function pair(label: string, files: Record<string, string>) {
    const memory = createMemoryWorkspace({ root: "/ws", files });
    const onMemory = await buildBuiltinToolRegistry({ workspace: memory, dataDir: path.join(temporary, `${label}-m`), memory: false });
    const local = hostTree(`${label}-local`).root;
    for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(local, name), content);
    const onLocal = await buildBuiltinToolRegistry({ workdir: local, dataDir: path.join(temporary, `${label}-l`), memory: false });
    const change = async (name: string, content: string) => {
      await memory.fs.writeFileAtomic(`/ws/${name}`, Buffer.from(content));
      fs.writeFileSync(path.join(local, name), content);
    };
    const both = async (tool: string, args: Record<string, unknown>) => ({
      memory: (await call(onMemory, tool, args)).isError,
      local: (await call(onLocal, tool, args)).isError,
    });
    const close = async () => {
      await onMemory.close();
      await onLocal.close();
      await memory.close();
    };
    return { both, change, close };
  }

  it("write before read, an outside change after a whole read, after a partial read, and a same-size change: both agree", async () => {
    const files = { "a.txt": "one\ntwo\nthree\n", "b.txt": "one\ntwo\nthree\n", "c.txt": "one\ntwo\nthree\n", "d.txt": "x\n" };
    const { both, change, close } = await pair("stale", files);
    try {
      const agree = async (step: string, tool: string, args: Record<string, unknown>, localRefuses: boolean) => {
        const result = await both(tool, args);
        expect(result.local, `local ${step}`).toBe(localRefuses);
        expect(result.memory, `memory ${step}`).toBe(result.local);
      };
      // Never read: Write over an existing file (both accept a whole replacement).
      await agree("write before read", "Write", { path: "d.txt", content: "y\n" }, false);
      // Whole read, outside change of another size.
      await both("Read", { path: "a.txt" });
      await change("a.txt", "one\ntwo\nthree\nfour\n");
      await agree("write after an outside change", "Write", { path: "a.txt", content: "mine\n" }, true);
      // Partial read, then the same-size change right away (an equal mtime is possible on a workspace).
      await both("Read", { path: "b.txt", limit: 1 });
      await change("b.txt", "ONE\ntwo\nthree\n");
      await agree("edit after a partial read and a same-size change", "Edit", { path: "b.txt", old_string: "two", new_string: "2" }, true);
      // Whole read, same-size change.
      await both("Read", { path: "c.txt" });
      await change("c.txt", "one\nTWO\nthree\n");
      await agree("edit after a same-size change", "Edit", { path: "c.txt", old_string: "three", new_string: "3" }, true);
      // Delete after an outside change.
      await both("Read", { path: "d.txt" });
      await change("d.txt", "z\n");
      await agree("delete after an outside change", "Delete", { path: "d.txt" }, false);
    } finally {
      await close();
    }
  });
});
