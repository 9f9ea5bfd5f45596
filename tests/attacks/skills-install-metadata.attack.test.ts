/**
 * Attacks on the metadata of a skill, as a model makes them through
 * `executeToolCall` of a registry from `buildBuiltinToolRegistry`: a
 * SKILL.md whose YAML frontmatter is huge (the parser runs synchronously and
 * grows worse than linearly with a mapping's keys: 200 KB held the event
 * loop for 14 s, and a skill file may be 10 MB) must not stall the host's
 * other tool calls, and a "billion laughs" of anchors and aliases must be a
 * clear refusal, not an unexpected failure.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-skills-metadata-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

async function scene(label: string) {
  const base = fs.mkdtempSync(path.join(temporary, `${label}-`));
  const workdir = path.join(base, "project");
  fs.mkdirSync(workdir);
  const registry = await buildBuiltinToolRegistry({ workdir, dataDir: path.join(base, "data"), memory: false, skills: {} });
  let calls = 0;
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await registry.executeToolCall({ id: `${name}-${(calls += 1)}`, name, arguments: args });
    return { ...result, text: toolResultText(result, "") };
  };
  expect((await call("SkillsManager", { action: "list" })).isError).toBe(false);
  return { workdir, root: path.join(base, "data", "skills"), registry, call };
}

describe("attack: hostile skill metadata", () => {
  it("refuses a 200 KB frontmatter without stalling other tool calls", async () => {
    const s = await scene("huge");
    try {
      const keys = Array.from({ length: 10_000 }, (_, index) => `  k${index}: [1, {a: b}]`).join("\n");
      fs.mkdirSync(path.join(s.workdir, "huge"));
      fs.writeFileSync(path.join(s.workdir, "huge", "SKILL.md"), `---\nname: huge\ndescription: Huge.\nmetadata:\n${keys}\n---\n# huge\n`);
      fs.writeFileSync(path.join(s.workdir, "small.txt"), "small\n");
      let settled = false;
      const install = s.call("SkillsManager", { action: "install", source: "huge" }).finally(() => {
        settled = true;
      });
      let slowest = 0;
      while (!settled) {
        const started = performance.now();
        expect((await s.call("Read", { path: "small.txt" })).isError).toBe(false);
        slowest = Math.max(slowest, performance.now() - started);
      }
      const result = await install;
      expect(result.isError).toBe(true);
      expect(result.text).toContain("frontmatter of SKILL.md is");
      expect(fs.existsSync(path.join(s.root, "huge"))).toBe(false);
      expect(slowest).toBeLessThan(2_000);
    } finally {
      await s.registry.close();
    }
  }, 120_000);

  it("refuses a billion-laughs frontmatter as invalid YAML, not as an unexpected failure", async () => {
    const s = await scene("laughs");
    try {
      const lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
      for (let level = 1; level < 10; level += 1) {
        const previous = String.fromCharCode(96 + level);
        const name = String.fromCharCode(97 + level);
        lines.push(`${name}: &${name} [${Array.from({ length: 10 }, () => `*${previous}`).join(", ")}]`);
      }
      fs.mkdirSync(path.join(s.workdir, "laughs"));
      fs.writeFileSync(
        path.join(s.workdir, "laughs", "SKILL.md"),
        `---\nname: laughs\ndescription: Laughs.\nmetadata:\n  ${lines.join("\n  ")}\n---\n# laughs\n`,
      );
      const result = await s.call("SkillsManager", { action: "install", source: "laughs" });
      expect(result.isError).toBe(true);
      expect(result.text).not.toContain("failed unexpectedly");
      expect(result.text).toContain("is not valid YAML");
      expect(fs.existsSync(path.join(s.root, "laughs"))).toBe(false);
    } finally {
      await s.registry.close();
    }
  }, 60_000);
});
