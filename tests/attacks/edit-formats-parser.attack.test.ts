/**
 * Attacks on the V4A patch parser (`@agent-tools/core/patch`) as a policy
 * sees it: every path the parser would act on must be among the paths
 * `patchTargetsOf` hands to the permission rules, whatever the header
 * spelling (extra spaces, tabs, CR in the middle of a line, NBSP, a BOM,
 * NUL, a header hidden in an added file's content, a heredoc), and hostile
 * sizes end with an answer (no recursion, no hang).
 */
import { ToolError } from "@agent-tools/core";
import { type ParsedPatch, parseV4APatch, patchTargetsOf } from "@agent-tools/core/patch";
import { describe, expect, it } from "vitest";

/** Every path the parser's operations touch, with the way the rules must judge it. */
function actedOn(parsed: ParsedPatch): Array<{ path: string; kind: string }> {
  const out: Array<{ path: string; kind: string }> = [];
  for (const operation of parsed.operations) {
    out.push({ path: operation.path, kind: operation.kind });
    if (operation.kind === "update" && operation.moveTo !== undefined) out.push({ path: operation.moveTo, kind: "add" });
  }
  return out;
}

/** Parses, or undefined when the parser refuses (with a ToolError, never anything else). */
function tryParse(text: string): ParsedPatch | undefined {
  try {
    return parseV4APatch(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe("invalid_arguments");
    return undefined;
  }
}

/** Asserts the rules see every path the parser acts on, with the same kind. */
function expectJudged(text: string): void {
  const parsed = tryParse(text);
  if (parsed === undefined) return;
  const targets = patchTargetsOf(text);
  for (const item of actedOn(parsed)) {
    expect(targets, `${JSON.stringify(text)} acts on ${JSON.stringify(item)} that the rules do not see`).toContainEqual(item);
  }
}

const HOSTILE_PATCHES = [
  "*** Begin Patch\n***  Update File: secret/a\n@@\n-x\n+y\n*** End Patch",
  "*** Begin Patch\n*** Update File:\tsecret/a\n@@\n-x\n+y\n*** End Patch",
  "*** Begin Patch\n*** Update File: a\r*** Delete File: secret/b\n@@\n-x\n+y\n*** End Patch",
  "*** Begin Patch\r*** Delete File: secret/b\r*** End Patch",
  "*** Begin Patch\r\n*** Delete File: secret/b\r\r\n*** End Patch\r\n",
  "*** Begin Patch\n*** Add File: a\n+*** Delete File: secret\n*** End Patch",
  "*** Begin Patch\n*** Add File: \u00a0secret/x\u00a0\n+x\n*** End Patch",
  "*** Begin Patch\n*** Add File: secret/x\u2028*** Delete File: y\n+x\n*** End Patch",
  "\ufeff*** Begin Patch\n*** Delete File: secret/x\n*** End Patch",
  "*** Begin Patch\n\ufeff*** Delete File: secret/x\n*** End Patch",
  "*** Begin Patch\n*** Delete File: a\0b\n*** End Patch",
  "*** Begin Patch\n*** Update File: a\n*** Move to: secret/a\n*** End Patch",
  "*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** Move to: secret/a\n*** End Patch",
  "apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: secret/a\n*** End Patch\nEOF",
  "<<EOF\n*** Begin Patch\n*** Update File: a\n@@\n-x\n+<<EOF\n+*** Delete File: secret/b\n*** End Patch\nEOF",
  "*** Begin Patch\n*** Update File: a\n@@ *** Delete File: secret/b\n-x\n+y\n*** End Patch",
  "*** Begin Patch\n*** Update File: a\n-x\n+y\n*** End of File\n*** Delete File: secret/b\n*** End Patch",
  "*** Begin Patch\n*** Update File: a\n-x\n+y\n*** End Patch\n*** Delete File: secret/b\n*** End Patch",
];

describe("V4A header recognition: the rules judge every path the parser acts on", () => {
  it("hostile header spellings, hidden headers and envelopes", () => {
    for (const text of HOSTILE_PATCHES) expectJudged(text);
  });

  it("CR in the middle of a header line is part of the path for both (one target, never a second header)", () => {
    const text = "*** Begin Patch\n*** Update File: a\r*** Delete File: secret/b\n@@\n-x\n+y\n*** End Patch";
    const parsed = tryParse(text);
    expect(parsed?.operations.map((operation) => operation.kind)).toEqual(["update"]);
    expect(patchTargetsOf(text).some((target) => target.kind === "delete")).toBe(false);
  });

  it("a generated mix of header-like lines (seeded, 3000 patches)", () => {
    const pieces = [
      "*** Add File: secret/a",
      "*** Delete File: secret/b",
      "*** Update File: secret/c",
      "*** Move to: secret/d",
      "***  Update File: secret/e",
      "*** Update File:\tsecret/f",
      "*** Update File: secret/g\r",
      "*** Add File: ",
      "*** Add File:",
      "*** End of File",
      "*** End Patch",
      "*** Begin Patch",
      "@@",
      "@@ anchor",
      "@@@",
      "+*** Delete File: secret/h",
      "-x",
      "+y",
      " z",
      "",
      "\r",
      "EOF",
      "<<'EOF'",
    ];
    let seed = 37;
    const next = (limit: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % limit;
    };
    for (let round = 0; round < 3000; round += 1) {
      const body = Array.from({ length: 2 + next(8) }, () => pieces[next(pieces.length)]!);
      const text = ["*** Begin Patch", ...body, "*** End Patch"].join(next(2) === 0 ? "\n" : "\r\n");
      expectJudged(text);
    }
  });
});

describe("V4A parser: hostile sizes end with an answer", () => {
  it("10,000 files, 100,000 stacked `@@` anchors and a 20 MB line parse without recursion", () => {
    const files = ["*** Begin Patch"];
    for (let index = 0; index < 10_000; index += 1) files.push(`*** Add File: f${index}.txt`, "+x");
    files.push("*** End Patch");
    expect(parseV4APatch(files.join("\n")).operations).toHaveLength(10_000);
    const anchors = ["*** Begin Patch", "*** Update File: a.txt"];
    for (let index = 0; index < 100_000; index += 1) anchors.push(`@@ anchor ${index}`);
    anchors.push("-a", "+b", "*** End Patch");
    const parsed = parseV4APatch(anchors.join("\n"));
    expect(parsed.operations[0]?.kind === "update" && parsed.operations[0].hunks[0]?.anchors.length).toBe(100_000);
    const big = `*** Begin Patch\n*** Add File: big\n+${"x".repeat(20_000_000)}\n*** End Patch`;
    expect(parseV4APatch(big).operations[0]?.kind).toBe("add");
  });

  it("a path seen twice under one spelling is refused, naming the first line", () => {
    const text = "*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** Update File: a\n@@\n-y\n+z\n*** End Patch";
    expect(() => parseV4APatch(text)).toThrow(/line 2/);
    const moved = "*** Begin Patch\n*** Update File: a\n*** Move to: b\n*** Add File: b\n+x\n*** End Patch";
    expect(() => parseV4APatch(moved)).toThrow(/already changed/);
  });
});
