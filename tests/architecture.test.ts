/**
 * The architecture rules (docs/architecture.md) as a test: it reads every
 * packages/*\/src/**\/*.ts and package.json and fails on an import circle
 * (between packages, tests and devDependencies included; between the
 * non-test modules of a package), an upward arrow between the layers, or a
 * `child_process` import in production code outside the process (node) and
 * git adapters. What it finds is printed.
 */
import { describe, expect, it } from "vitest";
import { childProcessImports, lateralTestArrows, moduleCircles, packageCircles, upwardArrows } from "./architecture/architecture-rules.js";
import { scanWorkspace } from "./architecture/workspace-scan.js";

const packages = scanWorkspace();

function report(title: string, found: readonly string[]): readonly string[] {
  console.log(`${title}: ${found.length}${found.map((line) => `\n  ${line}`).join("")}`);
  return found;
}

describe("architecture", () => {
  it("reads every package", () => {
    expect(packages.map((pkg) => pkg.name)).toContain("core");
    expect(packages.every((pkg) => pkg.files.length > 0)).toBe(true);
    report("test-only arrows between tool packages (allowed)", lateralTestArrows(packages));
  });

  it("has no import circle between packages", () => {
    expect(report("package circles", packageCircles(packages))).toEqual([]);
  });

  it("has no import circle between the modules of a package", () => {
    expect(report("module circles", moduleCircles(packages))).toEqual([]);
  });

  it("has no upward arrow between the layers", () => {
    expect(report("upward arrows", upwardArrows(packages))).toEqual([]);
  });

  it("imports child_process only in the process and git adapters", () => {
    expect(report("child_process outside node and git", childProcessImports(packages))).toEqual([]);
  });
});
