#!/usr/bin/env node
/**
 * Assembles every WebAssembly text module (`*.wat`) under packages/*\/src into
 * a TypeScript module beside it (`<name>.wasm.ts`) that exports the bytes, so
 * packages ship no binary files and need no assembler at run time.
 *
 *   node scripts/build-wasm.mjs          # regenerate
 *   node scripts/build-wasm.mjs --check  # exit 1 when a generated file is stale
 *
 * The `.wat` file is the source of truth; the generated file says so.
 */
import { readFileSync, readdirSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import wabtFactory from "wabt";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Every `.wat` file under packages/<name>/src. */
export function findWatFiles() {
  const found = [];
  const walk = (directory) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory() && entry.name !== "node_modules") walk(full);
      else if (entry.isFile() && entry.name.endsWith(".wat")) found.push(full);
    }
  };
  for (const name of readdirSync(path.join(root, "packages"))) {
    const source = path.join(root, "packages", name, "src");
    if (existsSync(source)) walk(source);
  }
  return found.sort();
}

/** The generated TypeScript text for one `.wat` file. */
export async function generate(watFile) {
  const wabt = await wabtFactory();
  const module = wabt.parseWat(path.basename(watFile), readFileSync(watFile, "utf8"), { simd: true });
  try {
    module.validate();
    const bytes = module.toBinary({}).buffer;
    const base = path.basename(watFile, ".wat");
    const constant = `${base.replace(/-/g, "_").toUpperCase()}_WASM`;
    const lines = [];
    for (let index = 0; index < bytes.length; index += 32) lines.push(`  ${Array.from(bytes.subarray(index, index + 32)).join(", ")},`);
    return [
      `// Generated from ${base}.wat by scripts/build-wasm.mjs: do not edit; edit the .wat and run \`node scripts/build-wasm.mjs\`.`,
      "",
      `/** The WebAssembly binary assembled from ${base}.wat (${bytes.length} bytes). */`,
      `export const ${constant} = new Uint8Array([`,
      ...lines,
      "]);",
      "",
    ].join("\n");
  } finally {
    module.destroy();
  }
}

/** Output path of a `.wat` file. */
export const outputOf = (watFile) => watFile.replace(/\.wat$/, ".wasm.ts");

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes("--check");
  let stale = 0;
  for (const watFile of findWatFiles()) {
    const text = await generate(watFile);
    const output = outputOf(watFile);
    const current = existsSync(output) ? readFileSync(output, "utf8") : "";
    if (current === text) continue;
    if (check) {
      stale += 1;
      console.error(`stale: ${path.relative(root, output)} (run node scripts/build-wasm.mjs)`);
    } else {
      writeFileSync(output, text);
      console.log(`wrote ${path.relative(root, output)}`);
    }
  }
  if (stale) process.exit(1);
}
