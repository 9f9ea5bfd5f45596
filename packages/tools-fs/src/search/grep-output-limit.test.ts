/**
 * Grep content pages stop rendering at the executor's output cap and say
 * where to continue, instead of rendering lines the executor would cut:
 * every match is still reachable by paging, none is shown twice, and the
 * answer never needs the executor's truncation.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createToolRegistry, type ToolRegistry, toolResultText } from "@agent-tools/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFastIo } from "../fast-io/fast-io.js";
import { assembleFsToolBundle } from "../fs-tool-bundle.js";
import { locateRipgrep } from "./ripgrep.js";

const rgPath = locateRipgrep();
const CAP = 4_000;
let root: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-grep-limit-")));
  for (let file = 0; file < 12; file += 1) {
    mkdirSync(path.join(root, `dir-${file % 3}`), { recursive: true });
    // Lines of mixed widths, some non-ASCII (bytes > characters), a match on every other line.
    const lines = Array.from({ length: 60 }, (_, line) =>
      line % 2 === 0 ? `hit ${file}-${line} ${"é".repeat(line % 7)}${"x".repeat((line * 13) % 90)}` : `other ${line}`,
    );
    writeFileSync(path.join(root, `dir-${file % 3}`, `file-${String(file).padStart(2, "0")}.txt`), lines.join("\n"));
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const engines: Array<[string, string | false]> = [["typescript", false]];
if (rgPath) engines.push(["ripgrep", rgPath]);

describe.each(engines)("Grep content pages under an output cap (%s engine)", (_engine, ripgrepPath) => {
  let capped: ToolRegistry;
  let uncapped: ToolRegistry;
  let callId = 0;
  beforeAll(() => {
    const make = (maxOutputChars: number) =>
      createToolRegistry({
        workdir: root,
        dataDir: path.join(root, ".data-unused"),
        bundles: [assembleFsToolBundle({ ripgrepPath }, createFastIo())],
        maxOutputChars,
        loopBreaker: false,
      });
    capped = make(CAP);
    uncapped = make(10_000_000);
  });
  afterAll(async () => {
    await capped.close();
    await uncapped.close();
  });
  const grep = async (registry: ToolRegistry, args: Record<string, unknown>) => {
    const result = await registry.executeToolCall({ id: `limit_${++callId}`, name: "Grep", arguments: args });
    expect(result.isError).toBe(false);
    return { text: toolResultText(result), details: result.details as Record<string, unknown> };
  };
  /** The rendered lines of a page (between the header and the trailer). */
  const bodyLines = (text: string) => text.split("\n").filter((line) => !line.startsWith("Found ") && !line.startsWith("..."));

  for (const context of [0, 2]) {
    it(`pages through every match, none lost or (without context) repeated, none truncated (context ${context})`, async () => {
      const everything = await grep(uncapped, { pattern: "hit", head_limit: 100_000, context });
      const total = everything.details.matchCount as number;
      expect(total).toBe(12 * 30);
      const seen: string[] = [];
      let offset = 0;
      let pages = 0;
      for (;;) {
        const page = await grep(capped, { pattern: "hit", head_limit: 100_000, context, offset });
        pages += 1;
        expect(page.text.length).toBeLessThanOrEqual(CAP);
        expect(page.details.outputTruncated).toBeUndefined();
        const returned = page.details.returned as number;
        expect(returned).toBeGreaterThan(0);
        expect(page.text).toContain(`(matches ${offset + 1}-${offset + returned}):`);
        seen.push(...bodyLines(page.text).filter((line) => /:\d+: /.test(line)));
        offset += returned;
        if (!page.details.hasMore) break;
        expect(page.text.endsWith(`...output limit of ${CAP} characters reached; more matches omitted; continue with offset=${offset}...`)).toBe(true);
      }
      expect(pages).toBeGreaterThan(3);
      expect(offset).toBe(total);
      // With context, a page may open with lines the previous one showed as context of its last match.
      const shown = context > 0 ? [...new Set(seen)] : seen;
      expect(shown).toEqual(bodyLines(everything.text).filter((line) => /:\d+: /.test(line)));
    });
  }

  it("still shows the first match when it alone is longer than the cap (the executor cuts it)", async () => {
    const tiny = createToolRegistry({
      workdir: root,
      dataDir: path.join(root, ".data-unused"),
      bundles: [assembleFsToolBundle({ ripgrepPath }, createFastIo())],
      maxOutputChars: 20,
      loopBreaker: false,
    });
    try {
      const page = await grep(tiny, { pattern: "hit", head_limit: 5 });
      expect(page.details.returned).toBe(1);
      expect(page.details.outputTruncated).toBeDefined();
    } finally {
      await tiny.close();
    }
  });

  it("an explicit head_limit below the cap pages as before", async () => {
    const page = await grep(capped, { pattern: "hit", head_limit: 5 });
    expect(page.details).toMatchObject({ returned: 5, hasMore: true });
    expect(page.text.endsWith("...more matches omitted; continue with offset=5...")).toBe(true);
  });
});
