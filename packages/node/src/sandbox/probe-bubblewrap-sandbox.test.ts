import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkTrialOutput, probeBubblewrapSandbox } from "./probe-bubblewrap-sandbox.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-bwrap-probe-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const hasBubblewrap = fs.existsSync("/usr/bin/bwrap");
const skipReal = !hasBubblewrap && !process.env.CI;
const isRoot = process.getuid?.() === 0;
if (!isRoot) console.warn("probe test of a bubblewrap that keeps root's capabilities skipped: it needs root (without root bubblewrap has none to keep)");

/** A fake `bwrap` shell script. */
function fakeBubblewrap(name: string, body: string): string {
  const file = path.join(temporary, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

describe("probeBubblewrapSandbox", () => {
  it("says what to do when bubblewrap is missing, and that macOS is not supported yet", async () => {
    const missing = await probeBubblewrapSandbox({ executable: path.join(temporary, "nope", "bwrap"), settings: { enabled: true } });
    expect(missing.sandbox).toBeUndefined();
    expect(missing.unavailable).toMatch(/bubblewrap was not found at .*nope\/bwrap/);
    expect(missing.unavailable).toMatch(/Install bubblewrap.*user namespaces.*sandbox: \{ enabled: false \}/);
    const mac = await probeBubblewrapSandbox({ platform: "darwin" });
    expect(mac.unavailable).toMatch(/not supported on macOS yet/);
  });

  it("reports a bubblewrap whose trial run fails, with what it said", async () => {
    const fake = path.join(temporary, "failing-bwrap");
    fs.writeFileSync(fake, "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n", { mode: 0o755 });
    const state = await probeBubblewrapSandbox({ executable: fake });
    expect(state.unavailable).toMatch(/trial run .* failed \(bwrap: No permissions to create new namespace\)/);
  });

  it.skipIf(!fs.existsSync("/usr/bin/bwrap") && !process.env.CI)("finds a working bubblewrap and keeps the settings", async () => {
    const settings = { enabled: true, allowNetwork: true };
    const state = await probeBubblewrapSandbox({ settings });
    expect(state.unavailable).toBeUndefined();
    expect(state.sandbox?.mechanism).toBe("bubblewrap");
    expect(state.settings).toBe(settings);
  });

  it.skipIf(skipReal)("refuses a bubblewrap that runs the command in the host's namespaces (fail closed, with what to do)", async () => {
    // Skips every flag and runs the command as it is: the trial sees the host's user and network namespace.
    const unconfined = fakeBubblewrap("unconfined-bwrap", 'while [ "$1" != "--" ]; do shift; done\nshift\nexec "$@"');
    const state = await probeBubblewrapSandbox({ executable: unconfined });
    expect(state.sandbox).toBeUndefined();
    expect(state.unavailable).toMatch(/did not confine: .*host's user namespace/);
    expect(state.unavailable).toMatch(/host's network namespace/);
    expect(state.unavailable).toMatch(/Install bubblewrap.*sandbox: \{ enabled: false \}/);
  });

  it.skipIf(skipReal || !isRoot)("refuses a bubblewrap that keeps root's capabilities (root only)", async () => {
    // The real bwrap without --unshare-user and --cap-drop ALL: as root it keeps every capability.
    const keeping = fakeBubblewrap(
      "keeping-bwrap",
      'for a in "$@"; do shift; case "$a" in --unshare-user|--cap-drop|ALL) ;; *) set -- "$@" "$a";; esac; done\nexec /usr/bin/bwrap "$@"',
    );
    const state = await probeBubblewrapSandbox({ executable: keeping });
    expect(state.sandbox).toBeUndefined();
    expect(state.unavailable).toMatch(/kept capabilities \(CapEff [0-9a-f]*[1-9a-f][0-9a-f]*\)/);
    expect(state.unavailable).toMatch(/host's user namespace/);
  });
});

describe("checkTrialOutput", () => {
  const host = { userNamespace: "user:[4026531837]", networkNamespace: "net:[4026531840]" };
  const confined = "Name:\tcat\nCapPrm:\t0000000000000000\nCapEff:\t0000000000000000\nuser:[4026532174]\nnet:[4026532177]\n";

  it("accepts no capability and namespaces of its own, and names every problem otherwise", () => {
    expect(checkTrialOutput(confined, host)).toBeUndefined();
    expect(checkTrialOutput(confined.replace("CapEff:\t0000000000000000", "CapEff:\t000001fffeffffff"), host)).toMatch(
      /kept capabilities \(CapEff 000001fffeffffff\)/,
    );
    expect(checkTrialOutput(confined.replace("user:[4026532174]", host.userNamespace), host)).toMatch(/host's user namespace/);
    expect(checkTrialOutput(`${confined}proc-sys: writable\n`, host)).toMatch(/could write the kernel's settings/);
    expect(checkTrialOutput("", host)).toMatch(/no CapEff.*no CapPrm.*user namespace.*network namespace/);
  });
});
