import { cp, mkdir, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { type GitClient, ToolError } from "@agent-tools/core";
import { SKILL_LIMITS, type SkillInstallSource } from "../domain/skill-types.js";
import { extractSkillArchive } from "./skill-archive.js";
import { listSkillFolder } from "./skill-folder-listing.js";

/** The ports an install source may need. */
export interface SkillSourcePorts {
  /** Needed for `git` sources. */
  readonly gitClient?: GitClient;
  /** Needed for `download` sources (default: the global `fetch`). */
  readonly fetch?: typeof fetch;
  readonly signal?: AbortSignal;
}

/**
 * Brings an install source into `stagingDir` (created when missing) and
 * returns the folder that holds the skill. Nothing outside `stagingDir` is
 * written, and no lock is taken: downloads and clones run before the
 * library's write guard.
 *
 * - `directory`: an absolute path of a folder, copied whole; a symlink
 *   inside, more than `skillMaxFiles` files or more than `skillMaxBytes`
 *   refuse it before anything is copied.
 * - `archive`: an absolute path of a `.zip` / `.skill` file, read (at most
 *   `downloadMaxBytes`) and extracted ({@link extractSkillArchive}).
 * - `download`: an http(s) URL fetched with the signal, its body capped at
 *   `downloadMaxBytes` and required to be a zip archive (an HTML page or
 *   other content is refused with a hint).
 * - `git`: cloned shallowly at `ref` into `stagingDir/repository`; the skill
 *   is its `subdirectory` (the repository's `.git` is removed when the skill
 *   is the repository root). `unavailable` without a `gitClient`.
 *
 * @example
 * const folder = await stageInstallSource({ kind: "git", url: "https://github.com/me/skills.git", ref: "main", subdirectory: "pdf" }, staging, { gitClient });
 */
export async function stageInstallSource(source: SkillInstallSource, stagingDir: string, ports: SkillSourcePorts = {}): Promise<string> {
  ports.signal?.throwIfAborted();
  await mkdir(stagingDir, { recursive: true });
  switch (source.kind) {
    case "directory":
      return copyDirectory(source.path, stagingDir);
    case "archive":
      return extractSkillArchive(await readArchive(source.path), path.join(stagingDir, "archive"));
    case "download":
      return extractSkillArchive(await download(source.url, ports), path.join(stagingDir, "download"));
    case "git":
      return cloneRepository(source, stagingDir, ports);
  }
}

function requireAbsolute(file: string, what: string): void {
  if (!path.isAbsolute(file))
    throw new ToolError("invalid_arguments", `The ${what} path ${file} is relative; give an absolute path.`, { details: { path: file } });
}

async function statOrNotFound(file: string, what: string) {
  try {
    return await stat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      throw new ToolError("not_found", `The ${what} ${file} does not exist. Check the source path.`, { details: { path: file } });
    throw error;
  }
}

async function copyDirectory(source: string, stagingDir: string): Promise<string> {
  requireAbsolute(source, "source folder");
  const stats = await statOrNotFound(source, "source folder");
  if (!stats.isDirectory())
    throw new ToolError("not_a_directory", `${source} is not a folder. Give a skill folder, a .zip / .skill archive, a URL or a git repository.`);
  const listing = await listSkillFolder(source);
  const symlink = listing.find((entry) => entry.kind === "symlink");
  if (symlink !== undefined) {
    throw new ToolError("invalid_arguments", `${symlink.path} in ${source} is a symlink; skills may not contain symlinks. Replace it with the file itself.`, {
      details: { path: symlink.path },
    });
  }
  const files = listing.filter((entry) => entry.kind === "file");
  if (files.length > SKILL_LIMITS.skillMaxFiles)
    throw new ToolError("too_large", `${source} holds more than ${SKILL_LIMITS.skillMaxFiles} files; a skill may not.`);
  const total = files.reduce((sum, entry) => sum + entry.size, 0);
  if (total > SKILL_LIMITS.skillMaxBytes)
    throw new ToolError("too_large", `${source} holds ${total} bytes; a skill may be at most ${SKILL_LIMITS.skillMaxBytes} bytes.`);
  const target = path.join(stagingDir, path.basename(source) || "skill");
  await cp(source, target, { recursive: true, errorOnExist: true, force: false, preserveTimestamps: false, verbatimSymlinks: true });
  return target;
}

async function readArchive(file: string): Promise<Uint8Array> {
  requireAbsolute(file, "archive");
  const stats = await statOrNotFound(file, "archive");
  if (!stats.isFile()) throw new ToolError("not_a_file", `${file} is not a file. Give a .zip or .skill archive.`);
  if (stats.size > SKILL_LIMITS.downloadMaxBytes)
    throw new ToolError("too_large", `${file} is ${stats.size} bytes; archives of at most ${SKILL_LIMITS.downloadMaxBytes} bytes are accepted.`);
  return new Uint8Array(await readFile(file));
}

const isZip = (bytes: Uint8Array) =>
  bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5) && (bytes[3] === 4 || bytes[3] === 6);

