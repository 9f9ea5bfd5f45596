import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFriendsQa } from "../../bench/memory/real-corpus/friendsqa.js";
import { loadRealCorpus, sourcesUnder } from "../../bench/memory/real-corpus/load-corpus.js";
import { questionKind } from "../../bench/memory/real-corpus/question-kinds.js";
import { evidenceGroups, loadRealtalk, parseRealtalkTime } from "../../bench/memory/real-corpus/realtalk.js";
import { writeFixtureClones } from "./real-corpus-fixture.js";

let dir: string;
beforeAll(async () => {
  dir = await writeFixtureClones();
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe("question kinds", () => {
  it("decides temporal, people, multi-session and single in that order", () => {
    expect(questionKind({ text: "Who went hiking?", category: 2, evidenceSessions: 3 })).toBe("temporal");
    expect(questionKind({ text: "  how long did the trip take?", evidenceSessions: 1 })).toBe("temporal");
    expect(questionKind({ text: "What year did she move?", evidenceSessions: 1 })).toBe("temporal");
    expect(questionKind({ text: "Whose dog is it?", evidenceSessions: 2 })).toBe("people");
    expect(questionKind({ text: "What does Kate like?", evidenceSessions: 2 })).toBe("multi-session");
    expect(questionKind({ text: "What does Kate like?", category: 1, evidenceSessions: 1 })).toBe("single");
    expect(questionKind({ text: "Whoever said that?", evidenceSessions: 1 })).toBe("single");
  });
});

describe("REALTALK loader", () => {
  it("reads the message clock as UTC", () => {
    expect(parseRealtalkTime("29.12.2023, 22:42:04")).toBe(Date.UTC(2023, 11, 29, 22, 42, 4));
    expect(() => parseRealtalkTime("2023-12-29")).toThrow(/DD\.MM\.YYYY/);
  });

  it("mends evidence ids and expands ranges to the turns that exist", () => {
    const known = new Set(["D1:1", "D1:2", "D1:4", "D2:18", "D17:39", "D23:29", "D20:19"]);
    expect(evidenceGroups("D1:1-D1:4", known)).toEqual([{ raw: "D1:1-D1:4", ids: ["D1:1", "D1:2", "D1:4"] }]);
    expect(evidenceGroups("D1:2-4", known)).toEqual([{ raw: "D1:2-4", ids: ["D1:2", "D1:4"] }]);
    expect(evidenceGroups("D 2:18; D17: 39, 23:29.", known).map((group) => group.ids)).toEqual([["D2:18"], ["D17:39"], ["D23:29"]]);
    expect(evidenceGroups("D1:1:D20:19", known).map((group) => group.ids)).toEqual([["D1:1"], ["D20:19"]]);
    expect(evidenceGroups("D:56", known)).toEqual([{ raw: "D:56", ids: [] }]);
  });

  it("turns messages into entries and evidence into entry keys, counting what names no message", () => {
    const dataset = loadRealtalk(path.join(dir, "REALTALK"));
    expect(dataset.entries).toHaveLength(6);
    expect(dataset.entries[0]).toMatchObject({
      key: "realtalk-chat-1/msg-00001",
      project: "realtalk-chat-1",
      body: "Ann: I adopted a puppy named Biscuit today",
      description: "I adopted a puppy named Biscuit today",
      createdAt: Date.UTC(2024, 0, 1, 10, 0, 0),
      session: "session_1",
    });
    expect(dataset.projects).toEqual([{ name: "realtalk-chat-1", now: Date.UTC(2024, 0, 3, 20, 6, 0) + 86_400_000 }]);
    const byText = new Map(dataset.questions.map((question) => [question.text, question]));
    expect(byText.get("What is the name of Ann's puppy?")).toMatchObject({ kind: "single", evidence: ["realtalk-chat-1/msg-00001"], category: 1 });
    // D1:4 is in session_1 and D1:5 in session_2: matched by dia_id, two sessions.
    expect(byText.get("What did the beagle chew?")).toMatchObject({
      kind: "multi-session",
      evidence: ["realtalk-chat-1/msg-00003", "realtalk-chat-1/msg-00004"],
    });
    expect(byText.get("When does Bob start at the bakery?")?.kind).toBe("temporal");
    expect(byText.get("Who adopted a puppy?")).toMatchObject({ kind: "people", evidence: ["realtalk-chat-1/msg-00001"] });
    expect(byText.get("How did the puppy talk go?")?.evidence).toHaveLength(3);
    expect(byText.has("What happened on the moon?")).toBe(false);
    expect(dataset.skips).toMatchObject({ unmappedEvidence: 2, questionsWithoutEvidence: 1 });
    expect(dataset.skips.examples).toEqual(['data/Chat_1_Ann_Bob.json: "D1:3"', 'data/Chat_1_Ann_Bob.json: "D9:9"']);
  });

  it("reads the same data from a git directory without a work tree (the mirrors) as from files", async () => {
    const git = (cwd: string, ...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd, stdio: "pipe" });
    const repo = path.join(dir, "REALTALK");
    git(repo, "init", "-q");
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "fixture");
    const bare = await fs.mkdtemp(path.join(os.tmpdir(), "real-corpus-bare-"));
    try {
      git(bare, "clone", "-q", "--bare", repo, path.join(bare, "repo"));
      expect(loadRealtalk(path.join(bare, "repo"))).toEqual(loadRealtalk(repo));
    } finally {
      await fs.rm(bare, { recursive: true, force: true });
      await fs.rm(path.join(repo, ".git"), { recursive: true, force: true });
    }
  });

  it("says where the data is missing and how to get it", () => {
    expect(() => loadRealtalk(path.join(dir, "nothing-here"))).toThrow(/git clone --depth 1 https:\/\/github.com\/danny911kr\/REALTALK/);
  });
});

