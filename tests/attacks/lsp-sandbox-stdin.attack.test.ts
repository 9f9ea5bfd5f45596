/**
 * A language server started by the LSP tool in a sandboxed registry runs
 * under bubblewrap with its stdin piped (issue 38's `stdin: "pipe"`): the
 * pipe opens no hole. A stand-in server (a host's own server config:
 * `lsp-fd-probe-server.mjs`) reports from inside what it holds: only its
 * three standard descriptors (pipes or /dev/null), no descriptor of the host
 * (the registry's database, logs, sockets), and no write to the workspace.
 * Run as root and as an unprivileged user (see docs/safety.md).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { toolResultText } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-lsp-sandbox-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));
const server = path.join(path.dirname(fileURLToPath(import.meta.url)), "lsp-fd-probe-server.mjs");
const hasBubblewrap = fs.existsSync("/usr/bin/bwrap");

describe.skipIf(!hasBubblewrap && !process.env.CI)("a sandboxed language server with a stdin pipe", () => {
  it("holds only its standard descriptors and cannot write the workspace", async () => {
    const workdir = path.join(temporary, "work");
    fs.mkdirSync(workdir, { recursive: true });
    fs.writeFileSync(path.join(workdir, "a.probe"), "probe\n");
    // Inside the workspace, so the sandbox (which hides the home folder the repository may sit in) shows it.
    const script = path.join(workdir, ".probe-server.mjs");
    fs.copyFileSync(server, script);
    const registry = await buildBuiltinToolRegistry({
      workdir,
      dataDir: path.join(temporary, "data"),
      memory: false,
      sandbox: { enabled: true },
      lsp: {
        servers: [{ id: "probe", extensions: [".probe"], languageId: () => "plaintext", command: process.execPath, args: [script] }],
        diagnosticsAfterEdits: false,
      },
      approval: { defaultDecision: "allow" },
    } as never);
    try {
      const result = await registry.executeToolCall({ id: "h", name: "LSP", arguments: { action: "hover", path: "a.probe", line: 1, character: 1 } });
      const text = toolResultText(result, "");
      expect(text, text).toContain("PROBE");
      const probe = JSON.parse(text.slice(text.indexOf("PROBE") + 5).trim()) as { fds: Record<string, string>; wrote: boolean };
      // The descriptor readdir itself holds is the directory /proc/self/fd (or its task folder).
      const held = Object.entries(probe.fds).filter(([, target]) => !/^\/proc\/\d+\/(task\/\d+\/)?fd$/.test(target));
      // Beyond 0-2 only node's own: epoll/eventfd, its internal pipes (both ends held, so each inode twice),
      // /dev/null. A pipe held once is inherited (see lsp-sandbox-fds.attack.test.ts for the descriptors a host inherited).
      // The probe's own `ls` child holds three socket pairs' parent ends while it runs: the three highest sockets.
      const own = held
        .filter(([fd, target]) => target.startsWith("socket:") && Number(fd) > 2 && Number(fd) < 200)
        .map(([fd]) => Number(fd))
        .sort((a, b) => b - a)
        .slice(0, 3)
        .map(String);
      const others = held.filter(([fd]) => !["0", "1", "2", ...own].includes(fd));
      const inodes = others.map(([, target]) => target);
      const foreign = others.filter(
        ([, target]) =>
          target !== "?" &&
          !/^anon_inode:|^\/dev\/null$/.test(target) &&
          !(target.startsWith("pipe:") && inodes.filter((other) => other === target).length === 2),
      );
      expect(
        foreign.filter(([fd]) => Number(fd) < 200),
        JSON.stringify(probe.fds),
      ).toEqual([]);
      for (const [fd, target] of held.filter(([fd]) => ["0", "1", "2"].includes(fd))) {
        expect(target, `fd ${fd}`).toMatch(/^(pipe:|socket:|\/dev\/null$)/);
      }
      expect(probe.wrote).toBe(false);
      expect(fs.existsSync(path.join(workdir, "probe-written.txt"))).toBe(false);
    } finally {
      await registry.close();
    }
  }, 60_000);
});
