/**
 * The contract every {@link ModelClient} adapter meets, as a vitest suite a
 * host can run against its own adapter.
 */
import { afterEach, describe, expect, it } from "vitest";
import { isAbortError } from "@agent-tools/core";
import type { ModelClient, ModelRequest } from "@agent-tools/core";

/** One assistant turn the backend behind the adapter must produce. */
export type ModelContractTurn =
  | { text?: string; toolCalls?: { id: string; name: string; arguments: string }[] }
  /** The backend never answers (the suite aborts the request). */
  | { hang: true };

/** What a contract target builds for one test. */
export interface ModelContractInstance {
  client: ModelClient;
  close?(): Promise<void>;
}

/** A ModelClient adapter under test. */
export interface ModelClientContractTarget {
  /** Shown in the suite's title. */
  name: string;
  /**
   * Builds a client whose backend answers the given turns in order (a test
   * server, a mock provider, a script). The backend must not parse or repair
   * tool-call arguments.
   */
  create(turns: readonly ModelContractTurn[]): Promise<ModelContractInstance> | ModelContractInstance;
  /** Whether the adapter streams text through `onTextDelta` when one is given; default true. */
  streams?: boolean;
}

const conversation: ModelRequest["messages"] = [
  { role: "system", content: "You are terse." },
  { role: "user", content: "Read a.txt" },
];

const readTool = {
  name: "Read",
  description: "Reads a file.",
  inputSchema: { type: "object" as const, properties: { path: { type: "string" } }, required: ["path"], additionalProperties: false },
};

/**
 * Runs the ModelClient contract: text answers, tool calls with raw (even
 * malformed) arguments, multi-turn history with tool results, streamed deltas
 * that add up to the text, and abort before and during a call.
 *
 * @example
 * runModelClientContract({
 *   name: "scripted",
 *   create: (turns) => ({ client: new ScriptedModelClient(turns.map((turn) => ("hang" in turn ? () => new Promise(() => {}) : turn))) }),
 * });
 */
export function runModelClientContract(target: ModelClientContractTarget): void {
  describe(`ModelClient contract: ${target.name}`, () => {
    let instance: ModelContractInstance | undefined;
    const create = async (turns: readonly ModelContractTurn[]) => {
      instance = await target.create(turns);
      return instance.client;
    };
    afterEach(async () => {
      await instance?.close?.();
      instance = undefined;
    });

    it("has a non-empty id", async () => {
      const client = await create([]);
      expect(typeof client.id).toBe("string");
      expect(client.id.length).toBeGreaterThan(0);
    });

    it("returns the assistant text with finish reason stop", async () => {
      const client = await create([{ text: "Hello there." }]);
      const response = await client.generate({ messages: conversation });
      expect(response.text).toBe("Hello there.");
      expect(response.toolCalls).toEqual([]);
      expect(response.finishReason).toBe("stop");
    });

    it("returns tool calls in order with their raw arguments", async () => {
      const client = await create([
        {
          toolCalls: [
            { id: "call_a", name: "Read", arguments: '{"path":"a.txt"}' },
            { id: "call_b", name: "Read", arguments: '{"path": "b.txt", "note": "ünïcode ✓"}' },
          ],
        },
      ]);
      const response = await client.generate({ messages: conversation, tools: [readTool] });
      expect(response.finishReason).toBe("tool-calls");
      expect(response.toolCalls).toEqual([
        { id: "call_a", name: "Read", arguments: '{"path":"a.txt"}' },
        { id: "call_b", name: "Read", arguments: '{"path": "b.txt", "note": "ünïcode ✓"}' },
      ]);
    });

    it("passes malformed tool-call arguments through as raw text", async () => {
      const client = await create([{ toolCalls: [{ id: "call_x", name: "Read", arguments: '{"path": "a.txt"' }] }]);
      const response = await client.generate({ messages: conversation, tools: [readTool] });
      expect(response.toolCalls).toEqual([{ id: "call_x", name: "Read", arguments: '{"path": "a.txt"' }]);
    });

    it("accepts a history with tool calls and tool results", async () => {
      const client = await create([{ text: "a.txt says hi." }]);
      const response = await client.generate({
        messages: [
          ...conversation,
          { role: "assistant", content: "", toolCalls: [{ id: "call_a", name: "Read", arguments: '{"path":"a.txt"}' }] },
          { role: "tool", toolCallId: "call_a", toolName: "Read", content: "hi" },
          { role: "user", content: "And b.txt?" },
          { role: "assistant", content: "", toolCalls: [{ id: "call_b", name: "Read", arguments: '{"path":"b.txt"}' }] },
          { role: "tool", toolCallId: "call_b", toolName: "Read", content: "b.txt does not exist.", isError: true },
        ],
        tools: [readTool],
      });
      expect(response.text).toBe("a.txt says hi.");
    });

    if (target.streams !== false) {
      it("streams text deltas that add up to the text", async () => {
        const text = "Streaming works, one piece at a time: ✓ done.";
        const client = await create([{ text }]);
        const deltas: string[] = [];
        const response = await client.generate({ messages: conversation, onTextDelta: (delta) => deltas.push(delta) });
        expect(deltas.length).toBeGreaterThan(1);
        expect(deltas.join("")).toBe(text);
        expect(response.text).toBe(text);
      });

      it("streams tool calls with their arguments assembled", async () => {
        const args = '{"path":"some/longer/path/name.txt"}';
        const client = await create([{ text: "Reading.", toolCalls: [{ id: "call_s", name: "Read", arguments: args }] }]);
        const response = await client.generate({ messages: conversation, tools: [readTool], onTextDelta: () => undefined });
        expect(response.text).toBe("Reading.");
        expect(response.toolCalls).toEqual([{ id: "call_s", name: "Read", arguments: args }]);
        expect(response.finishReason).toBe("tool-calls");
      });
    }

    it("rejects with an AbortError when aborted before the call", async () => {
      const client = await create([{ text: "never" }]);
      const controller = new AbortController();
      controller.abort();
      const error = await client.generate({ messages: conversation, signal: controller.signal }).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(isAbortError(error)).toBe(true);
    });

    it("rejects with an AbortError when aborted during the call", async () => {
      const client = await create([{ hang: true }]);
      const controller = new AbortController();
      const pending = client.generate({ messages: conversation, signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      const error = await pending.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(isAbortError(error)).toBe(true);
    });

    it("rejects with an AbortError when aborted while streaming", async () => {
      const client = await create([{ hang: true }]);
      const controller = new AbortController();
      const pending = client.generate({ messages: conversation, signal: controller.signal, onTextDelta: () => undefined });
      setTimeout(() => controller.abort(), 50);
      const error = await pending.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(isAbortError(error)).toBe(true);
    });
  });
}
