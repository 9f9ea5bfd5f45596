import { SdkError } from "../errors.js";
import { closestName } from "./closest-name.js";

/** Per-tool-name parallelism of a registry (see `ToolRegistryOptions.concurrency`). */
export interface ToolConcurrencyOptions {
  /** Limits by canonical tool name, e.g. `{ Agent: 8, Bash: 4 }`. */
  limits?: Readonly<Record<string, number>>;
  /** The limit of every other tool; default 2. */
  defaultLimit?: number;
}

/** The limit of a tool name absent from `limits` when `defaultLimit` is not given. */
export const DEFAULT_TOOL_CONCURRENCY_LIMIT = 2;

/** Gives out run slots per tool name (see {@link createToolCallScheduler}). */
export interface ToolCallScheduler {
  /**
   * Waits for a run slot of `toolName` and resolves with the function that
   * gives it back (idempotent). Calls past the name's limit wait in FIFO
   * order. When `signal` aborts while the call waits, the call leaves the
   * queue, never gets a slot, and the promise rejects with `cancelled()`.
   * An already aborted signal rejects at once.
   */
  acquire(toolName: string, signal: AbortSignal, cancelled: () => Error): Promise<() => void>;
  /** Calls running now under `toolName` (for tests and diagnostics). */
  running(toolName: string): number;
  /** Calls waiting for a slot of `toolName`. */
  queued(toolName: string): number;
}

interface Waiter {
  grant(): void;
}

interface Lane {
  running: number;
  readonly queue: Waiter[];
}

/**
 * Per-tool-name FIFO semaphores. Invariants: `lane.running <= limit`; a lane
 * with a non-empty queue is full (a slot given back goes to the head of the
 * queue at once); a waiter whose signal aborted is removed from its queue
 * before anything else can grant it; lanes with nothing running and nothing
 * queued are dropped, so the map holds only busy names.
 *
 * `false` or `undefined` options give a scheduler with no limits (every call
 * runs at once). Limits are positive integers or `Infinity`; anything else is
 * host misuse (`SdkError("invalid_options")`).
 *
 * @example
 * const scheduler = createToolCallScheduler({ limits: { Bash: 4 }, defaultLimit: 2 });
 * const release = await scheduler.acquire("Bash", signal, () => new Error("cancelled"));
 * try { await run(); } finally { release(); }
 */
export function createToolCallScheduler(options: ToolConcurrencyOptions | false | undefined): ToolCallScheduler {
  const limitOf = resolveLimits(options);
  const lanes = new Map<string, Lane>();

  const release = (toolName: string, lane: Lane) => {
    const next = lane.queue.shift();
    if (next) {
      // The slot passes straight to the next waiter: `running` stays the same.
      next.grant();
      return;
    }
    lane.running -= 1;
    if (lane.running === 0) lanes.delete(toolName);
  };

  const slot = (toolName: string, lane: Lane) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release(toolName, lane);
    };
  };

  return {
    acquire(toolName, signal, cancelled) {
      if (signal.aborted) return Promise.reject(cancelled());
      const limit = limitOf(toolName);
      if (limit === Number.POSITIVE_INFINITY) return Promise.resolve(() => undefined);
      let lane = lanes.get(toolName);
      if (!lane) {
        lane = { running: 0, queue: [] };
        lanes.set(toolName, lane);
      }
      if (lane.running < limit) {
        lane.running += 1;
        return Promise.resolve(slot(toolName, lane));
      }
      const current = lane;
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          grant: () => {
            signal.removeEventListener("abort", onAbort);
            resolve(slot(toolName, current));
          },
        };
        const onAbort = () => {
          const position = current.queue.indexOf(waiter);
          if (position >= 0) current.queue.splice(position, 1);
          reject(cancelled());
        };
        signal.addEventListener("abort", onAbort, { once: true });
        current.queue.push(waiter);
      });
    },
    running: (toolName) => lanes.get(toolName)?.running ?? 0,
    queued: (toolName) => lanes.get(toolName)?.queue.length ?? 0,
  };
}

const CONCURRENCY_OPTION_KEYS = ["limits", "defaultLimit"];

function resolveLimits(options: ToolConcurrencyOptions | false | undefined): (toolName: string) => number {
  if (options === undefined || options === false) return () => Number.POSITIVE_INFINITY;
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new SdkError("invalid_options", "concurrency must be false or an object { limits?: { [toolName]: number }, defaultLimit?: number }.");
  }
  for (const key of Object.keys(options)) {
    if (CONCURRENCY_OPTION_KEYS.includes(key)) continue;
    // `{ Bash: 1 }` instead of `{ limits: { Bash: 1 } }` used to mean no limit at all.
    const suggestion = closestName(key, CONCURRENCY_OPTION_KEYS);
    throw new SdkError(
      "invalid_options",
      `concurrency has no option ${JSON.stringify(key.slice(0, 60))}${suggestion === undefined ? "" : `; did you mean \`${suggestion}\`?`} Limits of tools go under limits: { limits: { ${JSON.stringify(key.slice(0, 60))}: 1 }, defaultLimit?: 2 }.`,
      { option: key, ...(suggestion === undefined ? {} : { suggestion }) },
    );
  }
  const defaultLimit = options.defaultLimit === undefined ? DEFAULT_TOOL_CONCURRENCY_LIMIT : checkLimit(options.defaultLimit, "concurrency.defaultLimit");
  const limits = new Map<string, number>();
  if (options.limits !== undefined) {
    if (options.limits === null || typeof options.limits !== "object" || Array.isArray(options.limits)) {
      throw new SdkError("invalid_options", "concurrency.limits must be an object of tool names to limits, e.g. { Bash: 4 }.");
    }
    for (const [name, limit] of Object.entries(options.limits)) limits.set(name, checkLimit(limit, `concurrency.limits.${name}`));
  }
  return (toolName) => limits.get(toolName) ?? defaultLimit;
}

function checkLimit(value: unknown, where: string): number {
  if (value === Number.POSITIVE_INFINITY || (typeof value === "number" && Number.isInteger(value) && value >= 1)) return value as number;
  throw new SdkError("invalid_options", `${where} must be a whole number of at least 1 (or Infinity for no limit), not ${String(value)}.`);
}
