import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../__fixtures__/workspace.js";

// Reproduces an adversarial run: path inputs were normalised to NFC, so a file
// whose on-disk name is decomposed (NFD, as macOS and some archives write
// names) was "not found", and did-you-mean repeated the unreachable name.
// These tests sit beside Image because they cover the path policy through
// every file tool.

const NFD = "cafe\u0301.txt";
const NFC = "caf\u00e9.txt";
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

let ws: TestWorkspace;
let extra: string | undefined;
afterEach(() => {
  ws?.cleanup();
  if (extra) rmSync(extra, { recursive: true, force: true });
  extra = undefined;
});

describe("decomposed (NFD) file names", () => {
  it("Read reaches an NFD file by its NFC and its NFD spelling, and shows the on-disk name", async () => {
    for (const input of [NFC, NFD]) {
      ws?.cleanup();
      ws = createTestWorkspace({ [NFD]: "bonjour\n" });
      const result = await ws.call("Read", { path: input });
      expect(result.isError, result.text).toBe(false);
      expect(result.text).toContain("bonjour");
      expect((result.details as { path: string }).path).toBe(NFD);
    }
  });

  it("Edit changes the NFD file and creates no NFC twin", async () => {
    ws = createTestWorkspace({ [NFD]: "bonjour\n" });
    await ws.call("Read", { path: NFC });
    const result = await ws.call("Edit", { path: NFC, old_string: "bonjour", new_string: "salut" });
    expect(result.isError, result.text).toBe(false);
    expect(readFileSync(path.join(ws.dir, NFD), "utf8")).toBe("salut\n");
    expect(readdirSync(ws.dir).filter((name) => name.startsWith("caf"))).toEqual([NFD]);
  });

  it("Write replaces the existing NFD file; a new name is created in NFC", async () => {
    ws = createTestWorkspace({ [NFD]: "old\n" });
    await ws.call("Read", { path: NFC });
    const replaced = await ws.call("Write", { path: NFC, content: "new\n" });
    expect(replaced.isError, replaced.text).toBe(false);
    expect(readFileSync(path.join(ws.dir, NFD), "utf8")).toBe("new\n");
    const created = await ws.call("Write", { path: "nouveau-cafe\u0301.txt", content: "x\n" });
    expect(created.isError, created.text).toBe(false);
    expect(readdirSync(ws.dir).filter((name) => name.startsWith("nouveau"))).toEqual(["nouveau-caf\u00e9.txt"]);
  });

  it("List, Read and Write go through an NFD directory", async () => {
    ws = createTestWorkspace({ "re\u0301sume\u0301/notes.txt": "n\n" });
    const listed = await ws.call("List", { path: "r\u00e9sum\u00e9" });
    expect(listed.isError, listed.text).toBe(false);
    expect(listed.text).toContain("notes.txt");
    expect((await ws.call("Read", { path: "r\u00e9sum\u00e9/notes.txt" })).isError).toBe(false);
    const written = await ws.call("Write", { path: "r\u00e9sum\u00e9/neu.txt", content: "x\n" });
    expect(written.isError, written.text).toBe(false);
    expect(readdirSync(path.join(ws.dir, "re\u0301sume\u0301")).sort()).toEqual(["neu.txt", "notes.txt"]);
    expect(readdirSync(ws.dir).filter((name) => name.startsWith("r"))).toEqual(["re\u0301sume\u0301"]);
  });

  it("Delete removes the NFD file named in NFC", async () => {
    ws = createTestWorkspace({ [NFD]: "x\n", "keep.txt": "k\n" });
    const result = await ws.call("Delete", { path: NFC });
    expect(result.isError, result.text).toBe(false);
    expect(readdirSync(ws.dir).filter((name) => name.startsWith("caf"))).toEqual([]);
  });

  it("Image shows an NFD-named image given in NFC", async () => {
    ws = createTestWorkspace({ "ge\u0301ant.png": PNG });
    const result = await ws.call("Image", { path: "g\u00e9ant.png" });
    expect(result.isError, result.text).toBe(false);
    expect(result.content.some((block) => block.type === "image")).toBe(true);
  });

  it("the name as given wins when both forms exist", async () => {
    ws = createTestWorkspace({ [NFD]: "decomposed\n", [NFC]: "composed\n" });
    expect((await ws.call("Read", { path: NFD })).text).toContain("decomposed");
    expect((await ws.call("Read", { path: NFC })).text).toContain("composed");
  });

  it("did-you-mean shows the on-disk NFD name, and that suggestion reaches the file", async () => {
    ws = createTestWorkspace({ [NFD]: "bonjour\n" });
    const missing = await ws.call("Read", { path: "CAF\u00c9.txt" });
    expect(missing.isError).toBe(true);
    const suggestions = (missing.details as { didYouMean: string[] }).didYouMean;
    expect(suggestions).toEqual([NFD]);
    const retry = await ws.call("Read", { path: suggestions[0]! });
    expect(retry.isError, retry.text).toBe(false);
  });

  it("an absolute path in NFC reaches a workspace whose own directory name is NFD", async () => {
    extra = realpathSync(mkdtempSync(path.join(os.tmpdir(), "nfd-")));
    const dir = path.join(extra, "proje\u0301t");
    mkdirSync(dir);
    ws = createTestWorkspace({ "a.txt": "inside\n" }, { dir });
    const result = await ws.call("Read", { path: path.join(extra, "proj\u00e9t", "a.txt") });
    expect(result.isError, result.text).toBe(false);
    expect((result.details as { path: string }).path).toBe("a.txt");
  });
});
