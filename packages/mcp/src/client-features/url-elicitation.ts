/**
 * URL-mode elicitation (protocol 2025-11-25): a server asks the user to open
 * a URL (sign-in, payment, consent) outside the conversation. The host's
 * `onUrlElicitation` decides; the SDK never opens the URL. Only http: and
 * https: URLs of at most {@link URL_ELICITATION_MAX_URL_BYTES} reach the host
 * (anything else, javascript: or file: say, or a longer URL, is declined
 * unseen), with the message cut at {@link URL_ELICITATION_MAX_MESSAGE_BYTES}.
 * `notifications/elicitation/complete` marks an
 * elicitation finished, which a waiting retry (url-elicitation-retry.ts)
 * hears.
 *
 * One instance per runtime (created with the client features), never module
 * state; completions are kept per server, the newest 64 each.
 */
import { SdkError } from "@agent-tools/core";
import type { McpUrlElicitationRequest, McpUrlElicitationResult } from "@agent-tools/core/mcp";

/** The host's callback. */
export type McpUrlElicitationCallback = (request: McpUrlElicitationRequest) => Promise<McpUrlElicitationResult>;

/** One URL elicitation as a server sent it (request params or an entry of a -32042 error). */
export interface McpUrlElicitationParams {
  elicitationId: string;
  url: string;
  message: string;
}

const KEPT_COMPLETIONS = 64;

/** The longest URL (UTF-8 bytes) shown to the host; a longer one is declined unseen. */
export const URL_ELICITATION_MAX_URL_BYTES = 8 * 1024;

/** The longest message (UTF-8 bytes) shown to the host; a longer one is cut and ends with "…". */
export const URL_ELICITATION_MAX_MESSAGE_BYTES = 1024;

/** `message` cut to {@link URL_ELICITATION_MAX_MESSAGE_BYTES} UTF-8 bytes (the ellipsis included) at a character boundary. */
export function capElicitationMessage(message: string): string {
  if (Buffer.byteLength(message, "utf8") <= URL_ELICITATION_MAX_MESSAGE_BYTES) return message;
  const ellipsis = "\u2026";
  let cut = Buffer.from(message, "utf8")
    .subarray(0, URL_ELICITATION_MAX_MESSAGE_BYTES - Buffer.byteLength(ellipsis, "utf8"))
    .toString("utf8");
  // A cut inside a multi-byte character decodes to U+FFFD at the end: drop it.
  if (cut.endsWith("\uFFFD")) cut = cut.slice(0, -1);
  return `${cut}${ellipsis}`;
}

/** The origin of an http: or https: URL, or undefined for any other URL (or none). */
export function urlElicitationOrigin(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.origin : undefined;
}

/** Asks the host about URL elicitations and tracks their completion notices. */
export class UrlElicitationBroker {
  private readonly completed = new Map<string, Set<string>>();
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(private readonly callback: McpUrlElicitationCallback) {
    if (typeof callback !== "function") throw new SdkError("invalid_options", "mcp.onUrlElicitation must be a function.", { option: "mcp.onUrlElicitation" });
  }

  /**
   * The user's answer. A URL that is not http: or https:, or is longer than
   * {@link URL_ELICITATION_MAX_URL_BYTES}, is declined without asking; the
   * message is cut by {@link capElicitationMessage}; an answer other than
   * accept, decline or cancel throws.
   */
  async ask(serverId: string, params: McpUrlElicitationParams, signal: AbortSignal): Promise<McpUrlElicitationResult["action"]> {
    if (Buffer.byteLength(params.url, "utf8") > URL_ELICITATION_MAX_URL_BYTES) return "decline";
    const origin = urlElicitationOrigin(params.url);
    if (origin === undefined) return "decline";
    const message = capElicitationMessage(params.message);
    const answer = await this.callback({ serverId, elicitationId: params.elicitationId, url: params.url, origin, message, signal });
    const action = (answer as { action?: unknown } | undefined)?.action;
    if (action === "accept" || action === "decline" || action === "cancel") return action;
    throw new Error(`onUrlElicitation answered with action ${JSON.stringify(action)}; expected accept, decline or cancel.`);
  }

  /** Records `notifications/elicitation/complete` and wakes whoever waits for it. */
  complete(serverId: string, elicitationId: string): void {
    let done = this.completed.get(serverId);
    if (!done) this.completed.set(serverId, (done = new Set()));
    done.add(elicitationId);
    if (done.size > KEPT_COMPLETIONS) done.delete(done.values().next().value as string);
    const key = waiterKey(serverId, elicitationId);
    for (const wake of this.waiters.get(key) ?? []) wake();
    this.waiters.delete(key);
  }

  /**
   * Resolves true once the server said the elicitation is complete (also
   * when it said so earlier), false after `timeoutMs` or when `signal`
   * aborts. Never rejects.
   */
  waitForCompletion(serverId: string, elicitationId: string, signal: AbortSignal, timeoutMs: number): Promise<boolean> {
    if (this.completed.get(serverId)?.has(elicitationId)) return Promise.resolve(true);
    if (signal.aborted) return Promise.resolve(false);
    const key = waiterKey(serverId, elicitationId);
    return new Promise<boolean>((resolve) => {
      const finish = (value: boolean) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.waiters.get(key)?.delete(wake);
        if (this.waiters.get(key)?.size === 0) this.waiters.delete(key);
        resolve(value);
      };
      const wake = () => finish(true);
      const onAbort = () => finish(false);
      const timer = setTimeout(() => finish(false), timeoutMs);
      timer.unref?.();
      signal.addEventListener("abort", onAbort, { once: true });
      let set = this.waiters.get(key);
      if (!set) this.waiters.set(key, (set = new Set()));
      set.add(wake);
    });
  }
}

const waiterKey = (serverId: string, elicitationId: string) => JSON.stringify([serverId, elicitationId]);
