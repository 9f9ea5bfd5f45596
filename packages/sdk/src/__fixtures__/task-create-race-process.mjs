// One racer of the first-migration race. Run two copies as
//   node --import tsx --conditions=@agent-tools/source task-create-race-process.mjs <workdir> <dataDirs-json> <startAtEpochMs> <slotMs>
// For trial i each copy waits until startAt + i * slotMs, builds the built-in
// registry on dataDirs[i] (fresh, shared with the other copy) and calls
// TaskCreate in a conversation of its own, so both copies hit the task database's first migration at once.
// Prints one JSON line: { pid, errors: [text of every error result] }.
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";

const [workdir, dataDirsJson, startAt, slotMs] = process.argv.slice(2);
const dataDirs = JSON.parse(dataDirsJson);
const errors = [];
for (const [index, dataDir] of dataDirs.entries()) {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) + index * Number(slotMs) - Date.now())));
  const registry = await buildBuiltinToolRegistry({ workdir, dataDir, runtimeScope: "chat", tasks: { run: { conversationId: `pid-${process.pid}` } } });
  try {
    const result = await registry.executeToolCall({
      id: `race_${index}`,
      name: "TaskCreate",
      arguments: { subject: `From ${process.pid}`, description: "racing", activeForm: "Racing" },
    });
    if (result.isError) errors.push(result.content.map((block) => block.text ?? "").join(""));
  } finally {
    await registry.close();
  }
}
process.stdout.write(`${JSON.stringify({ pid: process.pid, errors })}\n`);
