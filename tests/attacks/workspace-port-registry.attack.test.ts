/**
 * Attacks on a registry on a workspace: the lexical path policy of a registry
 * on a memory workspace, the registry's `workspace` option, and the staleness
 * rules of Write and Edit on a memory workspace against the local disk.
 *
 * The model plants symlinks under the root as its own Bash could (here with
 * `MemoryWorkspace.symlink` or `fs.symlinkSync` on the host), then the tools
 * act. Shared set-up: `__fixtures__/workspace-port.ts`.
 */
import fs from "node:fs";
import path from "node:path";
import { SdkError } from "@agent-tools/core";
import { type Workspace, createMemoryWorkspace } from "@agent-tools/core/workspace";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { describe, expect, it } from "vitest";
import { call, rejection, useWorkspacePortTemporary, workspaceCode } from "./__fixtures__/workspace-port.js";

const { temporary, hostTree } = useWorkspacePortTemporary();

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
