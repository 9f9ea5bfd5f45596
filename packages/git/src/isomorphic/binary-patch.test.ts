import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { applyGitDelta, decodeBase85Lines, decodeBinaryHunk, encodeBase85Lines, formatBinaryPatch } from "./git-binary-patch.js";

describe("git binary patch encoding", () => {
  it("round-trips base85 lines of every length", () => {
    for (const length of [0, 1, 3, 4, 5, 26, 27, 51, 52, 53, 104, 1000]) {
      const data = randomBytes(length);
      expect(Buffer.compare(decodeBase85Lines(encodeBase85Lines(data)), data)).toBe(0);
    }
  });

  it("rejects a corrupt line", () => {
    expect(() => decodeBase85Lines(["Bzzz"])).toThrow(/corrupt/);
  });

  it("produces literals that decode to the contents", () => {
    const oldContent = randomBytes(300);
    const newContent = randomBytes(120);
    const text = formatBinaryPatch(oldContent, newContent);
    const sections = text.split("\n\n");
    const [forwardHeader, ...forwardLines] = sections[0]!.split("\n").slice(1);
    expect(forwardHeader).toBe("literal 120");
    expect(Buffer.compare(decodeBinaryHunk("literal", 120, forwardLines).data, newContent)).toBe(0);
    const [reverseHeader, ...reverseLines] = sections[1]!.split("\n");
    expect(reverseHeader).toBe("literal 300");
    expect(Buffer.compare(decodeBinaryHunk("literal", 300, reverseLines).data, oldContent)).toBe(0);
  });

  it("applies copy and insert instructions of a git delta", () => {
    const base = Buffer.from("0123456789abcdef");
    // base size 16, result size 9: copy 4 bytes from offset 2, insert "XYZ", copy 2 bytes from offset 14.
    const delta = Buffer.from([16, 9, 0x80 | 0x01 | 0x10, 2, 4, 3, 0x58, 0x59, 0x5a, 0x80 | 0x01 | 0x10, 14, 2]);
    expect(applyGitDelta(base, delta).toString()).toBe("2345XYZef");
    expect(() => applyGitDelta(Buffer.from("short"), delta)).toThrow(/16-byte base/);
  });
});
