import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, it } from "vitest";
import { ExecaProcessRunner } from "../execa-process-runner.js";
import { runProcessRunnerStdinContract } from "../testing/process-runner-stdin-contract.js";
import { probeBubblewrapSandbox } from "./probe-bubblewrap-sandbox.js";
import { resolveSandboxPolicy } from "./sandbox-policy.js";

// The stdin cases through bubblewrap: a confined language server speaks JSON-RPC over the pipe bubblewrap must keep.
const workdir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-bwrap-stdin-")));
afterAll(() => fs.rmSync(workdir, { recursive: true, force: true }));

const state = fs.existsSync("/usr/bin/bwrap") || process.env.CI ? await probeBubblewrapSandbox() : undefined;
const sandbox = state?.sandbox;
if (sandbox) {
  const policy = resolveSandboxPolicy({ settings: { enabled: true }, writableRoots: [workdir] });
  runProcessRunnerStdinContract(
    "ExecaProcessRunner confined by bubblewrap",
    () => {
      const runner = new ExecaProcessRunner();
      return { spawn: (options) => runner.spawn(sandbox.confine(options, policy)), close: () => runner.close() };
    },
    { cwd: () => workdir },
  );
} else {
  it.skip(`bubblewrap stdin cases: ${state?.unavailable ?? "no /usr/bin/bwrap"}`, () => undefined);
}
