import { constants, readlinkSync, realpathSync } from "node:fs";
import { type FileHandle, mkdir, open } from "node:fs/promises";
import path from "node:path";
import { type GitClient, ToolError } from "@agent-tools/core";
import { type ContainedTree, openContainedTree } from "@agent-tools/file-io/internal";
import { SKILL_LIMITS, type SkillInstallSource } from "../domain/skill-types.js";
import { extractSkillArchive } from "./skill-archive.js";
import { readSourceFolder } from "./source-folder-reader.js";

/** The ports an install source may need. */
export interface SkillSourcePorts {
  /** Needed for `git` sources. */
  readonly gitClient?: GitClient;
  /** Needed for `download` sources (default: the global `fetch`). */
  readonly fetch?: typeof fetch;
  readonly signal?: AbortSignal;
  /**
   * Called with the canonical path of a local source (a folder or archive
   * once opened, read from its descriptor; a local git repository before
   * the clone); throw to refuse it. The tool layer applies the registry's
   * read policy here, so a model cannot install what Read refuses. A host
   * calling the library directly may leave it out and install from anywhere.
   */
  readonly checkLocalSource?: (canonicalPath: string) => void;
}

/**
 * Brings an install source into `stagingDir` (created when missing) and
 * returns the folder that holds the skill. Nothing outside `stagingDir` is
 * written (every write goes through a contained tree rooted there), and no
 * lock is taken: downloads and clones run before the library's write guard.
 *
 * - `directory`: an absolute path of a folder, read without following
 *   symlinks and copied from the opened descriptors (`readSourceFolder`):
 *   a symlink anywhere (the folder itself included), a special file, more
 *   than `skillMaxFiles` files, a file over `fileMaxBytes` or more than
 *   `skillMaxBytes` refuses it.
 * - `archive`: an absolute path of a `.zip` / `.skill` file, opened, checked
 *   to be a regular file, read (at most `downloadMaxBytes`) from that
 *   descriptor and extracted ({@link extractSkillArchive}).
 * - `download`: an http(s) URL fetched with the signal, its body capped at
 *   `downloadMaxBytes` and required to be a zip archive (an HTML page or
 *   other content is refused with a hint).
 * - `git`: cloned shallowly at `ref` into `stagingDir/repository`; the skill
 *   is its `subdirectory`, reached and copied as a `directory` source is
 *   (a symlinked folder in the repository is refused, its `.git` left out).
 *   `unavailable` without a `gitClient`.
 *
 * @example
 * const folder = await stageInstallSource({ kind: "git", url: "https://github.com/me/skills.git", ref: "main", subdirectory: "pdf" }, staging, { gitClient });
 */
export async function stageInstallSource(source: SkillInstallSource, stagingDir: string, ports: SkillSourcePorts = {}): Promise<string> {
  ports.signal?.throwIfAborted();
  await mkdir(stagingDir, { recursive: true });
  switch (source.kind) {
    case "directory": {
      requireAbsolute(source.path, "source folder");
      const name = path.basename(source.path);
      if (name === "") throw new ToolError("invalid_arguments", `${source.path} cannot be a skill folder. Give the folder that holds SKILL.md.`);
      return copyFolder(path.dirname(source.path), [name], stagingDir, "folder", {
        label: source.path,
        ...(ports.checkLocalSource === undefined ? {} : { checkOpened: ports.checkLocalSource }),
        ...(ports.signal === undefined ? {} : { signal: ports.signal }),
      });
    }
    case "archive":
      return extractSkillArchive(
        await readArchive(source.path, ports),
        path.join(stagingDir, "archive"),
        ports.signal === undefined ? {} : { signal: ports.signal },
      );
    case "download":
      return extractSkillArchive(
        await download(source.url, ports),
        path.join(stagingDir, "download"),
        ports.signal === undefined ? {} : { signal: ports.signal },
      );
    case "git":
      return cloneRepository(source, stagingDir, ports);
  }
}

/**
 * Reads the folder `base/segments...` (`readSourceFolder`: no symlink
 * followed, caps on the bytes read) and, once all of it passed, writes it to
 * `stagingDir/<into>/<its name>` through a contained tree; returns that
 * folder. A refused folder writes nothing.
 */
