import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createLocalWorkspace } from "../index.js";
import { runWorkspaceContract } from "../testing/index.js";
import { crashLocalWriteMidway } from "./__fixtures__/crash-during-write.js";

const roots: string[] = [];

runWorkspaceContract(
  "local",
  {
    async create() {
      const root = realpathSync(mkdtempSync(path.join(tmpdir(), "local-workspace-contract-")));
      roots.push(root);
      const scratch = path.join(root, "scratch");
      mkdirSync(scratch);
      return { workspace: await createLocalWorkspace({ root }), scratch };
    },
    async symlink(_workspace, target, linkPath) {
      symlinkSync(target, linkPath);
    },
    // Another client of the same directory: locks must exclude across clients.
    secondClient: (first) => createLocalWorkspace({ root: first.root }),
    // A writer in a child process (tsx), SIGKILLed while its temporary file is being written.
    crashDuringWrite: (workspace, file, bytes) => crashLocalWriteMidway(workspace, file, bytes),
    async cleanup() {
      for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
    },
  },
  { processes: true },
);
