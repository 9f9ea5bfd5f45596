/**
 * The gateway's memory of a conversation: every host event, numbered from 1
 * without gaps, so a page that (re)connects with `after=N` gets exactly the
 * events it has not seen, in order.
 *
 * Invariants:
 * - `seq` grows by one per appended event and never goes back, even when old
 *   events are dropped; `latestSeq` is the newest number handed out.
 * - The buffer holds a contiguous run `firstSeq..latestSeq` (empty when
 *   `firstSeq > latestSeq`).
 * - Past `maxEvents` events or `maxBytes` bytes of JSON, whole turns are
 *   dropped from the front (up to the next `turn-start`), so what remains
 *   starts at a turn boundary; a single turn larger than the bounds is cut
 *   event by event from its start.
 */
import type { ConversationEvent, GatewayEventMessage } from "../protocol/messages.js";

/** Bounds of one conversation's buffer. */
export interface ReplayBufferLimits {
  /** Most events kept; default 10,000. */
  maxEvents: number;
  /** Most bytes of serialised event messages kept; default 20 MB. */
  maxBytes: number;
}

/** The default bounds: 10,000 events or 20 MB per conversation. */
export const DEFAULT_REPLAY_LIMITS: ReplayBufferLimits = { maxEvents: 10_000, maxBytes: 20 * 1024 * 1024 };

interface Entry {
  seq: number;
  /** The `event` message as sent to pages (serialised once). */
  frame: string;
  isTurnStart: boolean;
}

/**
 * One conversation's numbered events.
 *
 * @example
 * const buffer = new ReplayBuffer("c1");
 * const { frame } = buffer.append({ type: "notice", level: "info", message: "hi" });
 * for (const old of buffer.framesAfter(0)) socket.send(old);
 */
export class ReplayBuffer {
  readonly conversationId: string;
  private readonly limits: ReplayBufferLimits;
  private entries: Entry[] = [];
  private head = 0;
  private bytes = 0;
  private seq = 0;

  constructor(conversationId: string, limits: ReplayBufferLimits = DEFAULT_REPLAY_LIMITS) {
    this.conversationId = conversationId;
    this.limits = limits;
  }

  /** The newest sequence number handed out (0 before the first event). */
  get latestSeq(): number {
    return this.seq;
  }

  /** The oldest sequence number still buffered (`latestSeq + 1` when empty). */
  get firstSeq(): number {
    return this.entries[this.head]?.seq ?? this.seq + 1;
  }

  /** Numbers and stores an event; returns the frame to send to live pages. */
  append(event: ConversationEvent): { seq: number; frame: string } {
    this.seq += 1;
    const message: GatewayEventMessage = { type: "event", conversationId: this.conversationId, seq: this.seq, event };
    const frame = JSON.stringify(message);
    this.entries.push({ seq: this.seq, frame, isTurnStart: event.type === "turn-start" });
    this.bytes += frame.length;
    this.trim();
    return { seq: this.seq, frame };
  }

  /** The frames of every buffered event with `seq > after`, oldest first. */
  framesAfter(after: number): string[] {
    const frames: string[] = [];
    for (let index = this.head; index < this.entries.length; index += 1) {
      const entry = this.entries[index]!;
      if (entry.seq > after) frames.push(entry.frame);
    }
    return frames;
  }

  private get size(): number {
    return this.entries.length - this.head;
  }

  private trim(): void {
    while (this.size > this.limits.maxEvents || this.bytes > this.limits.maxBytes) {
      // Drop the oldest turn whole: up to (not including) the next turn-start.
      let end = this.head + 1;
      while (end < this.entries.length && !this.entries[end]!.isTurnStart) end += 1;
      // The newest turn alone is too large: cut just its oldest event.
      if (end >= this.entries.length) end = this.head + 1;
      for (let index = this.head; index < end; index += 1) this.bytes -= this.entries[index]!.frame.length;
      this.head = end;
    }
    // Compact now and then, so dropping from the front stays cheap.
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}
