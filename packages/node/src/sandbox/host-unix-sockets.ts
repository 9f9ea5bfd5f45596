import { lstatSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The absolute paths of the Unix sockets bound in this network namespace,
 * from the text of `/proc/net/unix` (one line per socket: seven fields, then
 * the path when bound). Abstract names (`@...`), unnamed sockets and
 * relative paths are left out, and each path is listed once (every accepted
 * connection repeats its server's path).
 *
 * @example
 * parseProcNetUnix("Num RefCount Protocol Flags Type St Inode Path\n0000: 00000002 00000000 00010000 0001 01 2001 /run/app.sock\n"); // ["/run/app.sock"]
 */
export function parseProcNetUnix(text: string): string[] {
  const paths = new Set<string>();
  for (const line of text.split("\n").slice(1)) {
    // The path is everything after the seventh field; it may hold spaces.
    const match = /^\s*\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s(.+)$/.exec(line);
    const socketPath = match?.[1];
    if (socketPath === undefined || !path.isAbsolute(socketPath)) continue;
    paths.add(path.normalize(socketPath));
  }
  return [...paths];
}

/**
 * The path-bound Unix sockets of the host that exist now: those of
 * `/proc/net/unix` (this network namespace's) whose path is a socket in
 * this process's view of the file system. Empty when `/proc/net/unix`
 * cannot be read. Sockets of other network namespaces (containers) are not
 * listed, and a socket bound later is not either: the sandbox's private
 * `/run` and `/tmp` cover the usual places for those.
 *
 * @example
 * listHostUnixSockets(); // ["/var/lib/mysql/mysql.sock", ...]
 */
export function listHostUnixSockets(procNetUnix = "/proc/net/unix"): string[] {
  let text: string;
  try {
    text = readFileSync(procNetUnix, "utf8");
  } catch {
    return [];
  }
  return parseProcNetUnix(text).filter((socketPath) => {
    try {
      return lstatSync(socketPath).isSocket();
    } catch {
      return false;
    }
  });
}
