import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SshConnection } from "../connection/index.js";
import { startTestSshd, type TestSshd } from "../testing/index.js";
import { groupSignalCommand, parseTreeSnapshot, treeSnapshotScript } from "./remote-process-tree.js";

let sshd: TestSshd;
let connection: SshConnection;

beforeAll(async () => {
  sshd = await startTestSshd();
  connection = new SshConnection({ host: sshd.host, port: sshd.port, username: sshd.username, privateKey: sshd.privateKey, hostKey: sshd.hostKeyFingerprint });
});
afterAll(async () => {
  await connection?.close();
  await sshd?.stop();
});

async function run(command: string): Promise<string> {
  const { channel } = await connection.exec(command);
  let out = "";
  channel.on("data", (data: Buffer) => {
    out += data.toString();
  });
  channel.stderr.resume();
  channel.end();
  await new Promise((resolve) => channel.once("close", resolve));
  return out;
}

describe("remote process-tree scripts", () => {
  it("the group signal command ends a whole process group under the server's /bin/sh", async () => {
    // A group of three started detached on the server; its leader prints the group id.
    const started = await run("setsid /bin/sh -c 'echo $$; exec >/dev/null; sleep 300 & sleep 300 & exec sleep 300' </dev/null 2>/dev/null & sleep 0.3");
    const group = Number(started.trim());
    expect(group).toBeGreaterThan(1);
    const members = () => run(`ps -o pid= -o stat= -g ${group} | grep -v ' Z' || true`);
    expect((await members()).trim().split("\n")).toHaveLength(3);
    await run(`/bin/sh -c ${JSON.stringify(groupSignalCommand(group, "TERM"))}`);
    let left = "";
    for (let attempt = 0; attempt < 100; attempt += 1) {
      left = (await members()).trim();
      if (left === "") break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(left).toBe("");
  });

  it("a snapshot finds the group, a setsid child and a double-forked one by its tag", async () => {
    const tag = "t_snapshot_1";
    const script = [
      `export AGENT_TOOLS_PROCESS_TREE=${tag}`,
      'setsid /bin/sh -c \'echo $$; exec >/dev/null; sleep 300 & setsid sh -c "exec sleep 301" & sh -c "setsid sh -c \\"exec sleep 302\\" & exit 0"; exec sleep 303\' </dev/null 2>/dev/null &',
      "sleep 0.3",
    ].join("\n");
    const root = Number((await run(script)).trim());
    const selector = { rootPid: root, tag };
    const pids = parseTreeSnapshot(await run(treeSnapshotScript([selector])), [selector]).get(root) ?? [];
    const commands = await run(`ps -o args= -p ${pids.join(",")}`);
    expect(commands.trim().split("\n").sort()).toEqual(["sleep 300", "sleep 301", "sleep 302", "sleep 303"]);
    await run(`kill -s KILL ${pids.join(" ")}`);
  });
});
