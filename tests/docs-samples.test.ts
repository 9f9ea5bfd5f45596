/**
 * Every fenced ```ts / ```typescript block of README.md, docs/*.md and the
 * packages' and examples' READMEs must compile against the workspace sources
 * (strict, NodeNext, the repository's tsconfig.base.json), each as its own
 * module with the ambient names of tests/docs-samples/prelude.d.ts. A sample
 * that is not meant to compile is fenced as something else (```text).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { compileSamples, type SamplesCompilation, sampleId } from "./docs-samples/compile.js";
import { collectSamples } from "./docs-samples/extract.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const samples = collectSamples(root);
let compilation: SamplesCompilation;

describe("docs samples compile", () => {
  // One program for every sample: the workspace sources are parsed and bound once (~10-20 s).
  beforeAll(() => {
    compilation = compileSamples(samples, { root, prelude: path.join(root, "tests", "docs-samples", "prelude.d.ts") });
  }, 120_000);

  it("finds the samples", () => {
    expect(samples.length).toBeGreaterThan(20);
  });

  it("compiler options and prelude", () => {
    expect(compilation.general).toEqual([]);
  });

  for (const sample of samples) {
    const id = sampleId(sample);
    it(id, () => {
      const diagnostics = compilation.bySample.get(id) ?? [`${id} was not compiled`];
      if (diagnostics.length > 0) expect.fail(`${id} does not compile:\n${diagnostics.join("\n")}`);
    });
  }
});
