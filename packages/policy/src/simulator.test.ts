import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lintPermissions, replayPermissions } from "./simulator.js";

const shell = { groupId: "shell", kind: "execute", isReadOnly: false, displayCategory: "terminal" } as const;

describe("the public simulator functions (each loads and frees its own parser)", () => {
  it("lintPermissions flags the middle wildcard that allows every git subcommand, and a rule that can never fire", async () => {
    const findings = await lintPermissions({ allow: ["Bash(git * main)", "Bash(git status)"], deny: ["Bash(echo 'open)"] });
    expect(findings.find((finding) => finding.rule === "Bash(git * main)")?.kind).toBe("broad-wildcard");
    expect(findings.some((finding) => finding.rule === "Bash(echo 'open)" && finding.kind === "never-fires")).toBe(true);
    expect(findings.some((finding) => finding.rule === "Bash(git status)")).toBe(false);
  });

  it("replayPermissions lists the calls whose decision a rule change moves", async () => {
    const workdir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-replay-")));
    try {
      const calls = [
        { toolName: "Bash", input: { command: "git status" }, metadata: shell },
        { toolName: "Bash", input: { command: "git push origin main" }, metadata: shell },
      ];
      const report = await replayPermissions({ allow: ["Bash(git *)"] }, { allow: ["Bash(git status)"] }, calls, { workdir });
      expect(report.calls.map((call) => [call.before.decision, call.after.decision])).toEqual([
        ["allow", "allow"],
        ["allow", "ask"],
      ]);
      expect(report.changed).toBe(1);
    } finally {
      fs.rmSync(workdir, { recursive: true, force: true });
    }
  });
});
