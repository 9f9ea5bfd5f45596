// Makes better-sqlite3 unavailable to the process it is imported into, as
//   node --import ./without-better-sqlite3.mjs ...
// AGENT_TOOLS_SIMULATE=missing (default): the package is not installed.
// AGENT_TOOLS_SIMULATE=unbuilt: it is installed, but its native module was never built.
import { register } from "node:module";

register("./without-better-sqlite3-hooks.mjs", import.meta.url, { data: { simulate: process.env.AGENT_TOOLS_SIMULATE ?? "missing" } });
