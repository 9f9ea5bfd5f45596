/** Realistic text for the Read and Edit figures: the sources of a real tree concatenated. */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, writeSync } from "node:fs";
import path from "node:path";

/**
 * The `.ts`, `.js` and `.md` files of `repository` (outside node_modules and
 * .git), with `\r` and trailing blanks removed, joined by newlines, walked
 * again until `bytes` characters, cut there.
 */
export function sourceText(repository: string, bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (size >= bytes) return;
      if (entry.name === "node_modules" || entry.name === ".git") continue;
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|js|md)$/.test(entry.name)) {
        const text = readFileSync(full, "utf8")
          .replace(/\r/g, "")
          .replace(/[ \t]+$/gm, "");
        parts.push(text);
        size += text.length;
      }
    }
  };
  while (size < bytes) walk(repository);
  return parts.join("\n").slice(0, bytes);
}

/**
 * Writes, once, `directory/name`: `bytes` bytes of `repository`'s sources
 * repeated (whole lines, ending in a newline); reused when it exists at
 * that size. Resolves to its path.
 */
export function ensureTextFile(repository: string, directory: string, name: string, bytes: number): string {
  const file = path.join(directory, name);
  if (existsSync(file) && statSync(file).size === bytes) return file;
  mkdirSync(directory, { recursive: true });
  const text = sourceText(repository, Math.min(bytes, 16 * 1024 * 1024));
  const chunk = Buffer.from(`${text.slice(0, text.lastIndexOf("\n") + 1)}`);
  const partial = `${file}.partial`;
  const fd = openSync(partial, "w");
  try {
    let written = 0;
    while (written < bytes) {
      const part = chunk.subarray(0, Math.min(chunk.length, bytes - written));
      // The last part ends the file with a newline.
      if (written + part.length === bytes) part[part.length - 1] = 0x0a;
      written += writeSync(fd, part);
    }
  } finally {
    closeSync(fd);
  }
  renameSync(partial, file);
  return file;
}
