/**
 * A one-line spinner for a TTY: shows what the agent is waiting for and for
 * how long. Writing anything else first clears it (see {@link Spinner.clear}).
 */
import type { Colors } from "./colors.js";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** A spinner bound to one output stream. Does nothing unless `enabled`. */
export class Spinner {
  private label = "";
  private startedAt = 0;
  private frame = 0;
  private timer: NodeJS.Timeout | undefined;
  private visible = false;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly colors: Colors,
    private readonly enabled: boolean,
  ) {}

  /** Starts (or relabels) the spinner. */
  start(label: string): void {
    if (!this.enabled) return;
    if (this.label !== label || !this.timer) this.startedAt = Date.now();
    this.label = label;
    if (!this.timer) {
      this.timer = setInterval(() => this.render(), 80);
      this.timer.unref();
    }
    this.render();
  }

  /** Changes the label of a running spinner, keeping its elapsed time (nothing when stopped). */
  relabel(label: string): void {
    if (!this.enabled || !this.timer) return;
    this.label = label;
    this.render();
  }

  /** Stops the spinner and erases its line. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
  }

  /** Erases the spinner line so other output can be written; the next tick redraws it. */
  clear(): void {
    if (!this.visible) return;
    this.stream.write("\r\x1b[2K");
    this.visible = false;
  }

  /** True while the spinner runs. */
  get active(): boolean {
    return this.timer !== undefined;
  }

  private render(): void {
    this.frame = (this.frame + 1) % FRAMES.length;
    const seconds = ((Date.now() - this.startedAt) / 1000).toFixed(1);
    this.stream.write(`\r\x1b[2K${this.colors.cyan(FRAMES[this.frame]!)} ${this.colors.dim(`${this.label} ${seconds}s`)}`);
    this.visible = true;
  }
}
