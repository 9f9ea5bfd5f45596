/**
 * SSHManager's file actions over SFTP: list, stat, read text, write text
 * (atomic), mkdir, rename, delete. Relative paths start at the host's root
 * (or its login directory).
 */
import { ToolError } from "@agent-tools/core";
import type { WorkspaceFileSystem } from "@agent-tools/core/workspace";
import { type SshManagerDetails, formatBytes, remoteFailure, sshResult } from "./ssh-manager-output.js";
import { SSH_MANAGER_LIMITS, type SshManagerInput } from "./ssh-manager-schema.js";
import type { ToolOutput } from "@agent-tools/core";

/** What the file actions need of a host. */
export interface SftpHost {
  readonly id: string;
  /** The host's SFTP file system (opens the connection on first use). */
  fs(): Promise<WorkspaceFileSystem>;
  /** The absolute directory relative paths start at. */
  baseDirectory(): Promise<string>;
}

type SftpAction = "sftp_list" | "sftp_stat" | "sftp_read_text" | "sftp_write_text" | "sftp_mkdir" | "sftp_rename" | "sftp_delete";

/** Runs one sftp_* action. */
export async function runSftpAction(action: SftpAction, input: SshManagerInput, host: SftpHost, signal: AbortSignal): Promise<ToolOutput<SshManagerDetails>> {
  const path = await absolute(host, requirePath(input.path, action, "path"));
  const fs = await host.fs();
  const base = { action, hostId: host.id, path };
  try {
    switch (action) {
      case "sftp_list": {
        const entries = (await fs.readdir(path)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        const shown = entries.slice(0, SSH_MANAGER_LIMITS.sftpListMaxEntries);
        const lines = shown.map((entry) => (entry.type === "directory" ? `${entry.name}/` : entry.type === "symlink" ? `${entry.name}@` : entry.name));
        const more = entries.length - shown.length;
        const text = `${path} on ${host.id}: ${entries.length} entr${entries.length === 1 ? "y" : "ies"}${entries.length === 0 ? "." : ":"}\n${lines.join("\n")}${more > 0 ? `\n... ${more} more not shown.` : ""}`;
        return sshResult(text.trimEnd(), { ...base, entries: shown.map(({ name, type }) => ({ name, type })), truncated: more > 0 });
      }
      case "sftp_stat": {
        const stats = await fs.lstat(path);
        const mode = `0${(stats.mode & 0o7777).toString(8)}`;
        const stat = { type: stats.type, size: stats.size, mtimeMs: stats.mtimeMs, mode };
        return sshResult(`${path} on ${host.id}: ${stats.type}, ${formatBytes(stats.size)}, mode ${mode}, modified ${new Date(stats.mtimeMs).toISOString()}.`, {
          ...base,
          stat,
        });
      }
      case "sftp_read_text":
        return await readText(fs, path, input, base, signal);
      case "sftp_write_text": {
        if (input.content === undefined) throw new ToolError("invalid_arguments", "sftp_write_text needs content (the whole new file).");
        const data = Buffer.from(input.content, "utf8");
        if (data.length > SSH_MANAGER_LIMITS.sftpWriteMaxBytes) {
          throw new ToolError(
            "too_large",
            `content is ${formatBytes(data.length)}; sftp_write_text takes at most ${formatBytes(SSH_MANAGER_LIMITS.sftpWriteMaxBytes)}.`,
          );
        }
        await fs.writeFileAtomic(path, data, { signal });
        return sshResult(`Wrote ${formatBytes(data.length)} to ${path} on ${host.id}.`, { ...base, bytes: data.length });
      }
      case "sftp_mkdir":
        await fs.mkdir(path, { recursive: true });
        return sshResult(`Directory ${path} exists on ${host.id}.`, base);
      case "sftp_rename": {
        const to = await absolute(host, requirePath(input.to, action, "to"));
        await fs.rename(path, to);
        return sshResult(`Renamed ${path} to ${to} on ${host.id}.`, { ...base, to });
      }
      case "sftp_delete": {
        const stats = await fs.lstat(path);
        if (stats.type === "directory") await fs.rmdir(path);
        else await fs.unlink(path);
        return sshResult(`Deleted ${stats.type === "directory" ? "the directory " : ""}${path} on ${host.id}.`, base);
      }
    }
  } catch (error) {
    throw remoteFailure(error, host.id, `${action} ${path}`);
  }
}

async function readText(
  fs: WorkspaceFileSystem,
  path: string,
  input: SshManagerInput,
  base: { action: SftpAction; hostId: string; path: string },
  signal: AbortSignal,
): Promise<ToolOutput<SshManagerDetails>> {
  const limit = byteLimit(input.max_bytes, SSH_MANAGER_LIMITS.sftpReadDefaultBytes, SSH_MANAGER_LIMITS.sftpReadMaxBytes);
  const stats = await fs.stat(path);
  if (stats.type === "directory") throw new ToolError("not_a_file", `${path} is a directory; use sftp_list.`);
  // Three bytes more than shown, to cut back to a whole character.
  const data = await fs.readFile(path, { start: 0, end: Math.min(stats.size, limit + 3), signal });
  if (data.includes(0))
    throw new ToolError("binary_file", `${path} looks binary (it has NUL bytes); sftp_read_text reads text files only.`, { details: { size: stats.size } });
  let cut = Math.min(limit, data.length);
  if (cut < data.length) while (cut > 0 && (data[cut]! & 0xc0) === 0x80) cut -= 1;
  const shown = data.subarray(0, cut);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(shown);
  } catch {
    throw new ToolError("not_utf8", `${path} is not UTF-8 text; sftp_read_text reads text files only.`, { details: { size: stats.size } });
  }
  const truncated = shown.length < stats.size;
  const note = truncated
    ? `\n[Shown the first ${formatBytes(shown.length)} of ${formatBytes(stats.size)}; pass a larger max_bytes (at most ${SSH_MANAGER_LIMITS.sftpReadMaxBytes}) or use exec with head/tail/sed to read further.]`
    : "";
  return sshResult(`${text}${note}`, { ...base, bytes: shown.length, size: stats.size, truncated });
}

/** `max_bytes` checked against its range, or the default. */
export function byteLimit(value: number | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new ToolError("invalid_arguments", `max_bytes must be a whole number from 1 to ${max} (default ${fallback}).`);
  return value;
}

function requirePath(value: string | undefined, action: string, field: string): string {
  if (value === undefined || value.trim() === "")
    throw new ToolError("invalid_arguments", `${action} needs ${field} (a remote path; relative paths start at the host's root).`);
  if (value.includes("\0")) throw new ToolError("invalid_path", `${field} contains a NUL character.`);
  return value;
}

/** The absolute POSIX form of a remote path: relative paths join the base directory; `.` and `..` are resolved. */
async function absolute(host: SftpHost, path: string): Promise<string> {
  const joined = path.startsWith("/") ? path : `${(await host.baseDirectory()).replace(/\/+$/, "")}/${path}`;
  const parts: string[] = [];
  for (const part of joined.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}
