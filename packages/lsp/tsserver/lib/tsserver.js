// The tsserver that @agent-tools/lsp hands typescript-language-server
// (initializationOptions.tsserver.path). It runs the SDK's own TypeScript
// (AGENT_TOOLS_TYPESCRIPT_LIB, else the typescript next to the SDK), never
// a workspace's node_modules/typescript, and removes the system's `require`
// before the server starts: tsserver then loads no plugin at all, neither
// from a tsconfig's compilerOptions.plugins (which it would resolve from
// the SDK's node_modules and its ancestors, which may be the workspace's)
// nor global ones. The folder's package.json holds the version
// typescript-language-server reads.
"use strict";
const path = require("node:path");
const lib = process.env.AGENT_TOOLS_TYPESCRIPT_LIB || path.dirname(require.resolve("typescript/lib/typescript.js"));
const ts = require(path.join(lib, "typescript.js"));
ts.sys.require = undefined;
ts.sys.importPlugin = undefined;
require(path.join(lib, "_tsserver.js"));
