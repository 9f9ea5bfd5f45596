import { describe, expect, it } from "vitest";
import type { SubagentMessage } from "../domain/subagent-types.js";
import type { SubagentStore } from "../ports/subagent-store.js";
import { freshConversationId, type SubagentStoreContractContext, sampleMessage } from "./subagent-store-contract-fixtures.js";

/** Appends per conversation racing on `stores` (each `perStore` at once): seqs must be exactly 1..N. */
async function expectGaplessRace(stores: readonly SubagentStore[], perStore: number): Promise<void> {
  const conversation = freshConversationId("race");
  const appended = await Promise.all(
    stores.flatMap((store, storeIndex) =>
      Array.from({ length: perStore }, (_, index) => store.appendMessage(conversation, sampleMessage({ body: `store ${storeIndex} message ${index}` }))),
    ),
  );
  const total = stores.length * perStore;
  const expected = Array.from({ length: total }, (_, index) => index + 1);
  expect(appended.map((message) => message.seq).sort((left, right) => left - right)).toEqual(expected);
  const listed = await stores[0]!.listMessages(conversation, { limit: total + 10 });
  expect(listed.map((message) => message.seq)).toEqual(expected);
  // Each listed message is the one its append resolved with.
  const bySeq = new Map(appended.map((message) => [message.seq, message.body]));
  expect(listed.every((message) => bySeq.get(message.seq) === message.body)).toBe(true);
}

/** The message bus: seq assignment, paging, round trip, isolation and the append race. */
export function describeSubagentMessageContract({ target, withStore }: SubagentStoreContractContext): void {
  describe("messages", () => {
    it("assigns seq 1, 2, 3 per conversation and round-trips every field", () =>
      withStore(async (store) => {
        const conversation = freshConversationId();
        const other = freshConversationId();
        const first = await store.appendMessage(conversation, sampleMessage());
        expect(first).toEqual({ ...sampleMessage(), seq: 1 });
        expect((await store.appendMessage(other, sampleMessage({ body: "elsewhere" }))).seq).toBe(1);
        const second = await store.appendMessage(conversation, sampleMessage({ recipientId: "*", channel: "decision", body: "second" }));
        expect(second.seq).toBe(2);
        expect(await store.listMessages(conversation)).toEqual([first, second]);
        expect((await store.listMessages(other)).map((message) => message.body)).toEqual(["elsewhere"]);
      }));

    it("keeps optional fields absent, and stamps createdAt when it is not given", () =>
      withStore(async (store) => {
        const conversation = freshConversationId();
        const before = Date.now();
        const appended = await store.appendMessage(conversation, { senderId: "a", recipientId: "parent", channel: "question", body: "" });
        const after = Date.now();
        expect(appended.createdAt).toBeGreaterThanOrEqual(before);
        expect(appended.createdAt).toBeLessThanOrEqual(after);
        const expected: SubagentMessage = { seq: 1, senderId: "a", recipientId: "parent", channel: "question", body: "", createdAt: appended.createdAt };
        expect(appended).toStrictEqual(expected);
        expect(await store.listMessages(conversation)).toStrictEqual([expected]);
      }));

    it("lists after a seq, ascending, at most limit (default 80)", () =>
      withStore(async (store) => {
        const conversation = freshConversationId();
        for (let index = 0; index < 90; index += 1) await store.appendMessage(conversation, sampleMessage({ body: `m${index + 1}` }));
        const page = await store.listMessages(conversation);
        expect(page.map((message) => message.seq)).toEqual(Array.from({ length: 80 }, (_, index) => index + 1));
        expect((await store.listMessages(conversation, { afterSeq: 80 })).map((message) => message.body)).toEqual(
          Array.from({ length: 10 }, (_, index) => `m${index + 81}`),
        );
        expect((await store.listMessages(conversation, { afterSeq: 5, limit: 3 })).map((message) => message.seq)).toEqual([6, 7, 8]);
        expect(await store.listMessages(conversation, { afterSeq: 90 })).toEqual([]);
        expect(await store.listMessages(conversation, { limit: 0 })).toEqual([]);
        expect(await store.listMessages(freshConversationId())).toEqual([]);
      }));

    it("is not changed by mutating what was passed in or handed out", () =>
      withStore(async (store) => {
        const conversation = freshConversationId();
        const message = { ...sampleMessage({ body: "original" }) };
        const appended = await store.appendMessage(conversation, message);
        (message as { body: string }).body = "changed input";
        (appended as { body: string }).body = "changed result";
        const [listed] = await store.listMessages(conversation);
        (listed as { body: string }).body = "changed listing";
        expect((await store.listMessages(conversation))[0]?.body).toBe("original");
      }));

    it("gives 50 concurrent appends on one store seqs 1..50 without gap or duplicate", () => withStore((store) => expectGaplessRace([store], 50)));

    it.runIf(target.sharedBackend === true)("gives 2 store instances x 50 concurrent appends seqs 1..100 without gap or duplicate", async () => {
      const stores = [await target.open(), await target.open()];
      try {
        await expectGaplessRace(stores, 50);
      } finally {
        for (const store of stores) await (target.dispose ? target.dispose(store) : store.close?.());
      }
    });
  });
}
