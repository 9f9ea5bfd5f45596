/**
 * A JSON-RPC 2.0 connection over a language server's stdin/stdout (a
 * {@link RunningProcess} spawned with `stdin: "pipe"`).
 *
 * Invariants: every request settles exactly once (its response, its
 * timeout, its abort, or the connection's failure); an aborted or timed
 * out request is cancelled with `$/cancelRequest`; a framing failure (a
 * malformed or oversized message) kills the server process and fails every
 * pending request, because a stream that lost its frame boundary cannot be
 * trusted again.
 */
import type { RunningProcess } from "@agent-tools/core";
import { createMessageReader, DEFAULT_MAX_MESSAGE_BYTES, encodeMessage, FramingError } from "./message-framing.js";

/** A JSON-RPC error response turned into an exception. */
export class JsonRpcResponseError extends Error {
  override readonly name = "JsonRpcResponseError";
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** The connection ended (server exited, framing failure, closed): pending requests reject with this. */
export class ConnectionClosedError extends Error {
  override readonly name = "ConnectionClosedError";
}

/** A request that did not get its answer in time. */
export class RequestTimeoutError extends Error {
  override readonly name = "RequestTimeoutError";
}

/** Options of {@link createJsonRpcConnection}. */
export interface JsonRpcConnectionOptions {
  readonly process: RunningProcess;
  /** Answers server-to-client requests; a throw becomes an error response. Unknown methods: return `undefined` with `handled: false`. */
  readonly onRequest?: (method: string, params: unknown) => Promise<unknown> | unknown;
  readonly onNotification?: (method: string, params: unknown) => void;
  /** Called once when the connection fails or the process's output ends. */
  readonly onClose?: (reason: string) => void;
  /** Default {@link DEFAULT_MAX_MESSAGE_BYTES}. */
  readonly maxMessageBytes?: number;
}

/** Options of one request. */
export interface JsonRpcRequestOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/** A live connection. */
export interface JsonRpcConnection {
  request<T>(method: string, params: unknown, options?: JsonRpcRequestOptions): Promise<T>;
  notify(method: string, params: unknown): Promise<void>;
  /** Why it closed, once closed. */
  readonly closedReason: string | undefined;
  /** Fails pending requests and stops reading (does not kill the process). */
  dispose(reason: string): void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** Wraps a process's pipes in a JSON-RPC connection. */
export function createJsonRpcConnection(options: JsonRpcConnectionOptions): JsonRpcConnection {
  const { process } = options;
  const stdin = process.stdin;
  if (!stdin) throw new Error("the language server was not spawned with stdin: 'pipe'");
  const reader = createMessageReader(options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let closedReason: string | undefined;

  const close = (reason: string) => {
    if (closedReason !== undefined) return;
    closedReason = reason;
    unsubscribe();
    for (const entry of pending.values()) entry.reject(new ConnectionClosedError(reason));
    pending.clear();
    options.onClose?.(reason);
  };
  // A write that fails (the server exited before the runner reported it)
  // ends the connection: callers see ConnectionClosedError, as for any death.
  const send = async (message: unknown) => {
    if (closedReason !== undefined) throw new ConnectionClosedError(closedReason);
    try {
      await stdin.write(encodeMessage({ jsonrpc: "2.0", ...(message as object) }));
    } catch (error) {
      close(`writing to the server failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new ConnectionClosedError(closedReason ?? "closed");
    }
  };
  const answer = async (id: unknown, method: string, params: unknown) => {
    try {
      const result = await options.onRequest?.(method, params);
      await send({ id, result: result ?? null });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const code = error instanceof JsonRpcResponseError ? error.code : -32603;
      await send({ id, error: { code, message } }).catch(() => undefined);
    }
  };
  const dispatch = (message: Record<string, unknown>) => {
    const { id, method } = message;
    if (typeof method === "string") {
      if (id !== undefined && id !== null) void answer(id, method, message.params);
      else options.onNotification?.(method, message.params);
      return;
    }
    if (typeof id !== "number") return;
    const entry = pending.get(id);
    if (!entry) return;
    pending.delete(id);
    const error = message.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
    if (error && typeof error === "object") {
      entry.reject(new JsonRpcResponseError(typeof error.code === "number" ? error.code : -32603, String(error.message ?? "error"), error.data));
    } else entry.resolve(message.result);
  };
  const unsubscribe = process.onOutput((chunk) => {
    if (chunk.stream !== "stdout" || closedReason !== undefined) return;
    let messages: unknown[];
    try {
      messages = reader.push(chunk.data);
    } catch (error) {
      const reason = error instanceof FramingError ? `protocol error: ${error.message}` : String(error);
      close(reason);
      void process.kill({ graceMs: 0 });
      return;
    }
    for (const message of messages) dispatch(message as Record<string, unknown>);
  });
  void process.exited.then((exit) => close(`the server exited (${exit.signal ?? `code ${exit.exitCode}`}${exit.error ? `: ${exit.error}` : ""})`));

  return {
    get closedReason() {
      return closedReason;
    },
    notify: (method, params) => send({ method, params }),
    dispose: close,
    request<T>(method: string, params: unknown, requestOptions: JsonRpcRequestOptions = {}): Promise<T> {
      const { signal, timeoutMs } = requestOptions;
      if (closedReason !== undefined) return Promise.reject(new ConnectionClosedError(closedReason));
      if (signal?.aborted) return Promise.reject(signal.reason);
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const cleanup = () => {
          if (timer) clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
        };
        const cancel = (error: Error) => {
          if (!pending.delete(id)) return;
          cleanup();
          void send({ method: "$/cancelRequest", params: { id } }).catch(() => undefined);
          reject(error);
        };
        const onAbort = () => cancel(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
        pending.set(id, {
          resolve: (value) => {
            cleanup();
            resolve(value as T);
          },
          reject: (error) => {
            cleanup();
            reject(error);
          },
        });
        signal?.addEventListener("abort", onAbort, { once: true });
        if (timeoutMs !== undefined) {
          timer = setTimeout(() => cancel(new RequestTimeoutError(`${method} got no answer within ${timeoutMs} ms`)), timeoutMs);
        }
        send({ id, method, params }).catch((error: unknown) => {
          const entry = pending.get(id);
          if (!entry) return;
          pending.delete(id);
          entry.reject(error instanceof Error ? error : new Error(String(error)));
        });
      });
    },
  };
}
