import { randomBytes } from "node:crypto";
import type { ClientChannel } from "ssh2";
import type { SshConnection } from "../connection/index.js";
import { quoteShellWord } from "./shell-quote.js";

/**
 * One long-lived `/bin/sh` on an exec channel of the connection that runs
 * the runner's own short scripts (tree snapshots and kills) one after the
 * other, each in a subshell with stdin from `/dev/null`, and returns what
 * each printed. Holding its channel from the first spawn on means a kill
 * never waits for a free channel slot behind the processes it is meant to
 * end; reopened on the next use after the connection dropped.
 */
export class RemoteControlShell {
  private channel: Promise<ClientChannel> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(private readonly connection: SshConnection) {}

  /**
   * Opens the channel unless open. Called synchronously before the
   * runner asks for a process channel, so this request takes its slot first.
   */
  open(): Promise<ClientChannel> {
    if (this.closed) return Promise.reject(new Error("the control shell is closed"));
    if (this.channel) return this.channel;
    const opening = this.connection.exec("exec /bin/sh").then(({ channel }) => {
      channel.on("error", () => undefined);
      channel.stderr.on("error", () => undefined);
      channel.stderr.resume();
      // Keep the stdout side flowing between scripts: a paused stream would never report its close.
      channel.resume();
      channel.once("close", () => {
        if (this.channel === opening) this.channel = undefined;
      });
      return channel;
    });
    this.channel = opening;
    opening.catch(() => {
      if (this.channel === opening) this.channel = undefined;
    });
    return opening;
  }

  /**
   * Runs `script` on a channel of its own, `exec /bin/sh -c <script>`, and
   * resolves with its stdout: for the runner's work after it was closed
   * (killing an isolated process).
   */
  async runOnce(script: string): Promise<string> {
    const { channel } = await this.connection.exec(`exec /bin/sh -c ${quoteShellWord(script)}`);
    return new Promise<string>((resolve) => {
      const stdout: Buffer[] = [];
      channel.on("data", (data: Buffer) => stdout.push(data));
      channel.on("error", () => undefined);
      channel.stderr.on("error", () => undefined);
      channel.stderr.resume();
      channel.once("close", () => resolve(Buffer.concat(stdout).toString("utf8")));
      channel.end();
    });
  }

  /**
   * Runs `script` after the scripts queued before it; resolves with its
   * stdout. A function is called for the script when its turn comes (so a
   * caller can batch requests that arrive meanwhile). Rejects when the
   * channel closes meanwhile.
   */
  run(script: string | (() => string)): Promise<string> {
    const text = () => (typeof script === "string" ? script : script());
    if (this.closed) return this.runOnce(text());
    const next = this.queue.then(() => this.runNow(text()));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async runNow(script: string): Promise<string> {
    const channel = await this.open();
    const end = `AT_END_${randomBytes(8).toString("hex")}`;
    const endLine = Buffer.from(`\n${end}\n`);
    if (channel.destroyed || !channel.writable) {
      if (this.channel) this.channel = undefined;
      throw new Error("the control channel closed");
    }
    return new Promise<string>((resolve, reject) => {
      let output = Buffer.alloc(0);
      const onData = (data: Buffer) => {
        output = Buffer.concat([output, data]);
        const at = output.indexOf(endLine);
        if (at < 0) return;
        cleanup();
        resolve(output.subarray(0, at).toString("utf8"));
      };
      const onClose = () => {
        cleanup();
        reject(new Error("the control channel closed"));
      };
      const cleanup = () => {
        channel.off("data", onData);
        channel.off("close", onClose);
      };
      channel.on("data", onData);
      channel.once("close", onClose);
      channel.write(`( eval ${quoteShellWord(script)} ) </dev/null 2>/dev/null; printf '\\n%s\\n' '${end}'\n`);
    });
  }

  /** Ends the shell (after the queued scripts). */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.queue;
    this.closed = true;
    const channel = await this.channel?.catch(() => undefined);
    this.channel = undefined;
    if (!channel) return;
    await new Promise<void>((resolve) => {
      channel.once("close", () => resolve());
      channel.end();
      setTimeout(() => {
        channel.destroy();
        resolve();
      }, 2_000).unref?.();
    });
  }
}
