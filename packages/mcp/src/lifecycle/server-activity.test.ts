import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { McpServerConnection } from "../server-connection.js";
import { McpServerActivity } from "./server-activity.js";

const connection = (id: string) => ({ config: { id } }) as unknown as McpServerConnection;

describe("McpServerActivity (idle timers)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("stops a started server after idleStopMs without use, once", () => {
    const stopped: string[] = [];
    const activity = new McpServerActivity(1_000, (c) => stopped.push(c.config.id));
    const server = connection("a");
    activity.touch(server);
    vi.advanceTimersByTime(999);
    expect(stopped).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(stopped).toEqual(["a"]);
    vi.advanceTimersByTime(10_000);
    expect(stopped).toEqual(["a"]);
    expect(activity.invoked(server)).toBe(false);
  });

  it("never fires while a use is in flight; the clock starts when the last use ends", () => {
    const stopped: string[] = [];
    const activity = new McpServerActivity(1_000, (c) => stopped.push(c.config.id));
    const server = connection("a");
    activity.touch(server);
    activity.begin(server);
    activity.begin(server);
    vi.advanceTimersByTime(5_000);
    activity.end(server);
    vi.advanceTimersByTime(5_000);
    expect(stopped).toEqual([]);
    // A listing during the use (a lazy start) does not start the clock either.
    activity.touch(server);
    vi.advanceTimersByTime(5_000);
    expect(stopped).toEqual([]);
    activity.end(server);
    expect(activity.invoked(server)).toBe(true);
    vi.advanceTimersByTime(999);
    expect(stopped).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(stopped).toEqual(["a"]);
  });

  it("idleStopMs 0 never stops; close() and forget() clear the timers", () => {
    const stopped: string[] = [];
    const never = new McpServerActivity(0, (c) => stopped.push(c.config.id));
    never.touch(connection("a"));
    vi.advanceTimersByTime(10 ** 9);
    expect(stopped).toEqual([]);

    const activity = new McpServerActivity(1_000, (c) => stopped.push(c.config.id));
    const kept = connection("kept");
    const forgotten = connection("forgotten");
    activity.touch(kept);
    activity.touch(forgotten);
    activity.forget(forgotten);
    expect(vi.getTimerCount()).toBe(1);
    activity.close();
    expect(vi.getTimerCount()).toBe(0);
    activity.touch(kept);
    vi.advanceTimersByTime(10_000);
    expect(stopped).toEqual([]);
  });

  it("an idleStopMs past setTimeout's range waits instead of firing at once", () => {
    const stopped: string[] = [];
    const activity = new McpServerActivity(10 ** 12, (c) => stopped.push(c.config.id));
    activity.touch(connection("a"));
    vi.advanceTimersByTime(1_000);
    expect(stopped).toEqual([]);
    activity.close();
  });
});
