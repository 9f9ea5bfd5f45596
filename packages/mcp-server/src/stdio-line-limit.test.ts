import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { gateLineLength } from "./stdio-line-limit.js";

function gated(maxBytes: number) {
  const source = new PassThrough();
  let overflows = 0;
  const gate = gateLineLength(source, maxBytes, () => void (overflows += 1));
  let passed = "";
  gate.stream.setEncoding("utf8").on("data", (chunk: string) => (passed += chunk));
  return { source, gate, passed: () => passed, overflows: () => overflows };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("gateLineLength", () => {
  it("passes lines up to the limit through, across chunks", async () => {
    const run = gated(5);
    run.source.write("12345\nab");
    run.source.write("c\n");
    run.source.write("123");
    run.source.write("45\n");
    await tick();
    expect(run.passed()).toBe("12345\nabc\n12345\n");
    expect(run.overflows()).toBe(0);
  });

  it("stops at the chunk in which a line passes the limit, also when it is split over chunks or follows a newline", async () => {
    const split = gated(5);
    split.source.write("ok\n123");
    split.source.write("456\nnext\n");
    split.source.write("more\n");
    await tick();
    expect(split.passed()).toBe("ok\n123");
    expect(split.overflows()).toBe(1);

    const inOneChunk = gated(5);
    inOneChunk.source.write("ok\n123456\nlater\n");
    await tick();
    expect(inOneChunk.passed()).toBe("");
    expect(inOneChunk.overflows()).toBe(1);
  });

  it("ends its stream when the source ends, and stop() pauses a source nobody else reads", async () => {
    const run = gated(10);
    const ended = new Promise((resolve) => run.gate.stream.once("end", resolve));
    run.source.end("last\n");
    await ended;
    expect(run.passed()).toBe("last\n");

    const other = gated(10);
    other.gate.stop();
    expect(other.source.isPaused()).toBe(true);
    expect(other.source.listenerCount("data")).toBe(0);
  });
});
