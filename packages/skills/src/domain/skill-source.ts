/**
 * Parses the `source` of an install into where the skill comes from: a
 * local folder, a local archive, a download, or a git repository (with a
 * ref and a folder inside it). Pure: existence is checked by the runtime.
 */
import { posix } from "node:path";
import { ToolError } from "@agent-tools/core";
import { SKILL_METADATA_FILES, type SkillInstallMethod, type SkillInstallSource } from "./skill-types.js";

/** The ref a git source uses when neither the URL nor the call names one. */
export const DEFAULT_SKILL_REF = "main";

/** Options of {@link parseInstallSource}. */
export interface InstallSourceOptions {
  /** `auto` decides from the form of the source; `git` and `download` force one. */
  readonly method: SkillInstallMethod;
  /** Branch, tag or commit for git sources; ignored for the others. */
  readonly ref?: string;
  /** Absolute folder relative local paths resolve against. */
  readonly workdir: string;
}

const SOURCE_FORMS =
  "Give a local folder, a .zip or .skill archive, an http(s) URL, a GitHub, GitLab or Bitbucket repository URL (optionally /tree/<ref>/<folder>), or a git URL ending in .git.";

function invalid(message: string): ToolError {
  return new ToolError("invalid_arguments", message);
}

/**
 * Parses an install source.
 *
 * - Local paths: relative ones resolve against `workdir` (posix join);
 *   `~` is not expanded; `file://` URLs are decoded. A name ending in
 *   `.zip` or `.skill` is an archive, anything else a folder.
 * - Forge URLs are git sources: `https://github.com/o/r`,
 *   `.../tree/<ref>/<folder>`, `.../blob/<ref>/<folder>/SKILL.md` (the
 *   blob's folder), GitLab `.../-/tree/<ref>/<folder>` and `/-/blob/`,
 *   Bitbucket `.../src/<ref>/<folder>`. A ref in such a URL is its first
 *   segment after `tree/`, `blob/` or `src/` (refs holding `/` need the
 *   `ref` option and a plain repository URL).
 * - URLs ending in `.git`, `ssh://`, `git://` and `git@host:o/r.git` are
 *   git sources; every other http(s) URL is a download.
 * - `method: "git"` forces git: a forge URL is still split into clone URL,
 *   ref and folder, anything else is cloned as given (a relative local path
 *   resolved against `workdir`). `method: "download"` forces a download and
 *   needs an http(s) URL.
 * - The ref is the URL's, else `options.ref`, else `main`; an `options.ref`
 *   that disagrees with the URL's is an error.
 *
 * @throws ToolError `invalid_arguments` with what to give instead.
 * @example
 * parseInstallSource("https://github.com/acme/skills/tree/v2/pdf", { method: "auto", workdir: "/w" });
 * // { kind: "git", url: "https://github.com/acme/skills.git", ref: "v2", subdirectory: "pdf" }
 */
export function parseInstallSource(source: string, options: InstallSourceOptions): SkillInstallSource {
  const trimmed = source.trim();
  if (trimmed === "") throw invalid(`"source" is empty. ${SOURCE_FORMS}`);
  if (trimmed.includes("\0")) throw invalid(`"source" holds a NUL character. ${SOURCE_FORMS}`);
  const explicitRef = options.ref?.trim() === "" ? undefined : options.ref?.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1]?.toLowerCase();
  const isScpLike = /^[\w.-]+@[\w.-]+:(?!\/\/)/.test(trimmed);
  const isHttp = scheme === "http" || scheme === "https";

  if (options.method === "download") {
    if (!isHttp)
      throw invalid(`method "download" needs an http(s) URL, but "source" is ${JSON.stringify(trimmed)}. Use method "auto" for local paths and git URLs.`);
    return { kind: "download", url: parseHttpUrl(trimmed).href };
  }
  if (isScpLike) return gitSource(trimmed, undefined, "", explicitRef);
  if (scheme === "ssh" || scheme === "git") return gitSource(trimmed, undefined, "", explicitRef);
  if (isHttp) {
    const url = parseHttpUrl(trimmed);
    const forge = parseForgeUrl(url);
    if (forge !== undefined) return gitSource(forge.cloneUrl, forge.ref, forge.subdirectory, explicitRef);
    if (options.method === "git" || url.pathname.endsWith(".git")) return gitSource(trimmed, undefined, "", explicitRef);
    return { kind: "download", url: url.href };
  }
  if (scheme === "file") {
    const path = fileUrlPath(trimmed);
    return options.method === "git" ? gitSource(path, undefined, "", explicitRef) : localSource(path);
  }
  if (scheme !== undefined && scheme.length > 1) {
    throw invalid(`The "${scheme}:" scheme is not supported for "source". ${SOURCE_FORMS}`);
  }
  const path = resolveLocalPath(trimmed, options.workdir);
  return options.method === "git" ? gitSource(path, undefined, "", explicitRef) : localSource(path);
}

