import type { CronStore, NewCronTask } from "../ports/cron-store.js";

/** One opened store and how to release it. */
export interface OpenedCronStore {
  readonly store: CronStore;
  close(): Promise<void>;
}

/** Several stores over one backend (separate connections or pools) and how to release them. */
export interface OpenedCronStores {
  readonly stores: readonly CronStore[];
  close(): Promise<void>;
}

/** What {@link runCronStoreContract} runs over. */
export interface CronStoreContractTarget {
  /** Shown in the suite's title. */
  readonly name: string;
  /** A store over a fresh, empty backend (each test opens its own). */
  open(): Promise<OpenedCronStore>;
  /**
   * Optional: `count` stores over one fresh backend through separate
   * connections or pools, so the race tests really race on the server.
   * Without it the races run as concurrent calls on one store.
   */
  openMany?(count: number): Promise<OpenedCronStores>;
  /** How many stores the race tests open with `openMany`; default 3. */
  readonly raceStores?: number;
}

/** A fixed clock start for the suites (2026-01-01T00:00:00Z). */
export const T0 = Date.UTC(2026, 0, 1);

/** A bash task with every optional bash field set. */
export function bashTask(overrides: Partial<NewCronTask> = {}): NewCronTask {
  return {
    name: "nightly backup",
    description: "copies the data",
    cron: "0 0 3 * * *",
    enabled: true,
    remainingExecutions: null,
    timeoutSeconds: 300,
    type: "bash",
    script: "echo backup && exit 0",
    workdir: "/srv/project",
    timeZone: "Europe/Berlin",
    ...overrides,
  };
}

/** An http task with two requests. */
export function httpTask(overrides: Partial<NewCronTask> = {}): NewCronTask {
  return {
    name: "ping",
    description: "",
    cron: "*/30 * * * * *",
    enabled: true,
    remainingExecutions: 5,
    timeoutSeconds: 60,
    type: "http",
    requests: [
      {
        id: "req-1",
        url: "https://example.test/a?x=1",
        method: "POST",
        headers: { "content-type": "application/json", "x-token": "t" },
        body: '{"a":[1,"é"]}',
      },
      { id: "req-2", url: "http://127.0.0.1:8080/health", method: "GET" },
    ],
    ...overrides,
  };
}

/** A prompt task with its pinned model. */
export function promptTask(overrides: Partial<NewCronTask> = {}): NewCronTask {
  return {
    name: "daily summary",
    description: "summarise the inbox",
    cron: "0 30 8 * * 1-5",
    enabled: true,
    remainingExecutions: 3,
    timeoutSeconds: 3600,
    type: "prompt",
    prompt: "Summarise what changed since yesterday.",
    selectedModel: "model-x",
    reasoning: "medium",
    workdir: "/srv/project",
    lastError: "previous failure",
    ...overrides,
  };
}

/** A claim input for `taskId` at occurrence `scheduledAt`. */
export function claim(taskId: string, scheduledAt: number, owner = "host-a", extra: { now?: number; leaseMs?: number; queue?: boolean } = {}) {
  return {
    taskId,
    scheduledAt,
    owner,
    now: extra.now ?? T0 + 1_000,
    leaseMs: extra.leaseMs ?? 60_000,
    ...(extra.queue === undefined ? {} : { queue: extra.queue }),
  };
}

/** Opens a store for one test and always closes it. */
export async function withStore<T>(target: CronStoreContractTarget, body: (store: CronStore) => Promise<T>): Promise<T> {
  const opened = await target.open();
  try {
    return await body(opened.store);
  } finally {
    await opened.close();
  }
}

/** Opens the race stores (several over one backend, or one store used concurrently). */
export async function withRaceStores<T>(target: CronStoreContractTarget, body: (stores: readonly CronStore[]) => Promise<T>): Promise<T> {
  if (target.openMany !== undefined) {
    const opened = await target.openMany(target.raceStores ?? 3);
    try {
      return await body(opened.stores);
    } finally {
      await opened.close();
    }
  }
  return withStore(target, (store) => body([store, store, store]));
}
