import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { SdkError } from "../errors.js";
import { StdinPipe, checkStdinOption } from "./stdin-pipe.js";

/** A writable that holds each chunk until `release()`, like a pipe whose reader is slow. */
function slowSink() {
  const received: string[] = [];
  const held: (() => void)[] = [];
  let ended = false;
  const sink = new Writable({
    highWaterMark: 4,
    write(chunk: Buffer, _encoding, callback) {
      received.push(chunk.toString("utf8"));
      held.push(() => callback());
    },
    final(callback) {
      ended = true;
      callback();
    },
  });
  return { sink, received, release: () => held.splice(0).forEach((done) => done()), isEnded: () => ended };
}

describe("StdinPipe", () => {
  it("queues writes made before the sink exists and sends them in call order", async () => {
    const pipe = new StdinPipe();
    const { sink, received, release } = slowSink();
    const writes = [pipe.write("a"), pipe.write(Buffer.from("b")), pipe.write(new Uint8Array([99]))];
    pipe.attach(sink);
    let settled = false;
    void Promise.all(writes).then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    for (let round = 0; round < 3; round += 1) {
      release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(writes);
    expect(received.join("")).toBe("abc");
  });

  it("close() rejects the writes still waiting for the sink, and every later write", async () => {
    const pipe = new StdinPipe();
    const { sink } = slowSink();
    pipe.attach(sink);
    const pending = pipe.write("held");
    pipe.close("the process exited");
    await expect(pending).rejects.toThrow("stdin.write failed: the process exited.");
    await expect(pipe.write("late")).rejects.toThrow("stdin.write failed: the process exited.");
    await pipe.end();
  });

  it("end() before the sink exists ends it once attached; writes after end reject; end is idempotent", async () => {
    const pipe = new StdinPipe();
    const { sink, isEnded } = slowSink();
    const first = pipe.end();
    expect(pipe.end()).toBe(first);
    await expect(pipe.write("x")).rejects.toThrow("stdin.write failed: stdin was ended.");
    pipe.attach(sink);
    await first;
    expect(isEnded()).toBe(true);
  });

  it("rejects data that is neither a string nor bytes", async () => {
    await expect(new StdinPipe().write(42 as unknown as string)).rejects.toThrow(TypeError);
  });
});

describe("checkStdinOption", () => {
  it("accepts absent and pipe, refuses other values and pipe with input or logFile, naming the option", () => {
    expect(() => checkStdinOption({ command: "cat", cwd: "/" })).not.toThrow();
    expect(() => checkStdinOption({ command: "cat", cwd: "/", stdin: "pipe" })).not.toThrow();
    const refused = (options: object) => {
      try {
        checkStdinOption({ command: "cat", cwd: "/", ...options });
      } catch (error) {
        expect(error).toBeInstanceOf(SdkError);
        return (error as SdkError).details;
      }
      throw new Error("not refused");
    };
    expect(refused({ stdin: "Pipe" })).toEqual({ option: "stdin", suggestion: "pipe" });
    expect(refused({ stdin: true })).toEqual({ option: "stdin", suggestion: "pipe" });
    expect(refused({ stdin: "pipe", input: "" })).toEqual({ option: "input" });
    expect(refused({ stdin: "pipe", logFile: "/tmp/x.log" })).toEqual({ option: "logFile" });
  });
});
