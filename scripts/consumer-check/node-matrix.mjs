// The consumer check's Node matrix: installs the sdk tarballs with npm into a
// fresh project under Node 20, 22 and 24 (the machine's node and the ones
// scripts/setup.sh installs under compat/), and on each runs the README's
// embedding example plus a task and a memory call (both on SQLite). Records
// per Node: packages, MB, install seconds, whether any package of the tree
// has an install script (none may on 22 and 24, where node:sqlite serves), and
// that the install passes npm's --strict-allow-scripts there.
// On Node 20 there is no node:sqlite: the sdk alone must refuse the task call
// with an error that names better-sqlite3 and its install command, and with
// better-sqlite3 installed beside it the same program must pass. Then the
// switch of Node major: that Node 20 install runs as it is on Node 24, with no
// rebuild, on the data the Node 20 run wrote. Last, on Node 24, the sdk with
// @agent-tools/mcp beside it: its footprint, and a stdio MCP server's tool
// called through the registry (the optional peer found where npm put it).
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The Node versions of the matrix: the binary that runs them, or undefined for the machine's own. */
const NODES = [
  { label: "Node 20", major: 20, binDir: undefined },
  { label: "Node 22", major: 22, binDir: "compat/node22/node_modules/node/bin" },
  { label: "Node 24", major: 24, binDir: "compat/node24/node_modules/node/bin" },
];

/** The embedding program: Read, TaskCreate and a MemoryManager write + search through one registry. */
function embedProgram(directory) {
  return `import { buildBuiltinToolRegistry, toOpenAITools } from "@agent-tools/sdk";
const registry = await buildBuiltinToolRegistry({ workdir: ${JSON.stringify(path.join(directory, "project"))}, dataDir: process.argv[2] ?? ${JSON.stringify(path.join(directory, "data"))} });
const text = (result) => result.content.map((part) => part.text ?? "").join("");
const tools = toOpenAITools(registry.tools);
const read = await registry.executeToolCall({ id: "call_1", name: "Read", arguments: '{"path":"notes.md"}' });
const task = await registry.executeToolCall({ id: "call_2", name: "TaskCreate", arguments: { subject: "Check", description: "Check the notes", activeForm: "Checking" } });
const wrote = await registry.executeToolCall({ id: "call_3", name: "MemoryManager", arguments: { action: "write", slug: "favourite-editor-" + process.pid, scope: "global", type: "user", description: "The user's favourite editor", body: "The user edits with helix." } });
const found = await registry.executeToolCall({ id: "call_4", name: "MemoryManager", arguments: { action: "search", query: "helix editor", scope: "auto" } });
console.log(JSON.stringify({
  node: process.version,
  tools: tools.length,
  read: !read.isError && text(read).includes("hello from the consumer"),
  task: !task.isError,
  taskError: task.isError ? text(task).slice(0, 400) : undefined,
  memory: !wrote.isError && !found.isError && text(found).includes("favourite-editor"),
  memoryError: wrote.isError ? text(wrote).slice(0, 400) : found.isError ? text(found).slice(0, 400) : undefined,
}));
await registry.close();
`;
}

/** Packages of the installed tree that declare an install step npm runs (install scripts or a binding.gyp). */
function packagesWithInstallScripts(directory) {
  const found = [];
  const visit = (folder) => {
    if (!existsSync(folder)) return;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === ".bin") continue;
      const full = path.join(folder, entry.name);
      if (entry.name.startsWith("@")) {
        visit(full);
        continue;
      }
      const manifestPath = path.join(full, "package.json");
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
      const scripts = manifest.scripts ?? {};
      if (scripts.preinstall || scripts.install || scripts.postinstall || existsSync(path.join(full, "binding.gyp"))) found.push(manifest.name);
      visit(path.join(full, "node_modules"));
    }
  };
  visit(path.join(directory, "node_modules"));
  return found;
}

const lastLines = (text, count = 3) => text.trim().split("\n").slice(-count).join(" | ");

/** The JSON object a program printed on its last line of output, or `{}`. */
function lastJsonLine(stdout) {
  try {
    return JSON.parse(stdout.trim().split("\n").pop()) ?? {};
  } catch {
    return {};
  }
}

