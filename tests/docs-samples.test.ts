/**
 * Every fenced ```ts / ```typescript block of README.md, docs/*.md and the
 * packages' and examples' READMEs is a complete program: it compiles, as
 * pasted into its own module, against the workspace sources (NodeNext, the
 * repository's tsconfig.base.json, strict with exactOptionalPropertyTypes and
 * noUncheckedIndexedAccess), every name it uses imported or given a real value
 * in the sample (no ambient `declare`). A sample that is not meant to compile
 * is fenced as something else (```text). The consumer check
 * (scripts/consumer-check/docs-samples.mjs) compiles the same samples against
 * the packed tarballs.
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
    compilation = compileSamples(samples, { root });
  }, 120_000);

  it("finds the samples", () => {
    expect(samples.length).toBeGreaterThan(20);
  });

  it("compiler options", () => {
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
