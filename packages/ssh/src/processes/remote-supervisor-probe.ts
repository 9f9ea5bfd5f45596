import type { SshConnection } from "../connection/index.js";
import { parseSupervisorProbe, supervisorProbeScript } from "./remote-supervisor.js";

/**
 * Runs the supervisor probe on an exec channel of its own and resolves with
 * the remote prctl syscall number, or undefined when the remote machine
 * cannot run the supervisor (no /usr/bin/perl, not Linux, an unknown
 * architecture, no child subreapers). Rejects when the channel cannot open.
 *
 * @example
 * const prctl = await probeRemoteSupervisor(connection); // 157 on x86_64 Linux with Perl
 */
export async function probeRemoteSupervisor(connection: SshConnection): Promise<number | undefined> {
  const { channel } = await connection.exec(supervisorProbeScript());
  return new Promise((resolve) => {
    const stdout: Buffer[] = [];
    channel.on("data", (data: Buffer) => stdout.push(data));
    channel.on("error", () => undefined);
    channel.stderr.on("error", () => undefined);
    channel.stderr.resume();
    channel.once("close", () => resolve(parseSupervisorProbe(Buffer.concat(stdout).toString("utf8"))));
    channel.end();
  });
}
