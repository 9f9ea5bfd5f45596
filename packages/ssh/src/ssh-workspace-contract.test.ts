import { randomBytes } from "node:crypto";
import { posix } from "node:path";
import { runWorkspaceContract } from "@agent-tools/node/testing";
import { beforeAll, expect } from "vitest";
import { createSshWorkspace, type SshWorkspaceOptions } from "./ssh-workspace.js";
import { startTcpProxy, startTestSshd, type TestSshd } from "./testing/index.js";

let sshd: TestSshd;
beforeAll(async () => {
  sshd = await startTestSshd();
});

/** The contract on a workspace with the anchored helper (`anchored`), or on SFTP by path only. */
function contractOn(anchored: boolean, stopAfter: boolean): void {
  const options = (): SshWorkspaceOptions => ({ ...sshd.connectOptions, anchoredOpens: anchored });
  runWorkspaceContract(
    anchored ? "ssh (anchored helper)" : "ssh (SFTP by path, anchoredOpens: false)",
    {
      async create() {
        const workspace = await createSshWorkspace(options());
        expect(workspace.capabilities.anchoredOpens).toBe(anchored);
        const scratch = posix.join(workspace.root, `case-${randomBytes(5).toString("hex")}`);
        await workspace.fs.mkdir(scratch);
        return { workspace, scratch };
      },
      // Another connection to the same machine: another client of the same files.
      secondClient: () => createSshWorkspace(options()),
      // A writer on its own connection, through a proxy that drops the connection the way a network failure does.
      async crashDuringWrite(_workspace, path, bytes) {
        const proxy = await startTcpProxy({ host: sshd.host, port: sshd.port });
        const writer = await createSshWorkspace({ ...options(), host: proxy.host, port: proxy.port, reconnectAttempts: 0 });
        try {
          async function* slowly() {
            const piece = 256 * 1024;
            for (let offset = 0; offset < bytes.length; offset += piece) {
              if (offset >= bytes.length / 4) proxy.dropAll();
              yield bytes.subarray(offset, offset + piece);
            }
          }
          await writer.fs.writeFileAtomic(path, slowly()).then(
            () => {
              throw new Error("the write finished although its connection was dropped");
            },
            () => undefined,
          );
        } finally {
          await writer.close();
          await proxy.close();
        }
      },
      ...(stopAfter ? { cleanup: () => sshd.stop() } : {}),
    },
    { processes: true },
  );
}

// The SSH test server runs as root only: both runs share one, stopped after the second.
contractOn(true, false);
contractOn(false, true);