/**
 * Runs the matrix. `context` is the consumer check's: `root` (the repository), `work` (its temp folder),
 * `overrides` (package name -> file:tarball), `run`, `record`, `footprint` and `footprints` (filled in here).
 */
export function checkNodeMatrix(context) {
  const { root, work, overrides, run, record } = context;
  const installedOn20 = [];
  for (const node of NODES) {
    const binDir = node.binDir === undefined ? undefined : path.join(root, node.binDir);
    if (binDir !== undefined && !existsSync(path.join(binDir, "node"))) {
      record(`${node.label}: node binary present`, false, `${node.binDir}/node is missing: run scripts/setup.sh`);
      continue;
    }
    // npm and every script it starts run on this Node: its bin folder comes first on PATH.
    const env = binDir === undefined ? {} : { PATH: `${binDir}${path.delimiter}${process.env.PATH}` };
    const version = run("node", ["--version"], { env }).stdout.trim();
    const variants =
      node.major === 20
        ? [
            { extra: {}, name: "sdk" },
            { extra: { "better-sqlite3": "^12" }, name: "sdk + better-sqlite3" },
          ]
        : [{ extra: {}, name: "sdk" }];
    for (const variant of variants) {
      const directory = path.join(work, `matrix-${node.major}-${variant.name.replace(/[^a-z0-9]+/g, "-")}`);
      mkdirSync(path.join(directory, "project"), { recursive: true });
      writeFileSync(path.join(directory, "project", "notes.md"), "# Notes\nhello from the consumer\n");
      // On 22 and 24 the install must need no script at all: npm's strict mode fails on any script not allowed.
      const strict = node.major >= 22 ? ["--strict-allow-scripts"] : [];
      const label = `${node.label} (${version}) ${variant.name}`;
      const dependencies = { "@agent-tools/sdk": overrides["@agent-tools/sdk"], zod: "^4", ...variant.extra };
      const scripted = installMeasured(context, { directory, dependencies, env, strict, label });
      if (scripted === undefined) continue;
      if (node.major >= 22) record(`${label} has no package with an install script`, scripted.length === 0, scripted.join(", "));
      writeFileSync(path.join(directory, "embed.mjs"), embedProgram(directory));
      const executed = run("node", ["embed.mjs"], { cwd: directory, env, timeout: 120_000 });
      const parsed = lastJsonLine(executed.stdout);
      const warnings = executed.stderr.includes("ExperimentalWarning") ? "an ExperimentalWarning was printed" : "";
      if (node.major === 20 && variant.name === "sdk") {
        // No node:sqlite and no better-sqlite3: Read works, the task call is refused with the fix in its text.
        const hint = String(parsed.taskError ?? "");
        record(
          `${label}: without a SQLite driver the task call names better-sqlite3 and its install command`,
          executed.ok && parsed.read === true && parsed.task === false && /better-sqlite3/.test(hint) && /npm install better-sqlite3/.test(hint),
          executed.ok ? hint.slice(0, 200) : lastLines(executed.stderr),
        );
        continue;
      }
      if (node.major === 20) installedOn20.push(directory);
      record(
        `${label} runs the README example, a task and a memory call`,
        executed.ok && parsed.read === true && parsed.task === true && parsed.memory === true && parsed.tools > 5 && warnings === "",
        executed.ok ? `${JSON.stringify(parsed)}${warnings ? ` | ${warnings}` : ""}` : lastLines(executed.stderr),
      );
    }
  }
  switchMajor(context, installedOn20);
  checkMcpWhenInstalled(context);
}

/**
 * Installs `dependencies` (every @agent-tools package from its tarball) with npm into `directory` on the Node of
 * `env`, records the install with its footprint under `label`, and returns the packages with install scripts
 * (undefined when the install failed).
 */
