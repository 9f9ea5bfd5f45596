import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ToolError } from "../errors.js";
import { parsePathInput } from "./parse-path-input.js";
import { createPathPolicy } from "./path-policy.js";

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return (error as ToolError).message;
  }
  throw new Error("expected an error");
}

describe("path messages", () => {
  it("stay short whatever the input's size", () => {
    const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "quote-")));
    try {
      const policy = createPathPolicy({ workdir: dir, additionalRoots: [] });
      const huge = "a/".repeat(2_500_000);
      const inputs = [
        huge,
        `${"x".repeat(3000)}/../y`,
        `src/${"C:".repeat(1000)}`,
        `root://${"n".repeat(3000)}/x`,
        `/outside-${"o".repeat(3000)}`,
        `file://host-${"h".repeat(3000)}/x`,
      ];
      for (const input of inputs) {
        const message = messageOf(() => policy.resolve(input, { intent: "read", label: "Read path" }));
        expect(message.length, message.slice(0, 80)).toBeLessThan(700);
      }
      expect(messageOf(() => parsePathInput(huge, "Read path"))).toMatch(
        /^Read path is 5000000 characters long \("a\/a\/.*\.\.\.\(5000000 chars\)"\); no file path is longer than 4096 characters/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
