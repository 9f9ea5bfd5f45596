/**
 * Attacks on the permission rules over ApplyPatch, through a registry's
 * `executeToolCall` as a model calls it: `Edit(secret/**)` reached by Add,
 * Update, Delete, `Move to`, other spellings of the path (`./`, `..`,
 * absolute, a symlinked folder), hostile header whitespace, a heredoc and a
 * malformed patch; `ask` rules fire for a path anywhere in the patch; and a
 * `Read(secret/**)` deny is not undone by ApplyPatch showing or moving the
 * file's content (the hunk failure's closest lines, a `Move to` a readable
 * place).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-apply-patch-policy-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

type Registry = Awaited<ReturnType<typeof buildBuiltinToolRegistry>>;
let count = 0;

const SECRET = "TOPSECRET-4711";

/** A workdir with `pub.txt`, `secret/key.txt` and `docs/a.md`, and a registry listing ApplyPatch under `options`. */
async function scene(options: Record<string, unknown>) {
  count += 1;
  const workdir = path.join(temporary, `s${count}`, "work");
  fs.mkdirSync(path.join(workdir, "secret"), { recursive: true });
  fs.mkdirSync(path.join(workdir, "docs"), { recursive: true });
  fs.writeFileSync(path.join(workdir, "pub.txt"), "public\n");
  fs.writeFileSync(path.join(workdir, "secret", "key.txt"), `${SECRET}\nsecond\nthird\n`);
  fs.writeFileSync(path.join(workdir, "docs", "a.md"), "# docs\n");
  fs.symlinkSync("secret", path.join(workdir, "s"));
  const registry = await buildBuiltinToolRegistry({
    workdir,
    dataDir: path.join(temporary, `s${count}`, "data"),
    memory: false,
    editSurface: "both",
    approval: { defaultDecision: "allow" },
    ...options,
  } as never);
  return { workdir, registry };
}

async function call(registry: Registry, name: string, args: Record<string, unknown>) {
  const result = await registry.executeToolCall({ id: `${name}-${++count}`, name, arguments: args });
  return { isError: result.isError === true, text: toolResultText(result, ""), details: result.details as Record<string, unknown> | undefined };
}

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

/** Every file below `dir` with its content. */
function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const stats = fs.lstatSync(full);
    out[path.relative(dir, full)] = stats.isSymbolicLink() ? `-> ${fs.readlinkSync(full)}` : stats.isFile() ? fs.readFileSync(full, "utf8") : "dir";
  }
  return out;
}

describe("Edit(secret/**) deny holds for every path of a patch", () => {
  it("Add, Update, Delete, Move to and from, by every spelling, first or last in the patch, malformed or wrapped", async () => {
    const { workdir, registry } = await scene({ permissions: { deny: ["Edit(secret/**)"] } });
    await call(registry, "Read", { path: "pub.txt" });
    const before = files(workdir);
    const spellings = ["secret/new.txt", "./secret/new.txt", "docs/../secret/new.txt", path.join(workdir, "secret", "new.txt"), "s/new.txt", "secret//new.txt"];
    const existing = ["secret/key.txt", "./secret/key.txt", "s/key.txt", path.join(workdir, "secret/key.txt"), "docs/../secret/key.txt"];
    const attempts: string[] = [];
    for (const target of spellings) {
      attempts.push(patch(`*** Add File: ${target}`, "+pwned"));
      attempts.push(patch("*** Update File: pub.txt", `*** Move to: ${target}`));
      attempts.push(patch("*** Update File: pub.txt", "@@", "-public", "+changed", `*** Add File: ${target}`, "+pwned"));
      attempts.push(patch(`*** Add File:    ${target}   `, "+pwned"));
      attempts.push(patch(`*** Add File: ${target}\t`, "+pwned"));
      attempts.push(`*** Begin Patch\r\n*** Add File: ${target}\r\n+pwned\r\n*** End Patch\r\n`);
      attempts.push(`apply_patch <<'EOF'\n${patch(`*** Add File: ${target}`, "+pwned")}\nEOF`);
    }
    for (const target of existing) {
      attempts.push(patch(`*** Update File: ${target}`, "@@", `-${SECRET}`, "+pwned"));
      attempts.push(patch(`*** Delete File: ${target}`));
      attempts.push(patch(`*** Update File: ${target}`, "*** Move to: stolen.txt"));
      attempts.push(patch(`*** Delete File: ${target}`, "*** Update File: pub.txt", "@@", "-public", "+changed"));
    }
    for (const text of attempts) {
      const result = await call(registry, "ApplyPatch", { patch: text });
      expect(result.isError, `${JSON.stringify(text)}: ${result.text}`).toBe(true);
    }
    // The tool named in another case, and the arguments as a JSON string: the rules still see the patch's paths.
    for (const name of ["applypatch", "APPLYPATCH", "applyPatch"]) {
      const result = await call(registry, name, { patch: patch("*** Add File: secret/by-name.txt", "+pwned") });
      expect(result.isError, `${name}: ${result.text}`).toBe(true);
    }
    const asJson = await registry.executeToolCall({
      id: "json-args",
      name: "ApplyPatch",
      arguments: JSON.stringify({ patch: patch("*** Add File: secret/json.txt", "+pwned") }) as never,
    });
    expect(asJson.isError).toBe(true);
    expect(files(workdir)).toEqual(before);
    // A patch touching only allowed paths still applies (the rule is not a blanket refusal).
    expect((await call(registry, "ApplyPatch", { patch: patch("*** Update File: pub.txt", "@@", "-public", "+changed") })).isError).toBe(false);
    await registry.close();
  });
});

