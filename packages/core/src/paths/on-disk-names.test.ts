import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchOnDiskNames } from "./on-disk-names.js";
import { createPathPolicy } from "./path-policy.js";

let base: string;
beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "on-disk-")));
  mkdirSync(path.join(base, "re\u0301sume\u0301"));
  writeFileSync(path.join(base, "re\u0301sume\u0301", "cafe\u0301.txt"), "nfd");
  writeFileSync(path.join(base, "both-\u00e9"), "nfc");
  writeFileSync(path.join(base, "both-e\u0301"), "nfd");
  // Mixed: the first accent composed, the second decomposed.
  writeFileSync(path.join(base, "m\u00e9le\u0301e"), "mixed");
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("matchOnDiskNames", () => {
  it("maps each segment to the on-disk spelling, from the root down", () => {
    expect(matchOnDiskNames(base, ["r\u00e9sum\u00e9", "caf\u00e9.txt"])).toEqual(["re\u0301sume\u0301", "cafe\u0301.txt"]);
    expect(matchOnDiskNames(base, ["re\u0301sume\u0301", "cafe\u0301.txt"])).toEqual(["re\u0301sume\u0301", "cafe\u0301.txt"]);
  });

  it("prefers the name as given when several forms exist", () => {
    expect(matchOnDiskNames(base, ["both-\u00e9"])).toEqual(["both-\u00e9"]);
    expect(matchOnDiskNames(base, ["both-e\u0301"])).toEqual(["both-e\u0301"]);
  });

  it("finds a name in neither normal form by reading the directory", () => {
    expect(matchOnDiskNames(base, ["m\u00e9l\u00e9e"])).toEqual(["m\u00e9le\u0301e"]);
  });

  it("returns missing names in NFC, after the existing prefix", () => {
    expect(matchOnDiskNames(base, ["r\u00e9sum\u00e9", "nouveau", "e\u0301te\u0301.txt"])).toEqual(["re\u0301sume\u0301", "nouveau", "\u00e9t\u00e9.txt"]);
    expect(matchOnDiskNames(base, ["src", "a.ts"])).toEqual(["src", "a.ts"]);
  });

  it("the path policy resolves and displays the on-disk names", () => {
    const policy = createPathPolicy({ workdir: base });
    const resolved = policy.resolve("r\u00e9sum\u00e9/caf\u00e9.txt", { intent: "read" });
    expect(resolved).toMatchObject({
      exists: true,
      displayPath: "re\u0301sume\u0301/cafe\u0301.txt",
      absolutePath: path.join(base, "re\u0301sume\u0301", "cafe\u0301.txt"),
    });
    expect(policy.resolve(`file://${base}/r%C3%A9sum%C3%A9/caf%C3%A9.txt`, { intent: "read" }).exists).toBe(true);
  });
});