async function copyFolder(
  base: string,
  segments: readonly string[],
  stagingDir: string,
  into: string,
  options: Parameters<typeof readSourceFolder>[3],
): Promise<string> {
  const folders: string[] = [];
  const files: { relative: string; data: Uint8Array; executable: boolean }[] = [];
  await readSourceFolder(
    base,
    segments,
    { directory: (relative) => void folders.push(relative), file: (relative, data, executable) => void files.push({ relative, data, executable }) },
    options,
  );
  const name = segments.at(-1) ?? path.basename(base);
  const target = `${into}/${name}`;
  const tree: ContainedTree = openContainedTree(stagingDir);
  try {
    await tree.mkdir(target, { recursive: true });
    for (const folder of folders) await tree.mkdir(`${target}/${folder}`, { recursive: true });
    for (const file of files) await tree.writeFile(`${target}/${file.relative}`, file.data, { mode: file.executable ? 0o755 : 0o644 });
  } finally {
    tree.close();
  }
  return path.join(stagingDir, into, name);
}

function requireAbsolute(file: string, what: string): void {
  if (!path.isAbsolute(file))
    throw new ToolError("invalid_arguments", `The ${what} path ${file} is relative; give an absolute path.`, { details: { path: file } });
}

/** The canonical path of an opened descriptor (its /proc link), else of `file`. */
function canonicalOf(handle: FileHandle, file: string): string {
  try {
    return readlinkSync(`/proc/self/fd/${handle.fd}`);
  } catch {
    return realpathSync(file);
  }
}

/** Opens the archive, checks the descriptor is a regular file (and the read policy on what was opened), reads it capped. */
async function readArchive(file: string, ports: SkillSourcePorts): Promise<Uint8Array> {
  requireAbsolute(file, "archive");
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      throw new ToolError("not_found", `The archive ${file} does not exist. Check the source path.`, { details: { path: file } });
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new ToolError("not_a_file", `${file} is not a file. Give a .zip or .skill archive.`);
    ports.checkLocalSource?.(canonicalOf(handle, file));
    const tooLarge = (size: number | string) =>
      new ToolError("too_large", `${file} is ${size} bytes; archives of at most ${SKILL_LIMITS.downloadMaxBytes} bytes are accepted.`, {
        details: { cap: SKILL_LIMITS.downloadMaxBytes },
      });
    if (stats.size > SKILL_LIMITS.downloadMaxBytes) throw tooLarge(stats.size);
    const buffer = Buffer.alloc(SKILL_LIMITS.downloadMaxBytes + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > SKILL_LIMITS.downloadMaxBytes) throw tooLarge(`more than ${SKILL_LIMITS.downloadMaxBytes}`);
    return new Uint8Array(buffer.buffer, buffer.byteOffset, length);
  } finally {
    await handle.close();
  }
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
  const url = path.isAbsolute(source.url) && ports.checkLocalSource !== undefined ? checkedLocalRepository(source.url, ports.checkLocalSource) : source.url;
  const repository = path.join(stagingDir, "repository");
  try {
    await ports.gitClient.clone(url, repository, { ref: source.ref, depth: 1, ...(ports.signal === undefined ? {} : { signal: ports.signal }) });
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
  // The checkout is the repository author's: its folders are reached without following symlinks, and copied as a folder source is.
  const segments = subdirectory === "" ? [] : subdirectory.split("/");
  try {
    return await copyFolder(repository, segments, stagingDir, "git", {
      label: subdirectory === "" ? `${source.url} at ${source.ref}` : `${subdirectory} of ${source.url} at ${source.ref}`,
      ...(segments.length === 0 ? { skipTopLevel: [".git"] } : {}),
      ...(ports.signal === undefined ? {} : { signal: ports.signal }),
    });
  } catch (error) {
    if (error instanceof ToolError && (error.code === "not_found" || error.code === "not_a_directory")) {
      throw new ToolError("not_found", `${source.url} at ${source.ref} has no folder ${subdirectory}. Check the path of the skill inside the repository.`, {
        details: { url: source.url, ref: source.ref, subdirectory },
      });
    }
    throw error;
  }
}

/** A local repository path, resolved and passed through the caller's check before git reads it (git opens it by name: see docs/safety.md). */
function checkedLocalRepository(url: string, check: (canonicalPath: string) => void): string {
  let canonical: string;
  try {
    canonical = realpathSync(url);
  } catch {
    throw new ToolError("not_found", `The repository ${url} does not exist. Check the source path.`, { details: { url } });
  }
  check(canonical);
  return canonical;
}
