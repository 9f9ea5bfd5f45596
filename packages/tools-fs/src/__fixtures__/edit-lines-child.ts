/**
 * A second process for the concurrency tests: builds its own registry on a
 * workspace and edits the given lines of one file, all at once, each line
 * `line-<n>: old` -> `line-<n>: <tag>`. Prints the lines whose Edit reported
 * success as JSON.
 *
 * argv: <workdir> <file> <tag> <first line> <count> [<start at epoch ms>]
 */
import { createToolRegistry } from "@agent-tools/core";
import { createFsToolBundle } from "../fs-tool-bundle.js";
import { editLines } from "./edit-lines.js";

const [workdir, file, tag, first, count, startAt] = process.argv.slice(2);
const registry = createToolRegistry({ workdir: workdir!, bundles: [createFsToolBundle()], loopBreaker: false });
const wait = Number(startAt ?? 0) - Date.now();
if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
const lines = Array.from({ length: Number(count) }, (_, index) => Number(first) + index);
const succeeded = await editLines(registry, file!, tag!, lines);
await registry.close();
process.stdout.write(JSON.stringify(succeeded));
