import { describe, expect, it } from "vitest";
import type { ToolOutputDeltaEvent } from "../registry/events.js";
import type { ToolResult } from "../types.js";
import { streamToolCallResults } from "./ai-sdk-preliminary.js";

const final: ToolResult = { content: [{ type: "text", text: "done" }], details: { exitCode: 0 }, isError: false };
const delta = (text: string, data?: unknown): ToolOutputDeltaEvent => ({ type: "tool-output-delta", callId: "c", toolName: "Bash", update: { text, data } });

async function collect(iterable: AsyncIterable<ToolResult>): Promise<ToolResult[]> {
  const out: ToolResult[] = [];
  for await (const value of iterable) out.push(value);
  return out;
}

describe("streamToolCallResults", () => {
  it("yields a cumulative snapshot per update, then the final result", async () => {
    const results = await collect(
      streamToolCallResults(async (onUpdate) => {
        onUpdate(delta("a\n"));
        await new Promise((resolve) => setTimeout(resolve, 1));
        onUpdate(delta("b\n", { percent: 50 }));
        await new Promise((resolve) => setTimeout(resolve, 1));
        return final;
      }),
    );
    expect(results).toEqual([
      { content: [{ type: "text", text: "a\n" }], details: { preliminary: true }, isError: false },
      { content: [{ type: "text", text: "a\nb\n" }], details: { preliminary: true, data: { percent: 50 } }, isError: false },
      final,
    ]);
  });

  it("folds updates that arrive together into one snapshot and yields only the result without updates", async () => {
    const together = await collect(
      streamToolCallResults(async (onUpdate) => {
        onUpdate(delta("a"));
        onUpdate(delta("b"));
        return final;
      }),
    );
    expect(together.map((result) => result.content)).toEqual([[{ type: "text", text: "ab" }], final.content]);
    expect(await collect(streamToolCallResults(async () => final))).toEqual([final]);
  });

  it("rethrows a rejected call (host misuse) after the snapshots", async () => {
    const iterator = streamToolCallResults(async () => {
      throw new Error("closed");
    });
    await expect(collect(iterator)).rejects.toThrow("closed");
  });
});
