// Starts a TypeScript worker module when the package runs from its sources
// (tests, tsx): registers tsx in this thread, then imports the module named
// in workerData. Never used from dist, where the worker's .js file starts directly.
import { workerData } from "node:worker_threads";

const { register } = await import("tsx/esm/api");
register();
await import(workerData.sourceWorkerModule);
