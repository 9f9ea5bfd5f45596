import { readdir, readFile, stat } from "node:fs/promises";

/**
 * Pids of the live processes of user `uid` whose environment carries
 * `name=value` (the tag the test sshd sets on every session with `SetEnv`),
 * or that descend from one of `ancestors`.
 */
export async function taggedProcesses(uid: number, name: string, value: string, ancestors: readonly number[]): Promise<number[]> {
  const marker = Buffer.from(`${name}=${value}\0`);
  const inner = Buffer.concat([Buffer.from([0]), marker]);
  const found = new Set<number>();
  const parents = new Map<number, number>();
  for (const entry of await readdir("/proc").catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    try {
      const statText = await readFile(`/proc/${pid}/stat`, "utf8");
      const afterName = statText.slice(statText.lastIndexOf(")") + 2).split(" ");
      if (afterName[0] === "Z") continue;
      parents.set(pid, Number(afterName[1]));
      const owner = (await stat(`/proc/${pid}`)).uid;
      if (owner !== uid) continue;
      const environ = await readFile(`/proc/${pid}/environ`);
      if (environ.includes(inner) || environ.subarray(0, marker.length).equals(marker)) found.add(pid);
    } catch {
      // Gone meanwhile, or not readable.
    }
  }
  const roots = new Set(ancestors);
  for (const pid of parents.keys()) {
    let current: number | undefined = pid;
    for (let depth = 0; current !== undefined && current > 1 && depth < 64; depth += 1) {
      if (roots.has(current)) {
        if (pid !== current || !ancestors.includes(pid)) found.add(pid);
        break;
      }
      current = parents.get(current);
    }
  }
  for (const pid of ancestors) found.delete(pid);
  return [...found];
}

/** Sends `signal` to each pid, ignoring those already gone. */
export function signalAll(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

/**
 * Pids of orphaned sshd session processes of user `uid` (`sshd: <user>@...`
 * whose parent is init): sessions whose connection and monitor are gone,
 * such as an internal-sftp blocked for ever opening a FIFO after its
 * client abandoned it. They carry no session tag (internal-sftp runs in
 * sshd itself, no command is started), so the tag sweep misses them; an
 * orphan has no live connection, so ending it breaks nothing.
 */
export async function orphanedSessionProcesses(uid: number, username: string): Promise<number[]> {
  const found: number[] = [];
  const prefix = `sshd: ${username}@`;
  for (const entry of await readdir("/proc").catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    try {
      if ((await stat(`/proc/${pid}`)).uid !== uid) continue;
      const statText = await readFile(`/proc/${pid}/stat`, "utf8");
      if (statText.slice(statText.lastIndexOf(")") + 2).split(" ")[1] !== "1") continue;
      const cmdline = (await readFile(`/proc/${pid}/cmdline`, "utf8")).replace(/\0+$/, "");
      if (cmdline.startsWith(prefix)) found.push(pid);
    } catch {
      // Gone meanwhile, or not readable.
    }
  }
  return found;
}
