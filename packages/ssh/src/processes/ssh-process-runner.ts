import { randomBytes } from "node:crypto";
import { SdkError } from "@agent-tools/core";
import type { ProcessRunner, RunningProcess, SpawnOptions } from "@agent-tools/core";
import type { SshConnection } from "../connection/index.js";
import { RemoteControlShell } from "./remote-control-shell.js";
import { buildRemoteCommand } from "./remote-command.js";
import { parseSupervisorProbe, supervisorProbeScript } from "./remote-supervisor.js";
import { parseTreeSnapshot, type RemoteTreeSelector, treeKillScript, treeSnapshotScript } from "./remote-process-tree.js";
import { checkSpawnOptions } from "./spawn-options-check.js";
import { type RemoteTreeHost, SshRunningProcess } from "./ssh-running-process.js";

/** Grace between SIGTERM and SIGKILL when the runner ends trees itself (close, after a drop). */
const RUNNER_GRACE_MS = 300;
/** Attempts to end the trees of a dropped connection once it is back. */
const SWEEP_ATTEMPTS = 20;

function hex(bytes: number): string {
  return randomBytes(bytes).toString("hex");
}

/**
 * The {@link ProcessRunner} of an SSH workspace: every process runs on the
 * remote machine on its own exec channel of `connection`.
 *
 * - The command runs as the leader of its own process group (and, under
 *   OpenSSH, session) inside a small `/bin/sh` wrapper that enters `cwd`,
 *   exports `env` (shell-quoted; names checked) and a tree tag, checks the
 *   executable and `logFile`, prints the pid on a marker line (stripped from
 *   the output) and `exec`s the command, so `pid` is the remote pid and its
 *   group id. A missing cwd or executable exits 127 with an `error` in the
 *   local runner's words (`spawn <file> ENOENT`).
 * - `env` is merged over the remote login environment (`extendEnv: false`:
 *   over nothing, through `env -i`); `shell: true` is `/bin/bash` on the
 *   remote machine; `cwd` and `logFile` are remote paths.
 * - Output arrives as raw Buffer chunks per stream; `exited` carries the
 *   exit code, or the signal name the server reported (`SIGTERM`).
 * - Where the remote machine allows (probed once, on the first spawn:
 *   `/usr/bin/perl`, Linux, a known architecture), the wrapper runs under the
 *   remote supervisor (`remote-supervisor-script.ts`), two Perl processes
 *   that are child subreapers: whatever the command starts stays below them,
 *   also a process that double-forks with setsid and clears its environment,
 *   and a command that kills one of them is ended by the other.
 * - `kill()` runs a script on a separate control channel (opened before the
 *   first process channel, so it never waits behind them): SIGTERM through
 *   the supervisor, to the group and to every process of the tree, also
 *   those that left the group (below the supervisor, found by their
 *   inherited tag in `/proc/<pid>/environ`, or by descent), the grace
 *   period, then the supervisor's freeze-and-SIGKILL and SIGKILL to every
 *   process found; it resolves once a remote check found nothing alive.
 * - `isTreeAlive()`/`livePids()` are answered from a cached picture of the
 *   remote tree, refreshed after the exit and by each kill (best-effort; see
 *   {@link SshRunningProcess.refresh} for a fresh look).
 * - `close()` ends every non-isolated tree (also those whose main process
 *   already exited); `isolated` processes ignore SIGHUP and survive it (give
 *   them a `logFile`: their output channel is gone once the connection is).
 * - A dropped connection: `exited` resolves `{ exitCode: null, signal: null,
 *   error: "connection lost" }`, and the runner ends the remote tree as soon
 *   as the connection is back (at once through the reconnect, else on the
 *   next spawn or close).
 *
 * Needs a POSIX login shell and `/bin/sh`, `cat`, `grep`, `awk`, `kill` on the
 * remote machine; finding processes that left the group needs Linux `/proc`;
 * without the supervisor, one that also cleared its environment is not found.
 * Each running process holds a channel slot of the connection
 * (`maxChannels`); more processes wait for a slot (their `pid` stays 0).
 *
 * @example
 * const runner = createSshProcessRunner(connection);
 * const child = runner.spawn({ command: "make test", shell: true, cwd: "/srv/app" });
 * child.onOutput((chunk) => process.stdout.write(chunk.data));
 * console.log(await child.exited);
 * await runner.close();
 */
export function createSshProcessRunner(connection: SshConnection): ProcessRunner {
  return new SshProcessRunner(connection);
}

class SshProcessRunner implements ProcessRunner {
  private readonly control: RemoteControlShell;
  private readonly tracked = new Set<SshRunningProcess>();
  private readonly orphans = new Map<number, RemoteTreeSelector>();
  private readonly prefix = `r${hex(8)}`;
  private readonly host: RemoteTreeHost;
  private sweeping: Promise<void> | undefined;
  private readonly snapshotBatch = new Map<number, { selector: RemoteTreeSelector; resolvers: ((pids: number[] | undefined) => void)[] }>();
  private snapshotQueued = false;
  private counter = 0;
  private closed = false;
  /** The probe's answer (the prctl number, or undefined: no supervisor), asked once on the first spawn. */
  private supervisor: Promise<number | undefined> | undefined;

  constructor(private readonly connection: SshConnection) {
    this.control = new RemoteControlShell(connection);
    this.host = {
      snapshot: (selector) => this.batchedSnapshot(selector),
      killTree: async (selector, graceMs) => (await this.look([selector], treeKillScript([selector], graceMs)))?.get(selector.rootPid),
    };
  }

