import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { listHostUnixSockets, parseProcNetUnix } from "./host-unix-sockets.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-unix-sockets-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

describe("parseProcNetUnix", () => {
  it("lists each absolute path once, with spaces kept, and leaves out abstract, unnamed and relative sockets", () => {
    const text = [
      "Num       RefCount Protocol Flags    Type St Inode Path",
      "0000000071ad8bff: 00000002 00000000 00010000 0001 01 20601 /run/postgresql/.s.PGSQL.5432",
      "0000000028f1f6fc: 00000003 00000000 00000000 0001 03 20602 /run/postgresql/.s.PGSQL.5432",
      "000000005e0f35a0: 00000002 00000000 00010000 0001 01 20603 @/tmp/.X11-unix/X0",
      "00000000a1b2c3d4: 00000003 00000000 00000000 0001 03  1060",
      "00000000a1b2c3d5: 00000002 00000000 00010000 0002 01 20604 /home/ada/my app/dev.sock",
      "00000000a1b2c3d6: 00000002 00000000 00010000 0001 01 20605 relative.sock",
      "",
    ].join("\n");
    expect(parseProcNetUnix(text)).toEqual(["/run/postgresql/.s.PGSQL.5432", "/home/ada/my app/dev.sock"]);
  });

  it("finds a socket this process listens on, and only existing sockets", async () => {
    const address = path.join(temporary, "listening.sock");
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(address, resolve));
    try {
      expect(listHostUnixSockets()).toContain(address);
      const fake = path.join(temporary, "fake-proc-net-unix");
      fs.writeFileSync(
        fake,
        `Num RefCount Protocol Flags Type St Inode Path\n0: 00000002 00000000 00010000 0001 01 1 ${address}\n0: 00000002 00000000 00010000 0001 01 2 ${path.join(temporary, "gone.sock")}\n0: 00000002 00000000 00010000 0001 01 3 ${fake}\n`,
      );
      expect(listHostUnixSockets(fake)).toEqual([address]);
      expect(listHostUnixSockets(path.join(temporary, "missing"))).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
