/**
 * The page's WebSocket client: connects to the gateway's `/page` endpoint,
 * hands every message on, remembers the newest sequence number, and
 * reconnects with backoff asking only for what it missed (`after=<last seq>`).
 */
import type { GatewayToPageMessage, PageCommand } from "../protocol/messages.js";
import type { SocketStatus } from "./view-state.js";

/** The part of a WebSocket the client uses (the browser's, or `ws` in tests). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

/** Options of {@link PageConnection}. */
export interface PageConnectionOptions {
  /** The socket URL asking for the events after `after`. */
  url(after: number): string;
  /** Every message from the gateway, in order. */
  onMessage(message: GatewayToPageMessage): void;
  /** The socket opened, closed, or is connecting again. */
  onStatus(status: SocketStatus): void;
  /** Opens a socket; defaults to the browser's `WebSocket`. */
  createSocket?: (url: string) => WebSocketLike;
  /** The wait before reconnect attempt `attempt` (0-based); defaults to {@link reconnectDelayMs}. */
  delayMs?: (attempt: number) => number;
}

const OPEN = 1;

/**
 * The wait before a reconnect: 250 ms doubling per failed attempt, at most 5 s.
 *
 * @example
 * [0, 1, 2, 3, 4, 5].map(reconnectDelayMs); // [250, 500, 1000, 2000, 4000, 5000]
 */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(5_000, 250 * 2 ** Math.max(0, attempt));
}

/**
 * One page's connection to the gateway. The first connect asks for the whole
 * replay (`after=0`); reconnects ask for the events after the newest one seen.
 *
 * @example
 * const connection = new PageConnection({ url: (after) => pageSocketUrl(location.href, params, after), onMessage, onStatus });
 * connection.start();
 * connection.send({ type: "stop", conversationId: params.conversationId });
 */
export class PageConnection {
  private socket: WebSocketLike | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private attempt = 0;
  private newestSeq = 0;
  private requestedAfter = 0;
  private closed = false;

  constructor(private readonly options: PageConnectionOptions) {}

  /** The newest sequence number received. */
  get lastSeq(): number {
    return this.newestSeq;
  }

  /** Connects (once; later calls do nothing). */
  start(): void {
    if (this.socket || this.closed) return;
    this.connect();
  }

  /** Sends a command; false when the socket is not open (the caller tells the user). */
  send(command: PageCommand): boolean {
    if (!this.socket || this.socket.readyState !== OPEN) return false;
    this.socket.send(JSON.stringify(command));
    return true;
  }

  /** Closes the socket for good: no more reconnects. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    const socket = this.socket;
    this.socket = undefined;
    if (socket) {
      socket.onclose = null;
      socket.close();
    }
  }

  private connect(): void {
    this.options.onStatus("connecting");
    this.requestedAfter = this.newestSeq;
    const create = this.options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as WebSocketLike);
    const socket = create(this.options.url(this.requestedAfter));
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket === socket) this.options.onStatus("open");
    };
    socket.onmessage = (event) => {
      if (this.socket === socket) this.receive(socket, event.data);
    };
    socket.onerror = () => {
      // A close event follows; reconnecting is its job.
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.options.onStatus("closed");
      this.schedule((this.options.delayMs ?? reconnectDelayMs)(this.attempt));
      this.attempt += 1;
    };
  }

  private receive(socket: WebSocketLike, data: unknown): void {
    if (typeof data !== "string") return;
    let message: GatewayToPageMessage;
    try {
      message = JSON.parse(data) as GatewayToPageMessage;
    } catch {
      return;
    }
    if (message.type === "event" && message.seq > this.newestSeq) this.newestSeq = message.seq;
    if (message.type === "welcome") {
      this.attempt = 0;
      if (message.latestSeq < this.requestedAfter) {
        // The gateway lost the buffer we had read (it restarted): start over from the first event.
        this.newestSeq = 0;
        this.options.onMessage(message);
        this.socket = undefined;
        socket.onclose = null;
        socket.close();
        this.connect();
        return;
      }
    }
    this.options.onMessage(message);
  }

  private schedule(delay: number): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.closed) this.connect();
    }, delay);
  }
}
