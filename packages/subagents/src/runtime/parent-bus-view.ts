import { renderBusDelta, renderBusSnapshot, visibleTo } from "../domain/message-bus.js";
import { renderParentRoster } from "../domain/roster-rendering.js";
import { PARENT_AGENT_ID } from "../domain/subagent-types.js";
import type { SubagentConversation } from "./subagent-conversation.js";

/** What the parent's prompt carries of the bus and the roster. */
export interface ParentBusSnapshot {
  /** The bus snapshot for the system prompt (frozen until the next compaction epoch). */
  readonly bus: string;
  /** The roster's identity section: changes only when an agent is created. */
  readonly rosterStable: string;
  /** The roster's run-status section: append it when it changed. */
  readonly rosterVolatile: string;
}

/**
 * The parent's side of the message bus for a host's agent loop. At the
 * start of a compaction epoch the host calls {@link snapshot} and freezes
 * the text in its system prompt; after each round of tool results it calls
 * {@link delta} and appends what it returns (nothing when no message came).
 * The cursor only moves once a read succeeded, so a failed read is
 * re-delivered rather than lost.
 */
export class ParentBusView {
  readonly #conversation: SubagentConversation;
  #cursor = 0;

  constructor(conversation: SubagentConversation) {
    this.#conversation = conversation;
  }

  /** The seq up to which the parent has been shown messages. */
  get cursor(): number {
    return this.#cursor;
  }

  /** A fresh snapshot (a new epoch): the cursor moves to what it rendered; omitted messages come by delta. */
  async snapshot(): Promise<ParentBusSnapshot> {
    const [messages, roster, latestRuns] = await Promise.all([
      this.#conversation.messagesAfter(0),
      this.#conversation.roster(),
      this.#conversation.latestRuns(),
    ]);
    const names = await this.#names();
    const rendered = renderBusSnapshot({ messages, viewerId: PARENT_AGENT_ID, names });
    this.#cursor = rendered.renderedSeq;
    const sections = renderParentRoster({ roster, latestRuns: [...latestRuns.values()] });
    return { bus: rendered.text, rosterStable: sections.stable, rosterVolatile: sections.volatile };
  }

  /** Messages for the parent since the cursor, as a tail block; `""` when none. */
  async delta(): Promise<string> {
    const messages = (await this.#conversation.messagesAfter(this.#cursor)).filter((message) => visibleTo(message, PARENT_AGENT_ID));
    if (messages.length === 0) return "";
    const text = renderBusDelta({ messages, viewerId: PARENT_AGENT_ID, sinceSeq: this.#cursor, names: await this.#names() });
    this.#cursor = Math.max(this.#cursor, ...messages.map((message) => message.seq));
    return text;
  }

  async #names(): Promise<ReadonlyMap<string, string>> {
    const names = new Map<string, string>([[PARENT_AGENT_ID, "Parent Agent"]]);
    for (const identity of await this.#conversation.roster()) names.set(identity.id, identity.name);
    return names;
  }
}
