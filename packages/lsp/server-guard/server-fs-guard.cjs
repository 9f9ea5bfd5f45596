// Preloaded into every language server process the SDK starts (NODE_OPTIONS
// `--require`, so tsserver forked by typescript-language-server and Pyright's
// worker threads load it too). A server reads whatever its program reaches
// (`/// <reference path>`, tsconfig `paths`, pyright `extraPaths`), and hover
// and diagnostics then quote those files: this makes a path the model may not
// Read look absent (ENOENT) to the server's `fs`.
//
// AGENT_TOOLS_LSP_READ_GUARD (JSON): { roots: string[], hidden: Hidden[] }.
// A path is readable when its canonical form (realpath of the deepest
// existing ancestor, so a symlink pointing out is refused) lies in a root and
// no hidden entry matches it; directories above a root (and the temp directory) may be stat'ed and resolved (they
// name nothing the model cannot see). Hidden = { bases, self, globs,
// options, minimatch }: the Read(...) deny/ask rules as the policy compiles
// them, matched with the policy's own minimatch; `bases` null means "any one
// path segment matches a glob".
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const config = JSON.parse(process.env.AGENT_TOOLS_LSP_READ_GUARD || "null");
if (config !== null && !fs.__agentToolsGuarded) install(config);

function install({ roots, hidden }) {
  const tmpdir = (() => {
    try {
      return fs.realpathSync(require("node:os").tmpdir());
    } catch {
      return undefined;
    }
  })();
  const original = { realpathSync: fs.realpathSync.native, lstatSync: fs.lstatSync };
  const within = (base, target) => target === base || target.startsWith(base.endsWith("/") ? base : `${base}/`);
  // Loaded before fs is patched.
  const compiled = hidden.map((entry) => {
    const { Minimatch } = require(entry.minimatch);
    const matchers = entry.globs.map((glob) => new Minimatch(glob, entry.options));
    return { ...entry, tests: matchers.map((matcher) => ({ test: (value) => matcher.match(value) })) };
  });
  const isHidden = (target) =>
    compiled.some((entry) => {
      if (entry.bases === null) return target.split("/").some((segment) => segment !== "" && entry.tests.some((test) => test.test(segment)));
      return entry.bases.some((base) => {
        if (!within(base, target)) return false;
        const relative = path.relative(base, target);
        return relative === "" ? entry.self : entry.tests.some((test) => test.test(relative));
      });
    });
  /** Canonical form: realpath of the deepest existing ancestor plus the rest. */
  const canonical = (target) => {
    let head = target;
    const rest = [];
    for (;;) {
      try {
        return path.join(original.realpathSync(head), ...rest.reverse());
      } catch {
        const parent = path.dirname(head);
        if (parent === head) return target;
        rest.push(path.basename(head));
        head = parent;
      }
    }
  };
  const toPath = (value) => {
    if (typeof value === "number") return undefined; // a descriptor: opened through the guard already
    if (value instanceof URL) return value.protocol === "file:" ? require("node:url").fileURLToPath(value) : undefined;
    return Buffer.isBuffer(value) ? value.toString() : typeof value === "string" ? value : undefined;
  };
  /** True when the server may see `value`; `probe` (stat/exists/realpath) also allows the directories above a root. */
  const allowed = (value, probe) => {
    const given = toPath(value);
    if (given === undefined) return true;
    const absolute = path.resolve(given);
    const real = canonical(absolute);
    for (const candidate of [absolute, real]) if (isHidden(candidate)) return false;
    if (roots.some((root) => within(root, real))) return true;
    // typescript-language-server resolves os.tmpdir() when it loads.
    return probe === true && (roots.some((root) => within(real, root)) || real === tmpdir);
  };
  const absent = (syscall, value) => {
    const error = new Error(`ENOENT: no such file or directory, ${syscall} '${toPath(value)}'`);
    return Object.assign(error, { errno: -2, code: "ENOENT", syscall, path: toPath(value) });
  };
  const filterEntries = (directory, entries) =>
    entries.filter((entry) => {
      if (typeof entry === "string" || Buffer.isBuffer(entry)) return allowed(path.join(String(toPath(directory)), String(entry)));
      return allowed(path.join(entry.parentPath ?? entry.path ?? String(toPath(directory)), entry.name));
    });

  const guardSync = (target, name, probe, after) => {
    const wrapped = target[name];
    if (typeof wrapped !== "function") return;
    const replacement = function (value, ...rest) {
      if (!allowed(value, probe)) {
        if (name === "existsSync") return false;
        if (rest.some((option) => option && option.throwIfNoEntry === false)) return undefined;
        throw absent(name.replace(/Sync$/, ""), value);
      }
      const result = wrapped.call(this, value, ...rest);
      return after ? after(value, result) : result;
    };
    Object.assign(replacement, wrapped);
    target[name] = replacement;
  };
  function guardCallback(name, probe, after) {
    const owner = this ?? fs;
    const wrapped = owner[name];
    const replacement = function (value, ...rest) {
      const callback = rest[rest.length - 1];
      if (!allowed(value, probe) && typeof callback === "function") {
        if (name === "exists") return process.nextTick(callback, false);
        return process.nextTick(callback, absent(name, value));
      }
      if (after && typeof callback === "function") rest[rest.length - 1] = (error, result) => callback(error, error ? result : after(value, result));
      return wrapped.call(this, value, ...rest);
    };
    Object.assign(replacement, wrapped);
    owner[name] = replacement;
  }
  const guardPromise = (name, probe, after) => {
    const wrapped = fs.promises[name];
    fs.promises[name] = async function (value, ...rest) {
      if (!allowed(value, probe)) throw absent(name, value);
      const result = await wrapped.call(this, value, ...rest);
      return after ? after(value, result) : result;
    };
  };

  const READS = ["readFile", "open", "readdir", "opendir", "access", "readlink"];
  const PROBES = ["stat", "lstat", "exists", "realpath"];
  const listing = (name) => (name === "readdir" ? filterEntries : undefined);
  for (const name of READS) {
    guardSync(fs, `${name}Sync`, false, listing(name));
    if (typeof fs[name] === "function") guardCallback(name, false, listing(name));
    if (typeof fs.promises[name] === "function") guardPromise(name, false, listing(name));
  }
  for (const name of PROBES) {
    guardSync(fs, `${name}Sync`, true);
    if (typeof fs[name] === "function") guardCallback(name, true);
    if (typeof fs.promises[name] === "function") guardPromise(name, true);
  }
  guardSync(fs.realpathSync, "native", true);
  if (typeof fs.realpath.native === "function") guardCallback.call(fs.realpath, "native", true);
  guardSync(fs, "createReadStream", false);
  // fs.watch of an absent path throws ENOENT; watchFile of one reports zeros, which hides nothing here but is left as is.
  guardSync(fs, "watch", false);
  // ESM named imports of node:fs (typescript-language-server is ESM) see the patched functions too.
  require("node:module").syncBuiltinESMExports();
  Object.defineProperty(fs, "__agentToolsGuarded", { value: true });
}