  spawn(options: SpawnOptions): RunningProcess {
    if (this.closed) throw new SdkError("closed", "ProcessRunner.spawn was called after close().");
    checkSpawnOptions(options);
    this.counter += 1;
    const tag = options.isolated ? `i${hex(16)}` : `${this.prefix}_${this.counter}`;
    const marker = `AT_${hex(8)}`;
    // Checked now (a bad option throws from spawn); built again with the probe's answer.
    buildRemoteCommand(options, { marker, tag });
    // The control channel asks for its slot before the process channel does.
    void this.control.open().catch(() => undefined);
    if (this.orphans.size > 0) void this.sweepOrphans();
    const channel = this.probeSupervisor()
      .then((supervisor) => this.connection.exec(buildRemoteCommand(options, { marker, tag, supervisor })))
      .then((opened) => opened.channel);
    const child = new SshRunningProcess(options, { tag, marker }, channel, this.host);
    if (!options.isolated) this.tracked.add(child);
    void child.exited.then(() => this.afterExit(child, options.isolated === true));
    return child;
  }

  /**
   * Whether the remote machine can run commands under the supervisor (Perl
   * at /usr/bin/perl, Linux child subreapers): asked once on the control
   * shell; a probe that could not run is asked again on the next spawn.
   */
  private probeSupervisor(): Promise<number | undefined> {
    this.supervisor ??= this.control.run(supervisorProbeScript()).then(parseSupervisorProbe, () => {
      this.supervisor = undefined;
      return undefined;
    });
    return this.supervisor;
  }

  /** After an exit: one remote look for leftovers; a tree that is gone is forgotten, a lost one is ended once the connection is back. */
  private async afterExit(child: SshRunningProcess, isolated: boolean): Promise<void> {
    const selector = child.selector;
    if (!selector) {
      this.tracked.delete(child);
      return;
    }
    if (child.connectionLost) {
      this.tracked.delete(child);
      if (!isolated && !this.closed) {
        this.orphans.set(selector.rootPid, selector);
        void this.sweepOrphans();
      }
      return;
    }
    await child.outputClosed;
    if (this.closed) return;
    const left = await child.refresh();
    if (left.length === 0 && !child.isTreeAlive()) this.tracked.delete(child);
  }

  /**
   * Snapshots asked for while the control shell is busy share one script:
   * the batch is taken when its turn comes.
   */
  private batchedSnapshot(selector: RemoteTreeSelector): Promise<number[] | undefined> {
    return new Promise((resolve) => {
      const waiting = this.snapshotBatch.get(selector.rootPid);
      if (waiting) waiting.resolvers.push(resolve);
      else this.snapshotBatch.set(selector.rootPid, { selector, resolvers: [resolve] });
      if (this.snapshotQueued) return;
      this.snapshotQueued = true;
      let batch: { selector: RemoteTreeSelector; resolvers: ((pids: number[] | undefined) => void)[] }[] = [];
      const script = () => {
        batch = [...this.snapshotBatch.values()];
        this.snapshotBatch.clear();
        this.snapshotQueued = false;
        return treeSnapshotScript(batch.map((entry) => entry.selector));
      };
      this.control.run(script).then(
        (output) => {
          const trees = parseTreeSnapshot(
            output,
            batch.map((entry) => entry.selector),
          );
          for (const entry of batch) for (const done of entry.resolvers) done(trees.get(entry.selector.rootPid));
        },
        () => {
          // The script never ran (the channel closed): whoever was batched gets no answer.
          const missed = batch.length > 0 ? batch : [...this.snapshotBatch.values()];
          if (batch.length === 0) {
            this.snapshotBatch.clear();
            this.snapshotQueued = false;
          }
          for (const entry of missed) for (const done of entry.resolvers) done(undefined);
        },
      );
    });
  }

  /** Runs a tree script on the control shell; undefined when the remote side could not be asked. */
  private async look(selectors: readonly RemoteTreeSelector[], script: string): Promise<Map<number, number[]> | undefined> {
    try {
      return parseTreeSnapshot(await this.control.run(script), selectors);
    } catch {
      return undefined;
    }
  }

  /**
   * Ends the trees of processes whose connection dropped, as soon as the
   * connection is back: retried with back-off (250 ms doubling to 4 s, about
   * a minute in all), then again on the next spawn and on close.
   */
  private sweepOrphans(): Promise<void> {
    this.sweeping ??= (async () => {
      for (let attempt = 0; attempt < SWEEP_ATTEMPTS && !this.closed; attempt += 1) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(4_000, 250 * 2 ** (attempt - 1))).unref?.());
        const selectors = [...this.orphans.values()];
        if (selectors.length === 0 || this.closed) return;
        const left = await this.look(selectors, treeKillScript(selectors, RUNNER_GRACE_MS));
        if (!left) continue;
        for (const selector of selectors) if ((left.get(selector.rootPid) ?? []).length === 0) this.orphans.delete(selector.rootPid);
      }
    })().finally(() => {
      this.sweeping = undefined;
    });
    return this.sweeping;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const children = [...this.tracked];
    this.tracked.clear();
    // Trees known now, and lost ones, in one remote script.
    const known = children.filter((child) => child.selector !== undefined);
    const selectors = [...known.map((child) => child.selector!), ...this.orphans.values()];
    if (selectors.length > 0) {
      const left = await this.look(selectors, treeKillScript(selectors, RUNNER_GRACE_MS));
      if (left) {
        this.orphans.clear();
        for (const child of known) if ((left.get(child.pid) ?? []).length === 0) child.markTreeEnded();
      }
    }
    // Processes still waiting for a channel or their pid: ended as soon as they report it.
    const pending = children.filter((child) => !known.includes(child));
    await Promise.allSettled(pending.map((child) => child.kill({ graceMs: RUNNER_GRACE_MS })));
    await this.control.close();
  }
}