describe("ask rules fire for a path anywhere in the patch", () => {
  it("Edit(docs/**) ask: a patch changing pub.txt and, last, docs/a.md asks, and a refusal writes nothing", async () => {
    const asked: string[] = [];
    const { workdir, registry } = await scene({
      permissions: { ask: ["Edit(docs/**)"] },
      approval: {
        defaultDecision: "allow",
        onAsk: (request: { toolName: string }) => {
          asked.push(request.toolName);
          return false;
        },
      },
    });
    await call(registry, "Read", { path: "pub.txt" });
    for (const text of [
      patch("*** Update File: pub.txt", "@@", "-public", "+changed", "*** Update File: docs/a.md", "@@", "-# docs", "+# pwned"),
      patch("*** Update File: pub.txt", "@@", "-public", "+changed", "*** Add File: docs/new.md", "+pwned"),
      patch("*** Update File: pub.txt", "*** Move to: docs/moved.txt"),
      patch("*** Delete File: docs/a.md"),
    ]) {
      const before = asked.length;
      const result = await call(registry, "ApplyPatch", { patch: text });
      expect(result.isError, text).toBe(true);
      expect(asked.length, text).toBe(before + 1);
    }
    expect(fs.readFileSync(path.join(workdir, "pub.txt"), "utf8")).toBe("public\n");
    expect(fs.readdirSync(path.join(workdir, "docs"))).toEqual(["a.md"]);
    await registry.close();
  });
});

describe("Read(secret/**) deny: ApplyPatch neither shows nor moves what Read may not see", () => {
  it("a hunk that does not match a denied file answers without its lines", async () => {
    const { registry } = await scene({ permissions: { deny: ["Read(secret/**)"] } });
    for (const text of [
      patch("*** Update File: secret/key.txt", "@@", " nothing like it", "-second", "+x"),
      patch("*** Update File: secret/key.txt", "@@", "-TOPSECRET-0000", "+x"),
      patch("*** Update File: secret/key.txt", "@@", "-secon", "+x"),
    ]) {
      const result = await call(registry, "ApplyPatch", { patch: text });
      expect(result.isError).toBe(true);
      expect(result.text, text).not.toContain(SECRET);
    }
    await registry.close();
  });

  it("a Move to of a denied file to a readable path does not hand its content to Read", async () => {
    const { workdir, registry } = await scene({ permissions: { deny: ["Read(secret/**)"] } });
    const moved = await call(registry, "ApplyPatch", { patch: patch("*** Update File: secret/key.txt", "*** Move to: stolen.txt") });
    const read = await call(registry, "Read", { path: "stolen.txt" });
    expect(moved.text + read.text, moved.text).not.toContain(SECRET);
    expect(fs.readFileSync(path.join(workdir, "secret", "key.txt"), "utf8")).toContain(SECRET);
    await registry.close();
  });

  it("an applied hunk's answer (what the model reads) shows no line of a denied file beyond what the patch itself wrote", async () => {
    const { registry } = await scene({ permissions: { deny: ["Read(secret/**)"] } });
    const result = await call(registry, "ApplyPatch", { patch: patch("*** Update File: secret/key.txt", "@@", "-third", "+3rd") });
    expect(result.text).not.toContain(SECRET);
    await registry.close();
  });
});

describe("plan mode and the edit surface", () => {
  it("plan mode refuses ApplyPatch; a surface without ApplyPatch does not run it by any casing", async () => {
    const { workdir, registry } = await scene({});
    registry.setPlanMode(true);
    expect((await call(registry, "ApplyPatch", { patch: patch("*** Add File: plan.txt", "+x") })).isError).toBe(true);
    await registry.close();
    const edit = await buildBuiltinToolRegistry({ workdir, dataDir: path.join(temporary, "surface-data"), memory: false, editSurface: "edit" });
    for (const name of ["ApplyPatch", "applypatch", "APPLYPATCH", "apply_patch", "Apply_Patch"]) {
      expect((await call(edit, name, { patch: patch("*** Add File: surface.txt", "+x") })).isError, name).toBe(true);
    }
    await edit.close();
    expect(fs.existsSync(path.join(workdir, "plan.txt"))).toBe(false);
    expect(fs.existsSync(path.join(workdir, "surface.txt"))).toBe(false);
  });
});
