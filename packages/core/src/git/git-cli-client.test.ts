import { afterAll } from "vitest";
import { ExecaProcessRunner } from "../process/execa-process-runner.js";
import { runGitClientContract } from "../testing/git.js";
import { GitCliClient } from "./git-cli-client.js";

runGitClientContract({ name: "GitCliClient (execa)", create: () => new GitCliClient() });

const runner = new ExecaProcessRunner();
runGitClientContract({ name: "GitCliClient (ProcessRunner)", create: () => new GitCliClient({ processRunner: runner }) });
afterAll(() => runner.close());
