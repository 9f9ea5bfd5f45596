import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ExecaProcessRunner } from "@agent-tools/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settingsSection } from "./client-capabilities.js";
import type { LanguageServerConfig } from "./language-server-config.js";
import { createLanguageServerManager } from "./language-server-manager.js";

const FAKE_SERVER = fileURLToPath(new URL("../protocol/__fixtures__/fake-server.cjs", import.meta.url));

const fakeConfig = (extra: Partial<LanguageServerConfig> = {}): LanguageServerConfig => ({
  id: "fake",
  extensions: [".fk"],
  languageId: () => "fake",
  command: process.execPath,
  args: [FAKE_SERVER],
  ...extra,
});

/** Alive and not a zombie (PID 1 here does not reap). */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

async function until(check: () => boolean): Promise<void> {
  const end = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("manager lifecycle (a scripted server process)", () => {
  let root: string;
  const runner = new ExecaProcessRunner();

  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), "lsp-lifecycle-")));
    for (const name of ["a", "b", "c"]) await writeFile(join(root, `${name}.fk`), name);
  });
  afterAll(async () => {
    await runner.close();
    await rm(root, { recursive: true, force: true });
  });
  const manager = (extra: Parameters<typeof createLanguageServerManager>[0] extends infer O ? Partial<O> : never = {}) =>
    createLanguageServerManager({ workspaceRoot: root, processes: runner, readFile: (path) => readFile(path), servers: [fakeConfig()], ...extra });

  it("stops an idle server and starts a new one on the next request (not a restart)", async () => {
    const servers = manager({ idleStopMs: 100 });
    try {
      await servers.request(join(root, "a.fk"), "echo", () => 1);
      const pid = servers.status()[0]?.pid;
      await until(() => servers.status()[0]?.state === "stopped");
      expect(servers.status()[0]).not.toHaveProperty("pid");
      await servers.request(join(root, "a.fk"), "echo", () => 1);
      expect(servers.status()[0]).toMatchObject({ state: "running", restarts: 0 });
      expect(servers.status()[0]?.pid).not.toBe(pid);
    } finally {
      await servers.close();
    }
  });

  it("LRU: opening a third document past maxOpenDocuments=2 closes the least recently used", async () => {
    const servers = manager({ maxOpenDocuments: 2 });
    try {
      const uri = (name: string) => servers.uriOfPath(join(root, name));
      await servers.request(join(root, "a.fk"), "echo", () => 1);
      await servers.request(join(root, "b.fk"), "echo", () => 1);
      await servers.request(join(root, "a.fk"), "echo", () => 1);
      await servers.request(join(root, "c.fk"), "echo", () => 1);
      const log = await servers.request<string[]>(join(root, "c.fk"), "log", () => null);
      expect(log.filter((line) => line.startsWith("textDocument/"))).toEqual([
        `textDocument/didOpen ${uri("a.fk")}`,
        `textDocument/didOpen ${uri("b.fk")}`,
        `textDocument/didClose ${uri("b.fk")}`,
        `textDocument/didOpen ${uri("c.fk")}`,
      ]);
      expect(servers.status()[0]?.openDocuments).toBe(2);
      await writeFile(join(root, "a.fk"), "a2");
      await servers.filesChanged([{ path: join(root, "a.fk"), change: "modified" }]);
      const after = await servers.request<string[]>(join(root, "c.fk"), "log", () => null);
      expect(after.slice(log.length)).toEqual([`textDocument/didChange ${uri("a.fk")}`, "workspace/didChangeWatchedFiles"]);
    } finally {
      await servers.close();
    }
  });

  it("spawns through confine, with a minimal environment (no host secrets) plus the config's env", async () => {
    process.env.AGENT_TOOLS_TEST_SECRET = "hunter2";
    const confined: string[] = [];
    const servers = createLanguageServerManager({
      workspaceRoot: root,
      processes: runner,
      readFile: (path) => readFile(path),
      servers: [fakeConfig({ env: { EXTRA: "1" } })],
      confine: (spawn) => {
        confined.push(spawn.command);
        return { ...spawn, args: [...(spawn.args ?? []), "--confined"] };
      },
    });
    try {
      const { env, argv, cwd } = await servers.request<{ env: Record<string, string>; argv: string[]; cwd: string }>(join(root, "a.fk"), "env", () => null);
      expect(confined).toEqual([process.execPath]);
      expect(argv).toEqual(["--confined"]);
      expect(cwd).toBe(root);
      expect(env.AGENT_TOOLS_TEST_SECRET).toBeUndefined();
      expect(Object.keys(env).filter((key) => !key.startsWith("__") && key !== "PWD" && key !== "SHLVL" && key !== "_")).toEqual(
        expect.arrayContaining(["PATH", "LANG", "EXTRA"]),
      );
      expect(env.EXTRA).toBe("1");
    } finally {
      delete process.env.AGENT_TOOLS_TEST_SECRET;
      await servers.close();
    }
  });

  it("a root marker picks the nearest ancestor holding it as the server's root", async () => {
    await mkdir(join(root, "pkg", "src"), { recursive: true });
    await writeFile(join(root, "pkg", "marker.toml"), "");
    await writeFile(join(root, "pkg", "src", "d.fk"), "d");
    const servers = createLanguageServerManager({
      workspaceRoot: root,
      processes: runner,
      readFile: (path) => readFile(path),
      servers: [fakeConfig({ rootMarkers: ["marker.toml"] })],
    });
    try {
      const { cwd } = await servers.request<{ cwd: string }>(join(root, "pkg", "src", "d.fk"), "env", () => null);
      await servers.request(join(root, "a.fk"), "echo", () => 1);
      expect(cwd).toBe(join(root, "pkg"));
      expect(servers.status().map((entry) => entry.root)).toEqual([join(root, "pkg"), root]);
    } finally {
      await servers.close();
    }
  });

  it("concurrent first requests start one server; past 8 roots the least recently used stops; close leaves none", async () => {
    for (let index = 0; index < 9; index += 1) {
      await mkdir(join(root, `r${index}`), { recursive: true });
      await writeFile(join(root, `r${index}`, "marker.toml"), "");
      await writeFile(join(root, `r${index}`, "x.fk"), "x");
    }
    const servers = createLanguageServerManager({
      workspaceRoot: root,
      processes: runner,
      readFile: (path) => readFile(path),
      servers: [fakeConfig({ rootMarkers: ["marker.toml"] })],
    });
    try {
      await Promise.all([0, 1, 2].map(() => servers.request(join(root, "r0", "x.fk"), "echo", () => 1)));
      expect(servers.status().length).toBe(1);
      for (let index = 1; index < 9; index += 1) await servers.request(join(root, `r${index}`, "x.fk"), "echo", () => 1);
      await until(() => servers.status().filter((entry) => entry.state === "running").length === 8);
      expect(servers.status().find((entry) => entry.root === join(root, "r0"))?.state).toBe("stopped");
      const pids = servers.status().flatMap((entry) => (entry.pid ? [entry.pid] : []));
      await servers.close();
      expect(pids.filter(isAlive)).toEqual([]);
    } finally {
      await servers.close();
    }
  });

  it("a file over 8 MiB is refused with too_large and never sent", async () => {
    await writeFile(join(root, "big.fk"), Buffer.alloc(8 * 1024 * 1024 + 1, 0x61));
    const servers = manager();
    try {
      await expect(servers.request(join(root, "big.fk"), "echo", () => 1)).rejects.toMatchObject({ code: "too_large" });
      const log = await servers.request<string[]>(join(root, "a.fk"), "log", () => null);
      expect(log.some((line) => line.includes("big.fk"))).toBe(false);
    } finally {
      await servers.close();
    }
  });

  it("a duplicate server id is a host error; files no server handles have no config", () => {
    expect(() =>
      createLanguageServerManager({ workspaceRoot: root, processes: runner, readFile: (path) => readFile(path), servers: [fakeConfig(), fakeConfig()] }),
    ).toThrow(/the id "fake" is used twice/);
    expect(manager().configFor(join(root, "x.txt"))).toBeUndefined();
  });

  it("server requests: configuration by section and workspace folders answered; workspace/applyEdit refused (method not found)", async () => {
    const servers = createLanguageServerManager({
      workspaceRoot: root,
      processes: runner,
      readFile: (path) => readFile(path),
      servers: [fakeConfig({ settings: { fake: { level: 3 } } })],
    });
    try {
      const ask = (method: string, params: unknown) =>
        servers.request<{ answer: unknown; error: unknown }>(join(root, "a.fk"), "ask", () => ({ method, params }));
      expect(await ask("workspace/configuration", { items: [{ section: "fake.level" }, { section: "other" }] })).toEqual({ answer: [3, null], error: null });
      expect(await ask("workspace/workspaceFolders", null)).toEqual({ answer: [{ uri: servers.uriOfPath(root), name: root.split("/").pop() }], error: null });
      const edit = await ask("workspace/applyEdit", { edit: { changes: { [servers.uriOfPath(join(root, "a.fk"))]: [] } } });
      expect(edit.error).toEqual({ code: -32601, message: "method not supported by this client: workspace/applyEdit" });
    } finally {
      await servers.close();
    }
  });

  it("workspace/configuration answers the dotted section of the settings", () => {
    const settings = { python: { pythonPath: "/p", analysis: { mode: "x" } } };
    expect(settingsSection(settings, "python.analysis")).toEqual({ mode: "x" });
    expect(settingsSection(settings, "python.missing")).toBeNull();
    expect(settingsSection(settings, undefined)).toBe(settings);
    expect(settingsSection(settings, "constructor")).toBeNull();
  });
});
