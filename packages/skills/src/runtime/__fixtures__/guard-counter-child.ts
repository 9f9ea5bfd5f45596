// Increments a counter file `iterations` times under a SkillsWriteGuard, with a read-pause-write that loses
// updates unless the guard excludes other processes. Usage: guard-counter-child.ts <root> <iterations>
import fs from "node:fs/promises";
import path from "node:path";
import { SkillsWriteGuard } from "../skills-write-guard.js";

const [root, iterationsText] = process.argv.slice(2) as [string, string];
const guard = new SkillsWriteGuard(root);
const counter = path.join(root, "counter");
for (let index = 0; index < Number(iterationsText); index += 1) {
  await guard.run(async () => {
    const value = Number(await fs.readFile(counter, "utf8").catch(() => "0"));
    await new Promise((resolve) => setTimeout(resolve, 1));
    await fs.writeFile(counter, String(value + 1));
  });
}
