import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const source = path.dirname(fileURLToPath(import.meta.url));

/** The package's source files, without tests and test fixtures. */
function productionFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "__fixtures__" ? [] : productionFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

describe("@agent-tools/subagents runs processes only through its ports", () => {
  it("imports no child_process (git runs through the GitClient port)", () => {
    const files = productionFiles(source);
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.filter((file) => /["'](?:node:)?child_process["']/.test(fs.readFileSync(file, "utf8")));
    expect(offenders.map((file) => path.relative(source, file))).toEqual([]);
  });
});