async function download(url: string, ports: SkillSourcePorts): Promise<Uint8Array> {
  const fetcher = ports.fetch ?? globalThis.fetch;
  let response: Response;
  try {
    response = await fetcher(url, { redirect: "follow", ...(ports.signal === undefined ? {} : { signal: ports.signal }) });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw new ToolError("unavailable", `Could not download ${url}: ${(error as Error).message}. Check the URL and the network.`, {
      cause: error,
      details: { url },
    });
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    const code = response.status === 404 ? "not_found" : "unavailable";
    throw new ToolError(code, `Downloading ${url} failed with HTTP ${response.status}. Check the URL.`, { details: { url, status: response.status } });
  }
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  const tooLarge = () =>
    new ToolError("too_large", `${url} is larger than ${SKILL_LIMITS.downloadMaxBytes} bytes; skills that large are not accepted.`, { details: { url } });
  if (declared > SKILL_LIMITS.downloadMaxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let length = 0;
  if (response.body !== null) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      length += value.length;
      if (length > SKILL_LIMITS.downloadMaxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  if (!isZip(bytes)) {
    const type = response.headers.get("content-type") ?? "unknown";
    const head = new TextDecoder().decode(bytes.subarray(0, 512)).trimStart().toLowerCase();
    const html = type.includes("html") || head.startsWith("<!doctype html") || head.startsWith("<html");
    const hint = html
      ? `${url} returned a web page, not a zip archive. Link to the archive file itself, or install a repository with method "git".`
      : `${url} did not return a zip archive (content type ${type}). Give the URL of a .zip or .skill file.`;
    throw new ToolError("invalid_arguments", hint, { details: { url, contentType: type } });
  }
  return bytes;
}

function subdirectoryProblem(subdirectory: string): string | undefined {
  if (subdirectory === "") return undefined;
  if (subdirectory.startsWith("/") || subdirectory.includes("\\") || subdirectory.includes("\0")) return "must be a relative path with /";
  if (subdirectory.split("/").some((segment) => segment === ".." || segment === ".git")) return "may not hold .. or .git";
  return undefined;
}

async function cloneRepository(source: Extract<SkillInstallSource, { kind: "git" }>, stagingDir: string, ports: SkillSourcePorts): Promise<string> {
  if (ports.gitClient === undefined) {
    throw new ToolError(
      "unavailable",
      `Installing from a git repository is not available here (no git client). Download an archive of ${source.url} instead.`,
      { details: { url: source.url } },
    );
  }
  const subdirectory = source.subdirectory.replace(/^\/+|\/+$/g, "");
  const problem = subdirectoryProblem(source.subdirectory.replace(/\/+$/, ""));
  if (problem !== undefined) throw new ToolError("invalid_arguments", `The repository folder ${source.subdirectory} ${problem}.`);
  const repository = path.join(stagingDir, "repository");
  try {
    await ports.gitClient.clone(source.url, repository, { ref: source.ref, depth: 1, ...(ports.signal === undefined ? {} : { signal: ports.signal }) });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw new ToolError(
      "unavailable",
      `Cloning ${source.url} at ${source.ref} failed: ${(error as Error).message}. Check the URL and the ref (branch, tag or commit).`,
      {
        cause: error,
        details: { url: source.url, ref: source.ref },
      },
    );
  }
  const folder = subdirectory === "" ? repository : path.join(repository, ...subdirectory.split("/"));
  let stats: Awaited<ReturnType<typeof stat>> | undefined;
  try {
    stats = await stat(folder);
  } catch {
    stats = undefined;
  }
  if (stats === undefined || !stats.isDirectory()) {
    throw new ToolError("not_found", `${source.url} at ${source.ref} has no folder ${subdirectory}. Check the path of the skill inside the repository.`, {
      details: { url: source.url, ref: source.ref, subdirectory },
    });
  }
  await rm(path.join(folder, ".git"), { recursive: true, force: true });
  return folder;
}
