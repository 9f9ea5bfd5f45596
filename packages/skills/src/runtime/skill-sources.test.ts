import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { GitCliClient } from "@agent-tools/git";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SKILL_LIMITS } from "../domain/skill-types.js";
import { stageInstallSource } from "./skill-sources.js";

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-skill-sources-")));
const SKILL = "---\nname: demo\ndescription: A demo.\n---\n\n# Demo\n";
const text = (value: string) => new TextEncoder().encode(value);
let serial = 0;
const staging = () => path.join(root, "staging", `s${(serial += 1)}`);
const files = (dir: string) => (fs.readdirSync(dir, { recursive: true }) as string[]).filter((entry) => fs.statSync(path.join(dir, entry)).isFile()).sort();

let server: http.Server;
let base = "";
const routes = new Map<string, (response: http.ServerResponse) => void>();
beforeAll(async () => {
  server = http.createServer((request, response) => {
    const route = routes.get(request.url ?? "");
    if (route === undefined) {
      response.writeHead(404).end("missing");
      return;
    }
    route(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(root, { recursive: true, force: true });
});

describe("stageInstallSource: directory", () => {
  const source = path.join(root, "sources", "demo");
  beforeAll(() => {
    fs.mkdirSync(path.join(source, "scripts"), { recursive: true });
    fs.writeFileSync(path.join(source, "SKILL.md"), SKILL);
    fs.writeFileSync(path.join(source, "scripts", "run.sh"), "#!/bin/sh\n");
  });

  it("copies the folder into staging and returns the copy", async () => {
    const dir = staging();
    const folder = await stageInstallSource({ kind: "directory", path: source }, dir);
    expect(folder).toBe(path.join(dir, "folder", "demo"));
    expect(files(folder)).toEqual(["SKILL.md", "scripts/run.sh"]);
    expect(fs.existsSync(path.join(source, "SKILL.md"))).toBe(true);
  });

  it("refuses a symlinked source folder, a FIFO inside, and what checkLocalSource refuses, writing nothing", async () => {
    const alias = path.join(root, "sources", "alias");
    fs.symlinkSync(source, alias);
    const dir = staging();
    await expect(stageInstallSource({ kind: "directory", path: alias }, dir)).rejects.toMatchObject({
      code: "invalid_arguments",
      message: expect.stringContaining(`The source folder ${alias} is a symlink`),
    });
    expect(fs.readdirSync(dir)).toEqual([]);

    const piped = path.join(root, "sources", "piped");
    fs.mkdirSync(piped, { recursive: true });
    fs.writeFileSync(path.join(piped, "SKILL.md"), SKILL);
    execFileSync("mkfifo", [path.join(piped, "pipe")]);
    await expect(stageInstallSource({ kind: "directory", path: piped }, staging())).rejects.toMatchObject({
      code: "invalid_arguments",
      message: expect.stringContaining("pipe in"),
    });

    const seen: string[] = [];
    const refused = stageInstallSource({ kind: "directory", path: source }, staging(), {
      checkLocalSource: (canonical) => {
        seen.push(canonical);
        throw new Error("refused by the host");
      },
    });
    await expect(refused).rejects.toThrow("refused by the host");
    expect(seen).toEqual([source]);
  });

  it("refuses symlinks, relative paths, missing folders and files", async () => {
    const linked = path.join(root, "sources", "linked");
    fs.mkdirSync(linked, { recursive: true });
    fs.writeFileSync(path.join(linked, "SKILL.md"), SKILL);
    fs.symlinkSync("/etc/passwd", path.join(linked, "passwd"));
    const dir = staging();
    await expect(stageInstallSource({ kind: "directory", path: linked }, dir)).rejects.toMatchObject({
      code: "invalid_arguments",
      message: expect.stringContaining("passwd in"),
    });
    expect(fs.readdirSync(dir)).toEqual([]);
    await expect(stageInstallSource({ kind: "directory", path: "relative/demo" }, staging())).rejects.toMatchObject({ code: "invalid_arguments" });
    await expect(stageInstallSource({ kind: "directory", path: path.join(root, "nope") }, staging())).rejects.toMatchObject({ code: "not_found" });
    await expect(stageInstallSource({ kind: "directory", path: path.join(source, "SKILL.md") }, staging())).rejects.toMatchObject({ code: "not_a_directory" });
  });

  it("refuses a folder past the file limit before copying", async () => {
    const many = path.join(root, "sources", "many");
    fs.mkdirSync(many, { recursive: true });
    for (let index = 0; index <= SKILL_LIMITS.skillMaxFiles; index += 1) fs.writeFileSync(path.join(many, `f${index}`), "");
    const dir = staging();
    await expect(stageInstallSource({ kind: "directory", path: many }, dir)).rejects.toMatchObject({ code: "too_large" });
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe("stageInstallSource: archive", () => {
  it("extracts a .skill file and refuses a missing or oversized one", async () => {
    const file = path.join(root, "demo.skill");
    fs.writeFileSync(file, zipSync({ "demo/SKILL.md": text(SKILL) }));
    const dir = staging();
    const folder = await stageInstallSource({ kind: "archive", path: file }, dir);
    expect(folder.startsWith(dir)).toBe(true);
    expect(path.basename(folder)).toBe("demo");
    expect(fs.readFileSync(path.join(folder, "SKILL.md"), "utf8")).toBe(SKILL);
    await expect(stageInstallSource({ kind: "archive", path: path.join(root, "none.zip") }, staging())).rejects.toMatchObject({ code: "not_found" });
    const big = path.join(root, "big.zip");
    fs.writeFileSync(big, "");
    fs.truncateSync(big, SKILL_LIMITS.downloadMaxBytes + 1);
    await expect(stageInstallSource({ kind: "archive", path: big }, staging())).rejects.toMatchObject({ code: "too_large" });
  });
});

describe("stageInstallSource: download", () => {
  it("downloads and extracts a zip body", async () => {
    const body = zipSync({ "SKILL.md": text(SKILL) });
    routes.set("/demo.zip", (response) => response.writeHead(200, { "content-type": "application/zip" }).end(body));
    const dir = staging();
    const folder = await stageInstallSource({ kind: "download", url: `${base}/demo.zip` }, dir);
    expect(files(folder)).toEqual(["SKILL.md"]);
  });

  it("refuses an HTML page with a hint, and other content", async () => {
    routes.set("/page", (response) => response.writeHead(200, { "content-type": "text/html" }).end("<!DOCTYPE html><html></html>"));
    routes.set("/json", (response) => response.writeHead(200, { "content-type": "application/json" }).end("{}"));
    await expect(stageInstallSource({ kind: "download", url: `${base}/page` }, staging())).rejects.toMatchObject({
      code: "invalid_arguments",
      message: expect.stringContaining('returned a web page, not a zip archive. Link to the archive file itself, or install a repository with method "git"'),
    });
    await expect(stageInstallSource({ kind: "download", url: `${base}/json` }, staging())).rejects.toMatchObject({
      message: expect.stringContaining("did not return a zip archive (content type application/json)"),
    });
  });

  it("maps HTTP errors and unreachable hosts", async () => {
    await expect(stageInstallSource({ kind: "download", url: `${base}/absent.zip` }, staging())).rejects.toMatchObject({
      code: "not_found",
      message: expect.stringContaining("HTTP 404"),
    });
    routes.set("/broken", (response) => response.writeHead(500).end());
    await expect(stageInstallSource({ kind: "download", url: `${base}/broken` }, staging())).rejects.toMatchObject({ code: "unavailable" });
    await expect(stageInstallSource({ kind: "download", url: "http://127.0.0.1:1/x.zip" }, staging())).rejects.toMatchObject({ code: "unavailable" });
  });

  it("caps the body by its declared length and while streaming", async () => {
    routes.set("/declared", (response) => {
      response.writeHead(200, { "content-length": String(SKILL_LIMITS.downloadMaxBytes + 1) });
      response.write("PK");
    });
    await expect(stageInstallSource({ kind: "download", url: `${base}/declared` }, staging())).rejects.toMatchObject({ code: "too_large" });
    let sent = 0;
    routes.set("/endless", (response) => {
      response.writeHead(200, { "content-type": "application/zip" });
      const chunk = new Uint8Array(1024 * 1024);
      const pump = () => {
        while (sent < SKILL_LIMITS.downloadMaxBytes * 3) {
          sent += chunk.length;
          if (!response.write(chunk)) {
            response.once("drain", pump);
            return;
          }
        }
        response.end();
      };
      response.on("close", () => undefined);
      pump();
    });
    await expect(stageInstallSource({ kind: "download", url: `${base}/endless` }, staging())).rejects.toMatchObject({ code: "too_large" });
    expect(sent).toBeLessThan(SKILL_LIMITS.downloadMaxBytes * 3);
  });

  it("stops when the signal aborts", async () => {
    routes.set("/slow", () => undefined);
    const controller = new AbortController();
    const pending = stageInstallSource({ kind: "download", url: `${base}/slow` }, staging(), { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    const aborted = AbortSignal.abort();
    await expect(stageInstallSource({ kind: "download", url: `${base}/demo.zip` }, staging(), { signal: aborted })).rejects.toMatchObject({
      name: "AbortError",
    });
  });
});

describe("stageInstallSource: git", () => {
  const repository = path.join(root, "repository");
  beforeAll(() => {
    fs.mkdirSync(path.join(repository, "skills", "demo"), { recursive: true });
    fs.writeFileSync(path.join(repository, "skills", "demo", "SKILL.md"), SKILL);
    fs.writeFileSync(path.join(repository, "SKILL.md"), SKILL);
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repository, stdio: "pipe" });
    git("init", "-q", "-b", "main");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "add", ".");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "first");
    git("branch", "other");
    fs.writeFileSync(path.join(repository, "skills", "demo", "extra.txt"), "on main only");
    git("add", ".");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "second");
  });
  const gitClient = new GitCliClient();

  it("clones at the ref and returns the subdirectory", async () => {
    const dir = staging();
    const folder = await stageInstallSource({ kind: "git", url: repository, ref: "main", subdirectory: "skills/demo" }, dir, { gitClient });
    expect(folder).toBe(path.join(dir, "git", "demo"));
    expect(files(folder)).toEqual(["SKILL.md", "extra.txt"]);
    const other = await stageInstallSource({ kind: "git", url: repository, ref: "other", subdirectory: "skills/demo/" }, staging(), { gitClient });
    expect(files(other)).toEqual(["SKILL.md"]);
  });

  it("uses the repository root without its .git", async () => {
    const folder = await stageInstallSource({ kind: "git", url: repository, ref: "main", subdirectory: "" }, staging(), { gitClient });
    expect(fs.existsSync(path.join(folder, ".git"))).toBe(false);
    expect(fs.existsSync(path.join(folder, "SKILL.md"))).toBe(true);
  });

  it("refuses a folder of the repository that is a symlink, and touches nothing it points to", async () => {
    const outside = path.join(root, "outside-folder");
    fs.mkdirSync(path.join(outside, ".git"), { recursive: true });
    fs.writeFileSync(path.join(outside, "SKILL.md"), SKILL);
    const linked = path.join(root, "linked-repository");
    fs.mkdirSync(linked);
    fs.symlinkSync(outside, path.join(linked, "skill"));
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: linked, stdio: "pipe" });
    git("init", "-q", "-b", "main");
    git("add", ".");
    git("commit", "-q", "-m", "link");
    await expect(stageInstallSource({ kind: "git", url: linked, ref: "main", subdirectory: "skill" }, staging(), { gitClient })).rejects.toMatchObject({
      code: "invalid_arguments",
      message: expect.stringContaining("is a symlink"),
    });
    expect(fs.existsSync(path.join(outside, ".git"))).toBe(true);
  });

  it("reports a missing folder, a bad ref, an unsafe subdirectory and a missing git client", async () => {
    await expect(
      stageInstallSource({ kind: "git", url: repository, ref: "main", subdirectory: "skills/none" }, staging(), { gitClient }),
    ).rejects.toMatchObject({
      code: "not_found",
      message: expect.stringContaining("has no folder skills/none"),
    });
    await expect(stageInstallSource({ kind: "git", url: repository, ref: "no-such-branch", subdirectory: "" }, staging(), { gitClient })).rejects.toMatchObject(
      {
        code: "unavailable",
        message: expect.stringContaining("at no-such-branch failed"),
      },
    );
    await expect(stageInstallSource({ kind: "git", url: repository, ref: "main", subdirectory: "../etc" }, staging(), { gitClient })).rejects.toMatchObject({
      code: "invalid_arguments",
    });
    await expect(stageInstallSource({ kind: "git", url: repository, ref: "main", subdirectory: "" }, staging())).rejects.toMatchObject({ code: "unavailable" });
  });
});
