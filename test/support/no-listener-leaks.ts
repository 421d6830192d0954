// Setup file of every test run (vitest.config.ts, vitest.scale-out.config.ts): a listener
// leak shows as Node's MaxListenersExceededWarning, printed once and easy to miss in a run's
// output. Here it fails the test during which it was raised. Servers that tests spawn are
// other processes: test/e2e/listener-leaks.test.ts watches their stderr.
import { afterEach } from "vitest";

const leaks: string[] = [];

process.on("warning", (warning) => {
  if (warning.name === "MaxListenersExceededWarning") leaks.push(warning.stack ?? warning.message);
});

afterEach(async () => {
  // Node emits warnings on a later tick than the one that caused them.
  await new Promise((resolve) => setImmediate(resolve));
  const raised = leaks.splice(0);
  if (raised.length > 0) throw new Error(`MaxListenersExceededWarning (a listener leak):\n${raised.join("\n")}`);
});
