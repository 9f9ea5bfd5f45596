/**
 * A lock holder in another process: takes the workspace lock of one file
 * through createLocalWorkspace, prints "locked", and holds it until killed.
 *
 * Usage: node --import tsx --conditions=@agent-tools/source local-lock-child.ts <root> <file>
 */
import { createLocalWorkspace } from "../local-workspace.js";

const [root, file] = process.argv.slice(2) as [string, string];
const workspace = await createLocalWorkspace({ root });
await workspace.fs.lock(file);
process.stdout.write("locked\n");
setInterval(() => undefined, 60_000);
