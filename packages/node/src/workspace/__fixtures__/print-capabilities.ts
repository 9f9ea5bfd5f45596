/**
 * Prints the capabilities of a local workspace as JSON, after moving to a
 * working directory: lets a test choose PATH, NODE_PATH and the working
 * directory the ripgrep and git lookups see.
 *
 * Usage: node --import tsx --conditions=@agent-tools/source print-capabilities.ts <root> <working directory>
 */
import { createLocalWorkspace } from "../local-workspace.js";

const [root, workingDirectory] = process.argv.slice(2) as [string, string];
process.chdir(workingDirectory);
const workspace = await createLocalWorkspace({ root });
process.stdout.write(`${JSON.stringify(workspace.capabilities)}\n`);
await workspace.close();
