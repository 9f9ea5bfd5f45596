// Times globby `**/*.ts` with `gitignore: true` in its own process (see glob-bench.ts):
// on the 20 copies it holds gigabytes of heap, which would stay under the rows measured after it.
// Usage: node globby-child.mjs <directory> <runs>; prints {"median": ms, "count": n}.
import { globby } from "globby";

const [directory, runsText] = process.argv.slice(2);
const runs = Number(runsText);
let count = 0;
const once = async () => {
  count = (await globby("**/*.ts", { cwd: directory, gitignore: true, dot: true })).length;
};
await once(); // warm-up
const times = [];
for (let index = 0; index < runs; index += 1) {
  const start = performance.now();
  await once();
  times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
process.stdout.write(JSON.stringify({ median: times[Math.floor(times.length / 2)], count }));
