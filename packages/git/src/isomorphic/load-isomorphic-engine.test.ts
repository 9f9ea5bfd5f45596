import { SdkError } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { IsomorphicGitClient } from "./isomorphic-git-client.js";

describe("IsomorphicGitClient: optional peers", () => {
  it("names the package to install when one is missing, and retries after", async () => {
    // What Node's import() rejects with when the package is not installed.
    const notFound = Object.assign(new Error("Cannot find package 'diff3' imported from /app/node_modules/@agent-tools/git/dist/index.js"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    const missing = { name: "diff3", version: "0.0.3", load: () => Promise.reject(notFound) };
    const client = new IsomorphicGitClient({ peers: [missing] });
    const error = await client.status("/tmp").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toMatchObject({ code: "unsupported", details: { package: "diff3" } });
    expect((error as Error).message).toContain("needs the optional package diff3: npm install diff3@0.0.3");
  });

  it("passes on an error that is not a missing package", async () => {
    const broken = { name: "diff", version: "9.0.0", load: () => Promise.reject(new Error("boom")) };
    await expect(new IsomorphicGitClient({ peers: [broken] }).status("/tmp")).rejects.toThrow("boom");
  });
});
