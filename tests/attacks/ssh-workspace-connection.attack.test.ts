/**
 * Attacks on a registry built on an SSH workspace (`createSshWorkspace` of
 * `@agent-tools/ssh`, a real OpenSSH server from `startTestSshd`): its
 * connection.
 *
 * - a replaced host key after a dropped connection: the reconnect refuses;
 * - a connection dropped, or the remote process writing killed, in the middle
 *   of a Write of a big file: the remote file is the old one or the new one,
 *   never torn, and the cut really landed while the Write's content was
 *   arriving (not before it began).
 *
 * Runs as root (the test sshd's dedicated account `agtssh`); skipped otherwise.
 * Shared set-up: `__fixtures__/ssh-workspace.ts` (each file starts its own sshd).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { startTcpProxy, startTestSshd, type TcpProxy, type TestSshd } from "@agent-tools/ssh/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { ROUNDS, asRoot, useSshWorkspaceHarness } from "./__fixtures__/ssh-workspace.js";

const harness = useSshWorkspaceHarness();
const { cleanups, asUser, openWorkspace, scene, call } = harness;
let sshd: TestSshd;
beforeAll(() => {
  if (!asRoot) return;
  sshd = harness.sshd;
});

describe.skipIf(!asRoot)("attack: an SSH workspace through the tools", () => {
  it("a host key replaced while the workspace lives is refused at the reconnect", async () => {
    const proxy: TcpProxy = await startTcpProxy({ host: sshd.host, port: sshd.port });
    cleanups.push(() => proxy.close());
    const workspace = await openWorkspace(proxy);
    const { workdir, registry } = await scene({ workspace });
    asUser(`printf 'first\\n' > '${workdir}/f.txt'`);
    expect((await call(registry, "Read", { path: "f.txt" })).text).toContain("first");
    // Another server (its own host key) answers at the same address: the proxy now forwards there.
    const impostor = await startTestSshd();
    cleanups.push(() => impostor.stop());
    // Drop every live connection and put the impostor behind the port the workspace uses.
    proxy.dropAll();
    await proxy.close();
    const { createServer, createConnection } = await import("node:net");
    const hijack = createServer((inbound) => {
      const outbound = createConnection(impostor.port, impostor.host);
      inbound.pipe(outbound).pipe(inbound);
      inbound.on("error", () => outbound.destroy());
      outbound.on("error", () => inbound.destroy());
    });
    await new Promise<void>((resolve) => hijack.listen(proxy.port, "127.0.0.1", () => resolve()));
    cleanups.push(() => new Promise((resolve) => hijack.close(resolve)));
    // The first call may still meet the connection being torn down; the one after it must reconnect.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await call(registry, "Read", { path: "f.txt" });
    const after = await call(registry, "Read", { path: "f.txt" });
    expect(after.isError, after.text).toBe(true);
    expect(after.text).toMatch(/host key|host_key/i);
    const bash = await call(registry, "Bash", { command: "echo reached" });
    expect(bash.text).not.toMatch(/^reached/m);
  }, 120_000);

  it("a connection dropped (or the remote process writing killed) in the middle of a Write of a big file leaves the old file or the new one", async () => {
    const proxy = await startTcpProxy({ host: sshd.host, port: sshd.port });
    cleanups.push(() => proxy.close());
    const workspace = await openWorkspace(proxy);
    const { workdir, registry } = await scene({ workspace });
    // A small old file the model reads whole (Write needs a full Read first); the new one is 8 MB, so the cut lands mid-transfer.
    fs.writeFileSync(`${workdir}/big.txt`, "old line\n".repeat(20));
    execFileSync("chown", [`${sshd.username}:`, `${workdir}/big.txt`]);
    let kills = 0;
    let drops = 0;
    let cutsMidWrite = 0;
    const cutErrors: string[] = [];
    for (let round = 0; round < Math.max(4, Math.min(ROUNDS, 8)); round += 1) {
      const current = fs.readFileSync(`${workdir}/big.txt`, "utf8");
      // After a cut the first call may meet the dying connection; a retry reconnects.
      let read = await call(registry, "Read", { path: "big.txt" });
      if (read.isError) read = await call(registry, "Read", { path: "big.txt" });
      expect(read.isError, read.text).toBe(false);
      const newText = `${`new ${round} line\n`.repeat(600_000)}`;
      let settled = false;
      const writing = call(registry, "Write", { path: "big.txt", content: newText }).finally(() => {
        settled = true;
      });
      // Cut once the new content has started to arrive on the remote side (a temporary file beside the target).
      let arriving = false;
      for (let wait = 0; wait < 400 && !settled && !arriving; wait += 1) {
        arriving = fs.readdirSync(workdir).some((name) => name.endsWith(".tmp"));
        if (!arriving) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      if (arriving && !settled) cutsMidWrite += 1;
      if (round % 2 === 0) {
        proxy.dropAll();
        drops += 1;
      } else {
        // Odd rounds: SIGKILL this server's processes that write files (the anchored helper, or internal-sftp without it).
        for (const pid of await sshd.sessionPids()) {
          const cmdline = fs.existsSync(`/proc/${pid}/cmdline`) ? fs.readFileSync(`/proc/${pid}/cmdline`, "utf8") : "";
          if (cmdline.includes("internal-sftp") || cmdline.includes("agent-tools-anchored")) {
            process.kill(pid, "SIGKILL");
            kills += 1;
          }
        }
      }
      const written = await writing;
      const after = fs.readFileSync(`${workdir}/big.txt`, "utf8");
      expect([current, newText].includes(after), `round ${round}: torn file of ${after.length} bytes (write said ${written.text.slice(0, 120)})`).toBe(true);
      if (!written.isError) expect(after).toBe(newText);
      else cutErrors.push(written.text);
    }
    // Not vacuous: writers were killed and connections dropped while a Write's content was arriving. (A Write may
    // still succeed after such a cut, when the workspace retries it on a new connection: then the file is the new one.)
    expect(kills).toBeGreaterThan(0);
    expect(drops).toBeGreaterThan(0);
    expect(cutsMidWrite).toBeGreaterThan(0);
    for (const text of cutErrors) expect(text).not.toMatch(/requires a full-file Read|has been modified since/i);
    // The lock files are gone; a killed writer may leave its own dotted temporary file, never a visible one.
    const leftovers = fs.readdirSync(workdir).filter((name) => name.includes("agent-tools-lock") || (name.includes(".tmp") && !name.startsWith(".")));
    expect(leftovers).toEqual([]);
  }, 180_000);
});