describe("FriendsQA loader", () => {
  it("puts a season's scenes in one project and maps answers to utterances", () => {
    const dataset = loadFriendsQa("dev", path.join(dir, "FriendsQA"));
    expect(dataset.projects.map((project) => project.name)).toEqual(["friendsqa-dev-s01", "friendsqa-dev-s02"]);
    expect(dataset.entries.map((entry) => entry.body)).toEqual([
      "Ross Geller: I got a monkey named Marcel .",
      "Monica Geller: Where did you get it ?",
      "Chandler Bing & Joey Tribbiani: We bought a foosball table .",
      "someone: The lights go out .",
      "Rachel Green: I work at the coffee house .",
    ]);
    expect(dataset.entries[2]!.createdAt).toBeGreaterThan(dataset.entries[1]!.createdAt);
    expect(dataset.questions.map((question) => [question.id, question.project, question.kind, question.evidence])).toEqual([
      ["s01_e02_c01_Who", "friendsqa-dev-s01", "people", ["friendsqa-dev-s01/msg-00001"]],
      ["s01_e02_c01_What", "friendsqa-dev-s01", "single", ["friendsqa-dev-s01/msg-00001"]],
      ["s01_e03_c02_When", "friendsqa-dev-s01", "temporal", ["friendsqa-dev-s01/msg-00004"]],
      ["s02_e01_c01_Where", "friendsqa-dev-s02", "single", ["friendsqa-dev-s02/msg-00001"]],
    ]);
    expect(dataset.skips).toMatchObject({ unmappedEvidence: 1, questionsWithoutEvidence: 0 });
  });

  it("loads every dataset by name from --data's two clones, the test split apart", () => {
    const datasets = loadRealCorpus(undefined, sourcesUnder(dir));
    expect(datasets.map((dataset) => [dataset.name, dataset.questions.length])).toEqual([
      ["realtalk", 5],
      ["friendsqa-dev", 4],
      ["friendsqa-test", 1],
    ]);
    expect(datasets[2]!.projects.map((project) => project.name)).toEqual(["friendsqa-test-s02"]);
    expect(() => loadRealCorpus(["locomo"], sourcesUnder(dir))).toThrow(/unknown dataset "locomo"/);
  });
});
