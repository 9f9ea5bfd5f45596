/**
 * A tiny REALTALK chat and FriendsQA split in the sources' own formats, written
 * to a temporary directory as two "clones" side by side, for the loader and
 * evaluator tests (the real data is never in the repository).
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

const message = (dia_id: string, speaker: string, date_time: string, clean_text: string) => ({ clean_text, speaker, date_time, img_file: [], dia_id });

/** One chat: dia ids do not follow the session keys (D1:5 is in session_2), D1:3 is missing, as in the real data. */
export const FIXTURE_CHAT = {
  name: { speaker_1: "Ann", speaker_2: "Bob" },
  session_1: [
    message("D1:1", "Ann", "01.01.2024, 10:00:00", "I adopted a puppy named Biscuit today"),
    message("D1:2", "Bob", "01.01.2024, 10:01:30", "Congrats! What breed?"),
    message("D1:4", "Ann", "01.01.2024, 10:02:00", "A beagle with floppy ears"),
  ],
  session_1_date_time: "01.01.2024, 10:00:00",
  session_2: [
    message("D1:5", "Ann", "03.01.2024, 20:00:00", "Biscuit chewed my violin case"),
    message("D2:1", "Bob", "03.01.2024, 20:05:00", "I start my new job at the bakery on Monday"),
    message("D2:2", "Ann", "03.01.2024, 20:06:00", "Good luck with the bread"),
  ],
  session_2_date_time: "03.01.2024, 20:00:00",
  qa: [
    { question: "What is the name of Ann's puppy?", answer: "Biscuit", evidence: ["D1:1"], category: 1 },
    { question: "What did the beagle chew?", answer: "A violin case", evidence: ["D1:4; D1:5."], category: 1 },
    { question: "When does Bob start at the bakery?", answer: "Monday", evidence: ["D2:1"], category: 2 },
    { question: "Who adopted a puppy?", answer: "Ann", evidence: ["D 1:1", "D1:3"], category: 3 },
    { question: "What happened on the moon?", answer: "-", evidence: ["D9:9"], category: 1 },
    { question: "How did the puppy talk go?", answer: "-", evidence: ["D1:1-D1:4"], category: 3 },
  ],
};

/** One FriendsQA split: two scenes of season 1, one of season 2, one answer id that names no utterance. */
export const FIXTURE_FRIENDS = {
  version: "fixture",
  data: [
    {
      title: "s01_e02_c01",
      paragraphs: [
        {
          "utterances:": [
            { uid: 0, speakers: ["Ross Geller"], utterance: "I got a monkey named Marcel ." },
            { uid: 1, speakers: ["Monica Geller"], utterance: "Where did you get it ?" },
          ],
          qas: [
            { id: "s01_e02_c01_Who", question: "Who has a monkey ?", answers: [{ utterance_id: 0 }, { utterance_id: 0 }] },
            { id: "s01_e02_c01_What", question: "What is the monkey called ?", answers: [{ utterance_id: 0 }, { utterance_id: 7 }] },
          ],
        },
      ],
    },
    {
      title: "s01_e03_c02",
      paragraphs: [
        {
          "utterances:": [
            { uid: 0, speakers: ["Chandler Bing", "Joey Tribbiani"], utterance: "We bought a foosball table ." },
            { uid: 1, speakers: [], utterance: "The lights go out ." },
          ],
          qas: [{ id: "s01_e03_c02_When", question: "When do the lights go out ?", answers: [{ utterance_id: 1 }] }],
        },
      ],
    },
    {
      title: "s02_e01_c01",
      paragraphs: [
        {
          "utterances:": [{ uid: 0, speakers: ["Rachel Green"], utterance: "I work at the coffee house ." }],
          qas: [{ id: "s02_e01_c01_Where", question: "Where does Rachel work ?", answers: [{ utterance_id: 0 }] }],
        },
      ],
    },
  ],
};

/** Writes `<dir>/REALTALK/data/Chat_1_Ann_Bob.json` (and an unreadable locomo file) and `<dir>/FriendsQA/dat/friendsqa_{dev,tst}.json`. */
export async function writeFixtureClones(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "real-corpus-fixture-"));
  await fs.mkdir(path.join(dir, "REALTALK", "data", "locomo"), { recursive: true });
  await fs.writeFile(path.join(dir, "REALTALK", "data", "Chat_1_Ann_Bob.json"), JSON.stringify(FIXTURE_CHAT));
  await fs.writeFile(path.join(dir, "REALTALK", "data", "locomo", "Chat_1_locomo.json"), "not json: LoCoMo is never read");
  await fs.mkdir(path.join(dir, "FriendsQA", "dat"), { recursive: true });
  await fs.writeFile(path.join(dir, "FriendsQA", "dat", "friendsqa_dev.json"), JSON.stringify(FIXTURE_FRIENDS));
  await fs.writeFile(path.join(dir, "FriendsQA", "dat", "friendsqa_tst.json"), JSON.stringify({ data: [FIXTURE_FRIENDS.data[2]] }));
  return dir;
}
