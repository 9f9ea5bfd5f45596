import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module script without type declarations
import { findWatFiles, generate, outputOf } from "../../../../scripts/build-wasm.mjs";

describe("generated WebAssembly modules", () => {
  const files = (findWatFiles() as string[]).filter((file) => file.includes("/tools-fs/"));

  it("finds the package's .wat sources: every WebAssembly module is built from one", () => {
    const names = files.map((file) => file.slice(file.lastIndexOf("/") + 1)).sort();
    expect(names).toEqual(["eol-count.wat", "fnv-hash.wat", "grep-scan.wat"]);
  });

  it.each(files.map((file) => [file.slice(file.indexOf("src/")), file]))("%s matches its generated .wasm.ts", async (_label, file) => {
    expect(readFileSync(outputOf(file), "utf8")).toBe(await generate(file));
  });
});