function gitSource(url: string, urlRef: string | undefined, subdirectory: string, explicitRef: string | undefined): SkillInstallSource {
  if (urlRef !== undefined && explicitRef !== undefined && urlRef !== explicitRef) {
    throw invalid(
      `"ref" is ${JSON.stringify(explicitRef)} but the URL names ref ${JSON.stringify(urlRef)}. Leave "ref" out, or give the plain repository URL with "ref".`,
    );
  }
  return { kind: "git", url, ref: urlRef ?? explicitRef ?? DEFAULT_SKILL_REF, subdirectory };
}

function localSource(path: string): SkillInstallSource {
  return /\.(zip|skill)$/i.test(path) ? { kind: "archive", path } : { kind: "directory", path };
}

function resolveLocalPath(path: string, workdir: string): string {
  if (path.startsWith("~")) {
    throw invalid(
      `"source" ${JSON.stringify(path)} starts with "~", which is not expanded here: give the absolute path (e.g. /home/<you>/...) or a path relative to the workspace.`,
    );
  }
  if (path.includes("\\")) throw invalid(`"source" ${JSON.stringify(path)} holds a backslash: separate folders with "/".`);
  return posix.isAbsolute(path) ? posix.normalize(path) : posix.join(workdir, path);
}

function fileUrlPath(source: string): string {
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    throw invalid(`"source" ${JSON.stringify(source)} is not a valid file:// URL. Give a path such as file:///home/me/skills/pdf or the plain path.`);
  }
  if (url.host !== "" && url.host !== "localhost")
    throw invalid(`file:// URLs must name a local file (no host), but ${JSON.stringify(source)} names host "${url.host}".`);
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    throw invalid(`"source" ${JSON.stringify(source)} holds an invalid %-escape.`);
  }
  if (path.includes("\0")) throw invalid(`"source" ${JSON.stringify(source)} decodes to a path with a NUL character.`);
  return posix.normalize(path);
}

function parseHttpUrl(source: string): URL {
  try {
    const url = new URL(source);
    if (url.hostname === "") throw new Error("no host");
    return url;
  } catch {
    throw invalid(`"source" ${JSON.stringify(source)} is not a valid URL. ${SOURCE_FORMS}`);
  }
}

interface ForgeSource {
  readonly cloneUrl: string;
  readonly ref?: string;
  readonly subdirectory: string;
}

function segmentsOf(url: URL): string[] {
  return url.pathname
    .split("/")
    .filter((segment) => segment !== "")
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
}

/** GitHub, GitLab and Bitbucket repository and folder URLs; undefined for anything else (release files, raw files, other hosts). */
function parseForgeUrl(url: URL): ForgeSource | undefined {
  const host = url.hostname.toLowerCase().replace(/^www\./, "");
  const segments = segmentsOf(url);
  const origin = `${url.protocol}//${url.host}`;
  if (host === "github.com") {
    const [owner, repository, kind, ref, ...rest] = segments;
    if (owner === undefined || repository === undefined) return undefined;
    const cloneUrl = `${origin}/${owner}/${repository.replace(/\.git$/, "")}.git`;
    if (kind === undefined) return { cloneUrl, subdirectory: "" };
    if ((kind === "tree" || kind === "blob") && ref !== undefined) return { cloneUrl, ref, subdirectory: folderOf(rest, kind === "blob") };
    return undefined;
  }
  if (host === "gitlab.com") {
    const dash = segments.indexOf("-");
    const project = dash === -1 ? segments : segments.slice(0, dash);
    if (project.length < 2) return undefined;
    const cloneUrl = `${origin}/${project.join("/").replace(/\.git$/, "")}.git`;
    if (dash === -1) return { cloneUrl, subdirectory: "" };
    const [kind, ref, ...rest] = segments.slice(dash + 1);
    if ((kind === "tree" || kind === "blob") && ref !== undefined) return { cloneUrl, ref, subdirectory: folderOf(rest, kind === "blob") };
    return undefined;
  }
  if (host === "bitbucket.org") {
    const [owner, repository, kind, ref, ...rest] = segments;
    if (owner === undefined || repository === undefined) return undefined;
    const cloneUrl = `${origin}/${owner}/${repository.replace(/\.git$/, "")}.git`;
    if (kind === undefined) return { cloneUrl, subdirectory: "" };
    if (kind === "src" && ref !== undefined) {
      const last = rest.at(-1);
      const isMetadataFile = last !== undefined && (SKILL_METADATA_FILES as readonly string[]).includes(last);
      return { cloneUrl, ref, subdirectory: folderOf(rest, isMetadataFile) };
    }
    return undefined;
  }
  return undefined;
}

/** The folder a URL's path segments name; for a file (a blob), its parent folder. */
function folderOf(segments: readonly string[], isFile: boolean): string {
  const folder = (isFile ? segments.slice(0, -1) : segments).join("/");
  // Segments are decoded, so an escaped "/" may have made new ones: check the joined path.
  if (folder.split("/").some((segment) => segment === ".." || segment === ".") || /[\\\0]/.test(folder)) {
    throw invalid(`The folder ${JSON.stringify(folder)} in the URL is not a plain path inside the repository.`);
  }
  return folder;
}
