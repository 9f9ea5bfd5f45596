/**
 * A writer to be killed mid-write: builds a registry on a workspace and
 * Writes `<mebibytes>` MiB to one file, over and over, until it is killed.
 *
 * argv: <workdir> <file> <mebibytes>
 */
import { createToolRegistry } from "@agent-tools/core";
import { createFsToolBundle } from "../fs-tool-bundle.js";

const [workdir, file, mebibytes] = process.argv.slice(2);
const registry = createToolRegistry({ workdir: workdir!, bundles: [createFsToolBundle()], loopBreaker: false });
const line = `${"x".repeat(1023)}\n`;
let round = 0;
process.stdout.write("started\n");
for (;;) {
  const content = `round ${round++}\n${line.repeat(Number(mebibytes) * 1024)}`;
  // Delete first so that Write never needs a full read of the previous round.
  await registry.executeToolCall({ id: `d${round}`, name: "Delete", arguments: { path: file } });
  await registry.executeToolCall({ id: `w${round}`, name: "Write", arguments: { path: file, content } });
}
