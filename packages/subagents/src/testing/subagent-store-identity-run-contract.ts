import { describe, expect, it } from "vitest";
import { freshConversationId, type SubagentStoreContractContext, sampleIdentity, sampleRun } from "./subagent-store-contract-fixtures.js";

/** Identities (case-insensitive upsert, byte order, isolation) and runs (round trip, listing, prune). */
export function describeSubagentIdentityAndRunContract({ withStore }: SubagentStoreContractContext): void {
  describe("identities", () => {
    it("round-trips every field, and lists nothing for an unknown conversation", () =>
      withStore(async (store) => {
        const conversation = freshConversationId();
        const identity = sampleIdentity("Reviewer");
        await store.upsertIdentity(conversation, identity);
        expect(await store.listIdentities(conversation)).toEqual([identity]);
        expect(await store.listIdentities(freshConversationId())).toEqual([]);
      }));

    it("keeps optional fields absent when they were absent", () =>
      withStore(async (store) => {
        const conversation = freshConversationId();
        const { templateId: _template, lastMode: _mode, ...bare } = sampleIdentity("bare", { identityPrompt: "" });
        await store.upsertIdentity(conversation, bare);
        const [listed] = await store.listIdentities(conversation);
        expect(listed).toStrictEqual(bare);
      }));

    it("matches ids case-insensitively: an upsert replaces the fields and keeps the first id's case", () =>
      withStore(async (store) => {
        const conversation = freshConversationId();
        await store.upsertIdentity(conversation, sampleIdentity("Reviewer"));
        const replacement = sampleIdentity("REVIEWER", { name: "Renamed", lastMode: "readonly", templateId: undefined, updatedAt: 1_800_000_000_000 });
        await store.upsertIdentity(conversation, replacement);
        expect(await store.listIdentities(conversation)).toEqual([{ ...replacement, id: "Reviewer" }]);
        expect((await store.listIdentities(conversation))[0]?.templateId).toBeUndefined();
      }));

    it("sorts by id in byte order, not locale order", () =>
      withStore(async (store) => {
        const conversation = freshConversationId();
        for (const id of ["beta", "Zed", "alpha", "_under", "Alpha2", "a.b", "a-b"]) await store.upsertIdentity(conversation, sampleIdentity(id));
        expect((await store.listIdentities(conversation)).map((identity) => identity.id)).toEqual(["Alpha2", "Zed", "_under", "a-b", "a.b", "alpha", "beta"]);
      }));

    it("keeps conversations apart", () =>
      withStore(async (store) => {
        const first = freshConversationId();
        const second = freshConversationId();
        await store.upsertIdentity(first, sampleIdentity("one"));
        await store.upsertIdentity(second, sampleIdentity("ONE", { name: "Other" }));
        expect(await store.listIdentities(first)).toEqual([sampleIdentity("one")]);
        expect(await store.listIdentities(second)).toEqual([sampleIdentity("ONE", { name: "Other" })]);
      }));

    it("is not changed by mutating what was passed in or handed out", () =>
      withStore(async (store) => {
        const conversation = freshConversationId();
        const identity = { ...sampleIdentity("mutable") };
        await store.upsertIdentity(conversation, identity);
        (identity as { name: string }).name = "changed after upsert";
        const [listed] = await store.listIdentities(conversation);
        (listed as { name: string }).name = "changed after list";
        expect((await store.listIdentities(conversation))[0]?.name).toBe("Agent mutable");
      }));
  });

  describe("runs", () => {
    it("round-trips every field, messages JSON included, and replaces a run saved again", () =>
      withStore(async (store) => {
        const conversation = freshConversationId();
        const running = sampleRun("call_1:agent:1:Reviewer:u1", "Reviewer", { status: "running", summary: undefined, endedAt: undefined });
        await store.saveRun(conversation, running);
        expect(await store.loadRun(conversation, running.runId)).toEqual(running);
        const done = sampleRun("call_1:agent:1:Reviewer:u1", "Reviewer", { messages: [...running.messages, { role: "user", content: "more" }] });
        await store.saveRun(conversation, done);
        expect(await store.loadRun(conversation, done.runId)).toStrictEqual(done);
        expect(await store.listRuns(conversation)).toEqual([done]);
      }));

    it("keeps optional fields absent when they were absent", () =>
      withStore(async (store) => {
        const conversation = freshConversationId();
        const { summary: _s, error: _e, worktreePath: _w, endedAt: _t, ...bare } = sampleRun("bare-run", "bare", { messages: [] });
        await store.saveRun(conversation, bare);
        expect(await store.loadRun(conversation, "bare-run")).toStrictEqual(bare);
      }));

    it("loads nothing for an unknown run or another conversation's run", () =>
      withStore(async (store) => {
        const conversation = freshConversationId();
        await store.saveRun(conversation, sampleRun("only-here", "a"));
        expect(await store.loadRun(conversation, "missing")).toBeUndefined();
        expect(await store.loadRun(freshConversationId(), "only-here")).toBeUndefined();
        expect(await store.listRuns(freshConversationId())).toEqual([]);
      }));

    it("lists newest first, narrows to one agent case-insensitively, honours limit (default 50) and withMessages", () =>
      withStore(async (store) => {
        const conversation = freshConversationId();
        const runs = Array.from({ length: 55 }, (_, index) =>
          sampleRun(`run-${String(index).padStart(2, "0")}`, index % 2 === 0 ? "Even" : "odd", { startedAt: 1_000 + index }),
        );
        for (const run of [...runs].reverse()) await store.saveRun(conversation, run);
        const all = await store.listRuns(conversation);
        expect(all.map((run) => run.runId)).toEqual(
          runs
            .map((run) => run.runId)
            .reverse()
            .slice(0, 50),
        );
        const even = await store.listRuns(conversation, { agentId: "EVEN", limit: 3 });
        expect(even.map((run) => run.runId)).toEqual(["run-54", "run-52", "run-50"]);
        expect(even[0]).toEqual(runs[54]);
        const cheap = await store.listRuns(conversation, { agentId: "Odd", limit: 2, withMessages: false });
        expect(cheap.map((run) => run.runId)).toEqual(["run-53", "run-51"]);
        // Everything but the messages, which may be left out.
        expect({ ...cheap[0], messages: [] }).toEqual({ ...runs[53], messages: [] });
        expect([[], runs[53]?.messages]).toContainEqual(cheap[0]?.messages);
        expect(await store.listRuns(conversation, { agentId: "nobody" })).toEqual([]);
        expect(await store.listRuns(conversation, { limit: 0 })).toEqual([]);
      }));

    it("orders runs that started at the same time by run id, descending", () =>
      withStore(async (store) => {
        const conversation = freshConversationId();
        for (const runId of ["b", "c", "a"]) await store.saveRun(conversation, sampleRun(runId, "same", { startedAt: 5 }));
        expect((await store.listRuns(conversation)).map((run) => run.runId)).toEqual(["c", "b", "a"]);
      }));

    it("prunes all but the newest N runs of each agent (case-insensitively) and returns how many went", () =>
      withStore(async (store) => {
        const conversation = freshConversationId();
        const other = freshConversationId();
        for (let index = 0; index < 5; index += 1) {
          await store.saveRun(conversation, sampleRun(`a-${index}`, index % 2 === 0 ? "Alpha" : "ALPHA", { startedAt: 100 + index }));
          await store.saveRun(conversation, sampleRun(`b-${index}`, "beta", { startedAt: 200 - index }));
          await store.saveRun(other, sampleRun(`a-${index}`, "Alpha", { startedAt: 100 + index }));
        }
        await store.saveRun(conversation, sampleRun("c-0", "gamma"));
        expect(await store.pruneRuns(conversation, 2)).toBe(6);
        expect((await store.listRuns(conversation)).map((run) => run.runId).sort()).toEqual(["a-3", "a-4", "b-0", "b-1", "c-0"]);
        expect(await store.listRuns(other)).toHaveLength(5);
        expect(await store.pruneRuns(conversation, 2)).toBe(0);
        expect(await store.pruneRuns(conversation, 0)).toBe(5);
        expect(await store.listRuns(conversation)).toEqual([]);
        expect(await store.pruneRuns(freshConversationId(), 1)).toBe(0);
      }));

    it("is not changed by mutating what was passed in or handed out", () =>
      withStore(async (store) => {
        const conversation = freshConversationId();
        const messages: unknown[] = [{ role: "user", content: "original" }];
        await store.saveRun(conversation, sampleRun("mutable", "m", { messages }));
        messages.push({ role: "user", content: "pushed after save" });
        const loaded = await store.loadRun(conversation, "mutable");
        if (loaded === undefined) throw new Error("the run was not saved");
        (loaded.messages as unknown[]).push("pushed after load");
        (loaded.messages[0] as { content: string }).content = "changed";
        expect((await store.loadRun(conversation, "mutable"))?.messages).toEqual([{ role: "user", content: "original" }]);
      }));
  });
}
