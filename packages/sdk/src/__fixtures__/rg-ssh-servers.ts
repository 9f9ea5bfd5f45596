/**
 * Two test sshd servers for the sdk's SSH workspace tests: the sessions of
 * one have this host's ripgrep on their PATH, those of the other do not.
 * Started before the file's tests and stopped after them, with a temporary
 * folder (removed after them) that the tests may use too.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { type TestSshd, startTestSshd } from "@agent-tools/ssh/testing";
import { afterAll, beforeAll } from "vitest";

/** The two servers, set once `beforeAll` has run. */
export interface RgSshServerPair {
  withRg?: TestSshd;
  withoutRg?: TestSshd;
}

/** Registers the hooks that start and stop the two servers; `prefix` names the temporary folder. */
export function rgSshServers(prefix: string): { readonly temporary: string; readonly servers: RgSshServerPair } {
  const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  // A folder holding only this host's ripgrep, readable by the server's account: the remote PATH of the "with rg" server.
  const rgFolder = path.join(temporary, "rg-bin");
  fs.mkdirSync(rgFolder, { recursive: true });
  fs.chmodSync(temporary, 0o755);
  const rgPath = createRequire(new URL("../../../tools-fs/src/index.ts", import.meta.url))("@vscode/ripgrep").rgPath as string;
  // A copy, not a link: the checkout may sit in a folder the account cannot enter (a 0700 mktemp clone).
  fs.copyFileSync(rgPath, path.join(rgFolder, "rg"));
  fs.chmodSync(path.join(rgFolder, "rg"), 0o755);
  const servers: RgSshServerPair = {};
  beforeAll(async () => {
    [servers.withRg, servers.withoutRg] = await Promise.all([
      startTestSshd({ environment: { PATH: `${rgFolder}:/usr/local/bin:/usr/bin:/bin` } }),
      startTestSshd({ environment: { PATH: "/usr/local/bin:/usr/bin:/bin" } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([servers.withRg?.stop(), servers.withoutRg?.stop()]);
    fs.rmSync(temporary, { recursive: true, force: true });
  });
  return { temporary, servers };
}
