/**
 * Attacks on path rules (issue 35, target 3) made the way a model makes them:
 * `registry.executeToolCall` on a registry with the real file tools and real
 * files, links and folders in a temp dir. Each case asserts the safe outcome
 * (the denied file's content or name never reaches the model, the protected
 * file is unchanged).
 */
import { execFileSync } from "node:child_process";
import { linkSync, unlinkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import type { ToolRegistry } from "@agent-tools/core";
import { afterAll, describe, expect, it } from "vitest";
import { attackDirs, attackRegistry, textOf } from "./__fixtures__/attack-registry.js";

const dirs = attackDirs("policy-paths-attack-");
afterAll(() => dirs.cleanup());

const SECRET = "TOPSECRET-4711";
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

const DENY = ["Read(secret/**)", "Edit(protected/**)", "Read(.env)"];

/** A workdir with secret/, protected/, .env, src/ and a folder outside it. */
function tree() {
  const { workdir, dataDir, outside } = dirs.make();
  mkdirSync(path.join(workdir, "secret"));
  writeFileSync(path.join(workdir, "secret", "key.txt"), `${SECRET}\n`);
  writeFileSync(path.join(workdir, "secret", "pic.png"), PNG);
  mkdirSync(path.join(workdir, "protected"));
  writeFileSync(path.join(workdir, "protected", "keep.txt"), "original\n");
  writeFileSync(path.join(workdir, ".env"), `TOKEN=${SECRET}\n`);
  mkdirSync(path.join(workdir, "src"));
  writeFileSync(path.join(workdir, "src", "a.ts"), "export {};\n");
  return { workdir, dataDir, outside };
}

async function using<T>(pending: Promise<ToolRegistry>, use: (registry: ToolRegistry) => Promise<T>): Promise<T> {
  const registry = await pending;
  try {
    return await use(registry);
  } finally {
    await registry.close();
  }
}

/** Runs one call; returns what the model reads (error text included). */
async function call(registry: ToolRegistry, name: string, args: Record<string, unknown>): Promise<{ text: string; code?: string; isError: boolean }> {
  const result = await registry.executeToolCall({ id: `c-${name}`, name, arguments: args });
  return {
    text: textOf(result) + JSON.stringify(result.details ?? {}),
    isError: result.isError === true,
    ...(result.error ? { code: result.error.code } : {}),
  };
}

describe("path rules: reading a denied file anyway", () => {
  it.each([
    ["Read", { path: "secret/key.txt" }],
    ["Read", { path: "./secret/key.txt" }],
    ["Read", { path: "secret//key.txt" }],
    ["Read", { path: "src/../secret/key.txt" }],
    ["Read", { path: "secret/./key.txt" }],
    ["Read", { path: "ABS/secret/key.txt" }],
    ["Read", { path: ".env" }],
    ["Read", { path: "./.env" }],
    ["Read", { path: "src/../.env" }],
    ["Grep", { pattern: SECRET }],
    ["Grep", { pattern: SECRET, path: "." }],
    ["Grep", { pattern: SECRET, path: "secret" }],
    ["Grep", { pattern: SECRET, path: "src/.." }],
    ["Grep", { pattern: SECRET, path: "src", file_pattern: "../secret/*" }],
    ["Grep", { pattern: SECRET, path: "src", file_pattern: "../**" }],
    ["Glob", { pattern: "**/*" }],
    ["Glob", { pattern: "secret/*" }],
    ["Glob", { pattern: "../secret/*", path: "src" }],
    ["Glob", { pattern: "*", path: "secret/key.txt" }],
    ["List", { path: "secret" }],
    ["List", {}],
    ["Image", { path: "secret/pic.png" }],
    ["Image", { source: "secret/pic.png" }],
    ["Image", { sources: ["secret/pic.png"] }],
    ["Image", { paths: ["src/a.ts", "secret/pic.png"] }],
  ])("%s %j is refused", async (name, args) => {
    const { workdir, dataDir } = tree();
    const fixed = JSON.parse(JSON.stringify(args).replaceAll("ABS", workdir)) as Record<string, unknown>;
    await using(attackRegistry({ workdir, dataDir, permissions: { deny: DENY } }), async (registry) => {
      const seen = await call(registry, name, fixed);
      expect(seen.text).not.toContain(SECRET);
      // A search must not reveal the name either (the refusal may repeat a path the model gave).
      if (!JSON.stringify(args).includes("key.txt")) expect(seen.text).not.toContain("key.txt");
      expect(seen.code, seen.text).toBe("permission_denied");
    });
  });

  it("a link inside the workdir to the denied folder, file or .env is denied (Read, Grep, Image)", async () => {
    const { workdir, dataDir } = tree();
    symlinkSync(path.join(workdir, "secret"), path.join(workdir, "src", "dirlink"));
    symlinkSync(path.join(workdir, "secret", "key.txt"), path.join(workdir, "src", "filelink"));
    symlinkSync(path.join(workdir, ".env"), path.join(workdir, "src", "envlink"));
    symlinkSync(path.join(workdir, "secret", "pic.png"), path.join(workdir, "src", "pic.png"));
    await using(attackRegistry({ workdir, dataDir, permissions: { deny: DENY } }), async (registry) => {
      for (const [name, args] of [
        ["Read", { path: "src/dirlink/key.txt" }],
        ["Read", { path: "src/filelink" }],
        ["Read", { path: "src/envlink" }],
        ["Grep", { pattern: SECRET, path: "src/filelink" }],
        ["Grep", { pattern: SECRET, path: "src/dirlink" }],
        ["Image", { path: "src/pic.png" }],
        ["Image", { source: "src/pic.png" }],
      ] as const) {
        const seen = await call(registry, name, args);
        expect(seen.text, `${name} ${JSON.stringify(args)}`).not.toContain(SECRET);
        expect(seen.code, `${name} ${JSON.stringify(args)}: ${seen.text}`).toBe("permission_denied");
      }
    });
  });

  it("a search of a folder holding a link to the denied folder does not show the secret", async () => {
    const { workdir, dataDir } = tree();
    symlinkSync(path.join(workdir, "secret"), path.join(workdir, "src", "dirlink"));
    symlinkSync(path.join(workdir, "secret", "key.txt"), path.join(workdir, "src", "filelink"));
    await using(attackRegistry({ workdir, dataDir, permissions: { deny: DENY } }), async (registry) => {
      for (const [name, args] of [
        ["Grep", { pattern: SECRET, path: "src" }],
        ["Grep", { pattern: SECRET, path: "src", output_mode: "content" }],
        ["Glob", { pattern: "**/*", path: "src" }],
        ["List", { path: "src", depth: 3 }],
      ] as const) {
        const seen = await call(registry, name, args);
        expect(seen.text, `${name} ${JSON.stringify(args)}`).not.toContain(SECRET);
        expect(seen.text, `${name} ${JSON.stringify(args)}`).not.toContain("key.txt");
      }
    });
  });

  it("a link outside the workdir into the denied folder is denied", async () => {
    const { workdir, dataDir, outside } = tree();
    symlinkSync(path.join(workdir, "secret"), path.join(outside, "sl"));
    await using(
      attackRegistry({ workdir, dataDir, permissions: { deny: DENY }, additionalRoots: [{ alias: "ext", path: outside, access: "read" }] }),
      async (registry) => {
        for (const [name, args] of [
          ["Read", { path: path.join(outside, "sl", "key.txt") }],
          ["Read", { path: "root://ext/sl/key.txt" }],
          ["Grep", { pattern: SECRET, path: "root://ext" }],
          ["Grep", { pattern: SECRET, path: outside }],
        ] as const) {
          const seen = await call(registry, name, args);
          expect(seen.text, `${name} ${JSON.stringify(args)}`).not.toContain(SECRET);
        }
      },
    );
  });
});

describe("path rules: changing a protected file anyway", () => {
  it.each([
    ["Write", { path: "protected/keep.txt", content: "pwned\n" }],
    ["Write", { path: "./protected//keep.txt", content: "pwned\n" }],
    ["Write", { path: "src/../protected/keep.txt", content: "pwned\n" }],
    ["Write", { path: "ABS/protected/keep.txt", content: "pwned\n" }],
    ["Edit", { path: "protected/keep.txt", old_string: "original", new_string: "pwned" }],
    ["Delete", { path: "protected/keep.txt" }],
    ["Delete", { path: "protected" }],
    ["Write", { path: "protected/new.txt", content: "pwned\n" }],
  ])("%s %j is refused", async (name, args) => {
    const { workdir, dataDir } = tree();
    const fixed = JSON.parse(JSON.stringify(args).replaceAll("ABS", workdir)) as Record<string, unknown>;
    await using(attackRegistry({ workdir, dataDir, permissions: { deny: DENY }, approval: { defaultDecision: "allow" } }), async (registry) => {
      if (name === "Edit") await call(registry, "Read", { path: "protected/keep.txt" });
      const seen = await call(registry, name, fixed);
      expect(seen.code, seen.text).toBe("permission_denied");
      expect(readFileSync(path.join(workdir, "protected", "keep.txt"), "utf8")).toBe("original\n");
      expect(existsSync(path.join(workdir, "protected", "new.txt"))).toBe(false);
    });
  });

  it("through a link to the protected folder or file (Write, Edit, Delete of the folder through a link)", async () => {
    const { workdir, dataDir } = tree();
    symlinkSync(path.join(workdir, "protected"), path.join(workdir, "src", "dirlink"));
    symlinkSync(path.join(workdir, "protected", "keep.txt"), path.join(workdir, "src", "filelink"));
    await using(attackRegistry({ workdir, dataDir, permissions: { deny: DENY }, approval: { defaultDecision: "allow" } }), async (registry) => {
      await call(registry, "Read", { path: "src/filelink" });
      for (const [name, args] of [
        ["Write", { path: "src/dirlink/keep.txt", content: "pwned\n" }],
        ["Write", { path: "src/filelink", content: "pwned\n" }],
        ["Edit", { path: "src/filelink", old_string: "original", new_string: "pwned" }],
        ["Write", { path: "src/dirlink/new.txt", content: "pwned\n" }],
        ["Delete", { path: "src/dirlink/keep.txt" }],
      ] as const) {
        const seen = await call(registry, name, args);
        expect(seen.code, `${name} ${JSON.stringify(args)}: ${seen.text}`).toBe("permission_denied");
      }
      expect(readFileSync(path.join(workdir, "protected", "keep.txt"), "utf8")).toBe("original\n");
      expect(existsSync(path.join(workdir, "protected", "new.txt"))).toBe(false);
    });
  });
});

describe("path rules: an allow-list Edit(src/**) in dontAsk", () => {
  it.each([
    ["Write", { path: "src/../outside.txt", content: "x" }],
    ["Write", { path: "src/link/x.txt", content: "x" }],
    ["Write", { path: "src/filelink", content: "x" }],
    ["Write", { path: "src/newdir/../../outside.txt", content: "x" }],
    ["Write", { path: "SRC/x.txt", content: "x" }],
    ["Write", { path: "src", content: "x" }],
    ["Delete", { path: "src" }],
    ["Delete", { path: "src/" }],
    ["Delete", { path: "src/." }],
    ["Write", { path: "srcx/x.txt", content: "x" }],
  ])("%s %j does not run", async (name, args) => {
    const { workdir, dataDir, outside } = tree();
    symlinkSync(outside, path.join(workdir, "src", "link"));
    writeFileSync(path.join(workdir, "keep.txt"), "k");
    symlinkSync(path.join(workdir, "keep.txt"), path.join(workdir, "src", "filelink"));
    await using(attackRegistry({ workdir, dataDir, permissions: { allow: ["Edit(src/**)"], defaultMode: "dontAsk" } }), async (registry) => {
      const seen = await call(registry, name, args);
      expect(seen.code, seen.text).toBe("permission_denied");
      expect(existsSync(path.join(workdir, "outside.txt"))).toBe(false);
      expect(existsSync(path.join(outside, "x.txt"))).toBe(false);
      expect(readFileSync(path.join(workdir, "keep.txt"), "utf8")).toBe("k");
      expect(existsSync(path.join(workdir, "src", "a.ts"))).toBe(true);
    });
  });
});

describe("path rules in a linked git worktree (a worktree subagent's workdir)", () => {
  it("a deny rule naming the main worktree by absolute path also holds for the same file in the linked worktree", async () => {
    const { workdir, dataDir, outside } = tree();
    const git = (cwd: string, ...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, stdio: "ignore", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" } });
    git(workdir, "init", "-q", "-b", "main");
    git(workdir, "add", "-A");
    git(workdir, "commit", "-q", "-m", "init");
    const linked = path.join(outside, "linked");
    git(workdir, "worktree", "add", "-q", linked);
    const permissions = { deny: [`Edit(//${workdir.slice(1)}/protected/**)`, `Read(//${workdir.slice(1)}/secret/**)`] };
    await using(attackRegistry({ workdir: linked, dataDir, permissions, approval: { defaultDecision: "allow" } }), async (registry) => {
      const write = await call(registry, "Write", { path: "protected/keep.txt", content: "pwned\n" });
      expect(write.code, write.text).toBe("permission_denied");
      const read = await call(registry, "Read", { path: "secret/key.txt" });
      expect(read.code, read.text).toBe("permission_denied");
      const other = await call(registry, "Write", { path: "src/b.ts", content: "export {};\n" });
      expect(other.isError, other.text).toBe(false);
    });
    expect(readFileSync(path.join(linked, "protected", "keep.txt"), "utf8")).toBe("original\n");
  });

  it("also when the workdir is a folder below the linked worktree's root (a parent workdir inside its repository)", async () => {
    const { workdir: repo, dataDir, outside } = tree();
    const git = (cwd: string, ...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, stdio: "ignore", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" } });
    mkdirSync(path.join(repo, "app", "protected"), { recursive: true });
    writeFileSync(path.join(repo, "app", "protected", "keep.txt"), "original\n");
    git(repo, "init", "-q", "-b", "main");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "init");
    const linked = path.join(outside, "linked");
    git(repo, "worktree", "add", "-q", linked);
    const permissions = { deny: [`Edit(//${repo.slice(1)}/app/protected/**)`] };
    await using(attackRegistry({ workdir: path.join(linked, "app"), dataDir, permissions, approval: { defaultDecision: "allow" } }), async (registry) => {
      const write = await call(registry, "Write", { path: "protected/keep.txt", content: "pwned\n" });
      expect(write.code, write.text).toBe("permission_denied");
    });
    expect(readFileSync(path.join(linked, "app", "protected", "keep.txt"), "utf8")).toBe("original\n");
  });
});

describe("path rules anchored at an additional root", () => {
  it("Read(root://shared/private/**) holds for the alias, the absolute path, a link in the workdir and searches of the root", async () => {
    const { workdir, dataDir, outside } = tree();
    mkdirSync(path.join(outside, "private"));
    writeFileSync(path.join(outside, "private", "p.txt"), `${SECRET}\n`);
    symlinkSync(path.join(outside, "private"), path.join(workdir, "src", "priv"));
    const additionalRoots = [{ alias: "shared", path: outside, access: "read" as const }];
    await using(attackRegistry({ workdir, dataDir, permissions: { deny: ["Read(root://shared/private/**)"] }, additionalRoots }), async (registry) => {
      for (const [name, args] of [
        ["Read", { path: "root://shared/private/p.txt" }],
        ["Read", { path: "root://shared//private/./p.txt" }],
        ["Read", { path: path.join(outside, "private", "p.txt") }],
        ["Read", { path: "src/priv/p.txt" }],
        ["Grep", { pattern: SECRET, path: "root://shared" }],
        ["Grep", { pattern: SECRET, path: outside }],
        ["Glob", { pattern: "**/*", path: "root://shared" }],
        ["List", { path: "root://shared/private" }],
      ] as const) {
        const seen = await call(registry, name, args);
        expect(seen.text, `${name} ${JSON.stringify(args)}`).not.toContain(SECRET);
        expect(seen.code, `${name} ${JSON.stringify(args)}: ${seen.text}`).toBe("permission_denied");
      }
    });
  });
});

describe("path rules anchored at the home directory", () => {
  it("Read(~/.ssh/**) holds for ~/ paths, absolute paths, links into it and searches above it", async () => {
    const { workdir, dataDir, outside } = tree();
    const home = path.join(outside, "home");
    mkdirSync(path.join(home, ".ssh"), { recursive: true });
    writeFileSync(path.join(home, ".ssh", "id_test"), `${SECRET}\n`);
    symlinkSync(path.join(home, ".ssh"), path.join(workdir, "src", "ssh"));
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      await using(attackRegistry({ workdir, dataDir, permissions: { deny: ["Read(~/.ssh/**)"] } }), async (registry) => {
        for (const [name, args] of [
          ["Read", { path: "~/.ssh/id_test" }],
          ["Read", { path: path.join(home, ".ssh", "id_test") }],
          ["Read", { path: `${home}//.ssh/./id_test` }],
          ["Read", { path: "src/ssh/id_test" }],
          ["Grep", { pattern: SECRET, path: "~" }],
          ["Grep", { pattern: SECRET, path: home }],
          ["Grep", { pattern: SECRET, path: "src/ssh" }],
          ["List", { path: "~/.ssh" }],
          ["Glob", { pattern: "**/*", path: "~" }],
          ["Image", { source: "~/.ssh/id_test" }],
        ] as const) {
          const seen = await call(registry, name, args);
          expect(seen.text, `${name} ${JSON.stringify(args)}`).not.toContain(SECRET);
          expect(seen.code, `${name} ${JSON.stringify(args)}: ${seen.text}`).toBe("permission_denied");
        }
      });
    } finally {
      process.env.HOME = saved;
    }
  });
});

describe("path rules: what cannot be caught", () => {
  // Open (not fixable in the policy): the rules judge the path when the call is decided; a link swapped
  // between that decision and the tool's own open (here while the host's onAsk runs) sends the write
  // into the protected folder. Closing it needs the executor to decide again after onAsk, or the file
  // tools to refuse a target whose canonical path changed since the decision (core / tools-fs).
  it("a link swapped while the host is asked does not send an approved Write into a denied folder (the rules judge the call again before it runs)", async () => {
    const { workdir, dataDir } = tree();
    mkdirSync(path.join(workdir, "src", "real"));
    symlinkSync(path.join(workdir, "src", "real"), path.join(workdir, "src", "link"));
    const onAsk = () => {
      unlinkSync(path.join(workdir, "src", "link"));
      symlinkSync(path.join(workdir, "protected"), path.join(workdir, "src", "link"));
      return true;
    };
    await using(attackRegistry({ workdir, dataDir, permissions: { ask: ["Edit(src/**)"], deny: DENY }, approval: { onAsk } }), async (registry) => {
      await call(registry, "Write", { path: "src/link/keep.txt", content: "pwned\n" });
    });
    expect(readFileSync(path.join(workdir, "protected", "keep.txt"), "utf8")).toBe("original\n");
  });

  it("a hard link to a denied file is another name for the same file: documented, not caught", async () => {
    const { workdir, dataDir } = tree();
    linkSync(path.join(workdir, "secret", "key.txt"), path.join(workdir, "src", "hard.txt"));
    await using(attackRegistry({ workdir, dataDir, permissions: { deny: DENY } }), async (registry) => {
      const seen = await call(registry, "Read", { path: "src/hard.txt" });
      // Path rules match names; a hard link has no trace of the other name.
      expect(seen.text).toContain(SECRET);
    });
  });
});
