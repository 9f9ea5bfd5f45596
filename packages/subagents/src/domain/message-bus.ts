/**
 * What an agent sees of the message bus, as pure functions: the visibility
 * rule, the snapshot (bounded, by priority bucket) and the delta of new
 * messages. Delivery is pull-based: callers render at turn boundaries.
 */
import { BROADCAST_RECIPIENT, PARENT_AGENT_ID, SUBAGENT_LIMITS, type SubagentMessage } from "./subagent-types.js";

/** Heading of a bus delta. */
export const BUS_DELTA_HEADER = "Agent Message Bus (new messages)";
/** Heading of a bus snapshot. */
export const BUS_SNAPSHOT_HEADER = "Agent Message Bus";

/** The buckets of a snapshot, in priority order. */
export const BUS_SNAPSHOT_BUCKETS = ["Direct Inbox", "Shared Decisions", "Open Questions", "Recent"] as const;
type Bucket = (typeof BUS_SNAPSHOT_BUCKETS)[number];

const same = (left: string, right: string) => left.toLowerCase() === right.toLowerCase();

/**
 * Whether `viewerId` (an agent id or `parent`) sees a message: one addressed
 * to it, a broadcast, or its own; never one with an empty body. Ids compare
 * case-insensitively.
 */
export function visibleTo(message: SubagentMessage, viewerId: string): boolean {
  if (message.body.trim() === "") return false;
  return message.recipientId === BROADCAST_RECIPIENT || same(message.recipientId, viewerId) || same(message.senderId, viewerId);
}

/** A rendered snapshot. */
export interface BusSnapshot {
  readonly text: string;
  /** The largest seq up to which every visible message was rendered (0 when none): deliver deltas after it. */
  readonly renderedSeq: number;
  /** Visible messages left out. */
  readonly omitted: number;
}

/**
 * Renders what `viewerId` sees of the bus: at most 24 messages, bodies cut
 * at 2400 characters and block-quoted, in buckets by priority: Direct Inbox
 * (addressed to the viewer), Shared Decisions (broadcast `decision`), Open
 * Questions (`question`), Recent (the rest). Within a bucket the newest
 * messages win; each bucket lists by seq. `renderedSeq` is the largest seq
 * of the contiguous rendered prefix, so a left-out message is re-delivered
 * by the next delta.
 *
 * @example
 * const snapshot = renderBusSnapshot({ messages, viewerId: "scout", names: new Map([["scout", "Scout"]]) });
 */
export function renderBusSnapshot(options: {
  readonly messages: readonly SubagentMessage[];
  readonly viewerId: string;
  /** Display names by agent id. */
  readonly names: ReadonlyMap<string, string>;
}): BusSnapshot {
  const { viewerId } = options;
  const visible = sortBySeq(options.messages.filter((message) => visibleTo(message, viewerId)));
  if (visible.length === 0) return { text: `${BUS_SNAPSHOT_HEADER}: no messages for you yet.`, renderedSeq: 0, omitted: 0 };

  const buckets = new Map<Bucket, SubagentMessage[]>(BUS_SNAPSHOT_BUCKETS.map((bucket) => [bucket, []]));
  for (const message of visible) buckets.get(bucketOf(message, viewerId))!.push(message);
  const rendered = new Set<SubagentMessage>();
  let room: number = SUBAGENT_LIMITS.snapshotMessages;
  for (const bucket of BUS_SNAPSHOT_BUCKETS) {
    const members = buckets.get(bucket)!;
    const kept = room <= 0 ? [] : members.slice(-room);
    for (const message of kept) rendered.add(message);
    room -= kept.length;
    buckets.set(bucket, kept);
  }

  let renderedSeq = 0;
  for (const message of visible) {
    if (!rendered.has(message)) break;
    renderedSeq = message.seq;
  }
  const omitted = visible.length - rendered.size;
  const lines = [`${BUS_SNAPSHOT_HEADER} (${rendered.size} of ${visible.length} messages you can see; newest last in each section)`];
  for (const bucket of BUS_SNAPSHOT_BUCKETS) {
    const members = buckets.get(bucket)!;
    if (members.length === 0) continue;
    lines.push("", `### ${bucket}`);
    for (const message of members) lines.push(renderMessage(message, viewerId, options.names));
  }
  if (omitted > 0) lines.push("", `(${omitted} messages omitted; messages after seq=${renderedSeq} not shown here are re-delivered via delta)`);
  return { text: lines.join("\n"), renderedSeq, omitted };
}

/**
 * Renders the messages `viewerId` sees with seq above `sinceSeq`, by seq,
 * under "Agent Message Bus (new messages)"; `""` when there are none.
 */
export function renderBusDelta(options: {
  readonly messages: readonly SubagentMessage[];
  readonly viewerId: string;
  readonly sinceSeq: number;
  readonly names: ReadonlyMap<string, string>;
}): string {
  const fresh = sortBySeq(options.messages.filter((message) => message.seq > options.sinceSeq && visibleTo(message, options.viewerId)));
  if (fresh.length === 0) return "";
  return [BUS_DELTA_HEADER, ...fresh.map((message) => renderMessage(message, options.viewerId, options.names))].join("\n");
}

function bucketOf(message: SubagentMessage, viewerId: string): Bucket {
  if (same(message.recipientId, viewerId) && !same(message.senderId, viewerId)) return "Direct Inbox";
  if (message.recipientId === BROADCAST_RECIPIENT && message.channel === "decision") return "Shared Decisions";
  if (message.channel === "question") return "Open Questions";
  return "Recent";
}

function renderMessage(message: SubagentMessage, viewerId: string, names: ReadonlyMap<string, string>): string {
  const from = same(message.senderId, viewerId) ? "you" : participant(message.senderId, names);
  const to = message.recipientId === BROADCAST_RECIPIENT ? "all agents" : same(message.recipientId, viewerId) ? "you" : participant(message.recipientId, names);
  const subject = message.subject === undefined || message.subject.trim() === "" ? "" : ` subject: ${message.subject.trim()}`;
  const body = cutBody(message.body.trim());
  const quoted = body
    .split("\n")
    .map((line) => (line === "" ? ">" : `> ${line}`))
    .join("\n");
  return `- seq=${message.seq} [${message.channel}] from ${from} to ${to}${subject}\n${quoted}`;
}

function participant(id: string, names: ReadonlyMap<string, string>): string {
  if (same(id, PARENT_AGENT_ID)) return "parent";
  const name = names.get(id) ?? [...names].find(([key]) => same(key, id))?.[1];
  return name === undefined || name === id ? id : `${name} (${id})`;
}

function cutBody(body: string): string {
  const limit = SUBAGENT_LIMITS.snapshotBodyChars;
  return body.length <= limit ? body : `${body.slice(0, limit)}…\n... [truncated, total chars=${body.length}]`;
}

function sortBySeq(messages: readonly SubagentMessage[]): SubagentMessage[] {
  return [...messages].sort((left, right) => left.seq - right.seq);
}
