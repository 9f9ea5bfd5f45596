import { writeFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { createGitTestRepository } from "./testing/git-test-repository.js";
import { GitCliClient } from "./index.js";
import { GitClientError } from "@agent-tools/core";
import { RecordingGitClient } from "@agent-tools/core/testing";

describe("RecordingGitClient", () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
  });

  it("forwards calls and records their options and outcome", async () => {
    const repo = await createGitTestRepository();
    cleanup = repo.cleanup;
    const git = new RecordingGitClient(new GitCliClient());
    await writeFile(repo.path("a.txt"), "a\n");
    const id = await git.commit(repo.root, { message: "first", signal: new AbortController().signal });
    expect(repo.git(["rev-parse", "HEAD"]).trim()).toBe(id);
    const failure = await git.commit(repo.root, { message: "again" }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GitClientError);
    await git.apply(repo.root, "");
    expect(git.calls).toEqual([
      { method: "commit", repo: repo.root, options: { message: "first" }, outcome: "ok" },
      { method: "commit", repo: repo.root, options: { message: "again" }, outcome: "error", error: failure },
      { method: "apply", repo: repo.root, options: { patch: "" }, outcome: "ok" },
    ]);
  });
});