function installMeasured({ overrides, run, record, footprint, footprints }, { directory, dependencies, env, strict, label }) {
  writeFileSync(
    path.join(directory, "package.json"),
    JSON.stringify({ name: "consumer-matrix", private: true, type: "module", dependencies, overrides }, null, 2),
  );
  const installed = run("npm", ["install", "--no-package-lock", "--loglevel=error", ...strict], { cwd: directory, env });
  const name = `${label} installs${strict.length ? " with --strict-allow-scripts" : ""}`;
  if (!installed.ok) {
    record(name, false, lastLines(installed.stderr));
    return undefined;
  }
  const size = footprint(directory);
  const scripted = packagesWithInstallScripts(directory);
  footprints[label] = { ...size, seconds: installed.seconds, installScripts: scripted };
  const scripts = scripted.length ? scripted.join(", ") : "none";
  record(name, true, `${size.packages} packages, ${size.megabytes} MB, ${installed.seconds.toFixed(1)} s, install scripts: ${scripts}`);
  return scripted;
}

/** A stdio MCP server with one tool, `echo`, on the MCP SDK that @agent-tools/mcp brings. */
const ECHO_SERVER = `import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
const server = new Server({ name: "echo", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: "echo", description: "Echoes text.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: "text", text: "echo: " + request.params.arguments.text }] }));
await server.connect(new StdioServerTransport());
`;

/** The host program: the sdk with one MCP server configured, calling its tool through the registry. */
const MCP_HOST = `import { buildBuiltinToolRegistry, toolResultText } from "@agent-tools/sdk";
const settings = {
  servers: [{ id: "echo", enabled: true, transport: "stdio", command: process.execPath, args: ["server.mjs"], url: "", timeoutMs: 60_000 }],
  selected: [],
};
const registry = await buildBuiltinToolRegistry({ workdir: process.cwd(), dataDir: "data", mcp: { getSettings: () => settings } });
const result = await registry.executeToolCall({ id: "call_1", name: "mcp_echo_echo", arguments: { text: "hello" } });
console.log(JSON.stringify({ isError: result.isError === true, text: toolResultText(result, "") }));
await registry.close();
`;

/** On Node 24: the sdk with @agent-tools/mcp beside it (its footprint), and an MCP tool called through the registry. */
function checkMcpWhenInstalled(context) {
  const { root, work, overrides, run, record } = context;
  const binDir = path.join(root, NODES[2].binDir);
  const env = { PATH: `${binDir}${path.delimiter}${process.env.PATH}` };
  const directory = path.join(work, "matrix-24-sdk-mcp");
  mkdirSync(directory, { recursive: true });
  const dependencies = { "@agent-tools/sdk": overrides["@agent-tools/sdk"], "@agent-tools/mcp": overrides["@agent-tools/mcp"], zod: "^4" };
  if (installMeasured(context, { directory, dependencies, env, strict: [], label: "Node 24 sdk + mcp" }) === undefined) return;
  writeFileSync(path.join(directory, "server.mjs"), ECHO_SERVER);
  writeFileSync(path.join(directory, "host.mjs"), MCP_HOST);
  const executed = run("node", ["host.mjs"], { cwd: directory, env, timeout: 120_000 });
  const parsed = lastJsonLine(executed.stdout);
  record(
    "Node 24 sdk + mcp: the sdk loads @agent-tools/mcp for the mcp option and calls a stdio server's tool",
    executed.ok && parsed.isError === false && String(parsed.text).includes("echo: hello"),
    executed.ok ? JSON.stringify(parsed).slice(0, 300) : lastLines(executed.stderr),
  );
}

/** Runs the Node 20 install (sdk + better-sqlite3) on Node 24 as it is: no rebuild, same data folder. */
function switchMajor({ root, run, record }, installedOn20) {
  const binDir = path.join(root, NODES[2].binDir);
  const directory = installedOn20[0];
  if (directory === undefined || !existsSync(path.join(binDir, "node"))) {
    record("switching Node 20 -> 24 needs no rebuild", false, "the Node 20 install with better-sqlite3 or Node 24 is missing");
    return;
  }
  const dataDir = path.join(directory, "data");
  const env = { PATH: `${binDir}${path.delimiter}${process.env.PATH}` };
  const first = run("node", ["embed.mjs", dataDir], { cwd: directory, env, timeout: 120_000 });
  const parsed = lastJsonLine(first.stdout);
  record(
    "switching Node 20 -> 24 needs no rebuild: the Node 20 install runs a task and a memory call on Node 24",
    first.ok && parsed.task === true && parsed.memory === true && String(parsed.node).startsWith("v24."),
    first.ok ? JSON.stringify(parsed) : lastLines(first.stderr),
  );
}
