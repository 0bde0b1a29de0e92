// pdf/renderPool.ts's real render thread, except that while the shared counter in `workerData`
// is above zero a thread dies (exit code 7) on the request it receives, taking one off the count:
// a thread crashing mid-render, as an out-of-memory or a native fault in pdfkit would end it.
import { parentPort, workerData } from "node:worker_threads";

const crashes = new Int32Array(workerData as SharedArrayBuffer);
parentPort?.on("message", () => {
  if (Atomics.sub(crashes, 0, 1) > 0) process.exit(7);
});
await import("../../pdf/renderWorker.ts");
