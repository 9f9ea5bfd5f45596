/**
 * Attacks on the per-workdir, per-conversation task lists of registries
 * from `buildBuiltinToolRegistry` sharing one dataDir (one SQLite file): a
 * model in project A or conversation A never reads or changes the list of
 * project B or conversation B, whatever it puts in the arguments, and the
 * key's parts cannot be made to collide.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-task-lists-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));
const dataDir = path.join(temporary, "data");

async function open(workdir: string, conversationId: string) {
  const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, conversationId });
  let calls = 0;
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await registry.executeToolCall({ id: `${name}-${(calls += 1)}`, name, arguments: args });
    return { ...result, text: toolResultText(result, "") };
  };
  const subjects = async () => {
    const listed = await call("TaskList", {});
    expect(listed.isError, listed.text).toBe(false);
    return (JSON.parse(listed.text.slice(listed.text.indexOf("{"))) as { tasks: Array<{ subject: string }> }).tasks.map((task) => task.subject);
  };
  return { registry, call, subjects };
}

const folder = (name: string) => {
  const dir = path.join(temporary, name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
};

describe("attack: task lists of other projects and conversations", () => {
  it("ignores or refuses argument keys naming another run, conversation or workdir, and __proto__", async () => {
    const a = await open(folder("a"), "conv");
    const b = await open(folder("b"), "conv");
    try {
      expect((await b.call("TaskCreate", { subject: "B's task", description: "b", activeForm: "Doing b" })).isError).toBe(false);
      const tricks = [
        { conversationId: "conv", runId: "default", workdir: path.join(temporary, "b") },
        { run: { conversationId: JSON.stringify({ workdir: path.join(temporary, "b"), conversationId: "conv" }) } },
        JSON.parse('{"__proto__": {"conversationId": "conv", "workdir": "/"}}'),
      ];
      for (const extra of tricks) {
        await a.call("TaskCreate", { subject: "A's task", description: "a", activeForm: "Doing a", ...extra });
        await a.call("TaskList", extra);
        await a.call("TaskUpdate", { taskId: "1", status: "completed", ...extra });
      }
      expect(await b.subjects()).toEqual(["B's task"]);
      expect(({} as Record<string, unknown>).conversationId).toBeUndefined();
      expect((await a.subjects()).every((subject) => subject === "A's task")).toBe(true);
    } finally {
      await a.registry.close();
      await b.registry.close();
    }
  });

  it("keys by the canonical workdir (a symlink or trailing slash shares) and lets no separator in an id collide", async () => {
    const real = folder("real");
    fs.symlinkSync(real, path.join(temporary, "alias"));
    const first = await open(real, "c1");
    const viaLink = await open(path.join(temporary, "alias"), "c1");
    const viaSlash = await open(`${real}/`, "c1");
    // workdir "/x" + conversation "y:c" against workdir "/x:y" + conversation "c", and the JSON key's own characters.
    const x = folder("x");
    const xy = folder("x:y");
    const left = await open(x, "y:c");
    const right = await open(xy, "c");
    const quoted = await open(x, '","conversationId":"c');
    const plain = await open(x, "c");
    try {
      expect((await first.call("TaskCreate", { subject: "shared", description: "s", activeForm: "Sharing" })).isError).toBe(false);
      expect(await viaLink.subjects()).toEqual(["shared"]);
      expect(await viaSlash.subjects()).toEqual(["shared"]);
      await left.call("TaskCreate", { subject: "left", description: "l", activeForm: "Left" });
      await quoted.call("TaskCreate", { subject: "quoted", description: "q", activeForm: "Quoting" });
      expect(await right.subjects()).toEqual([]);
      expect(await plain.subjects()).toEqual([]);
      expect(await left.subjects()).toEqual(["left"]);
    } finally {
      for (const registry of [first, viaLink, viaSlash, left, right, quoted, plain]) await registry.registry.close();
    }
  });
});
