/**
 * A writer to be killed mid-write: reads the bytes to write from stdin, then
 * writes them to one file through createLocalWorkspace, over and over, until
 * it is killed. Prints "writing" before the first round.
 *
 * Usage: node --import tsx --conditions=@agent-tools/source local-write-child.ts <root> <file>
 */
import { createLocalWorkspace } from "../local-workspace.js";

const [root, file] = process.argv.slice(2) as [string, string];
const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const bytes = Buffer.concat(chunks);
const workspace = await createLocalWorkspace({ root });
process.stdout.write("writing\n");
for (;;) await workspace.fs.writeFileAtomic(file, bytes);
