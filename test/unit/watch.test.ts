// The watch loop (generator/watch.ts) on its own: which changes start a run, how changes
// during a run coalesce, that the watched set follows what each run reports, and stopping.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { describeChanges, watchInputs, type WatchRun } from "../../generator/watch.js";

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-watch-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function until(ready: () => boolean, what: string, seconds = 10): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("watchInputs", () => {
  it("runs once at start, then once per burst of changes to an input, not for other files", async () => {
    const dir = tempDir();
    const input = join(dir, "mcp.yaml");
    writeFileSync(input, "a");
    const runs: (readonly string[])[] = [];
    const stop = new AbortController();
    const loop = watchInputs({
      run: async (changed) => {
        runs.push(changed);
        return { inputs: [input], failed: false };
      },
      debounceMs: 50,
      signal: stop.signal,
    });
    await until(() => runs.length === 1, "the first run");
    expect(runs[0]).toEqual([]);
    // A burst of saves within the debounce window is one run.
    writeFileSync(input, "b");
    writeFileSync(input, "c");
    writeFileSync(input, "d");
    await until(() => runs.length === 2, "the run after the burst");
    expect(runs[1]).toEqual([input]);
    writeFileSync(join(dir, "other.json"), "{}");
    await pause(400);
    expect(runs).toHaveLength(2);
    stop.abort();
    await loop;
  });

  it("collects changes made during a run into exactly one more run", async () => {
    const dir = tempDir();
    const first = join(dir, "a.json");
    const second = join(dir, "b.json");
    writeFileSync(first, "1");
    writeFileSync(second, "1");
    const runs: (readonly string[])[] = [];
    let release: (() => void) | undefined;
    const stop = new AbortController();
    const loop = watchInputs({
      run: async (changed) => {
        runs.push(changed);
        // The second run (the first caused by a change) is slow; both files change meanwhile.
        if (runs.length === 2) await new Promise<void>((resolve) => (release = resolve));
        return { inputs: [first, second], failed: false };
      },
      debounceMs: 30,
      signal: stop.signal,
    });
    await until(() => runs.length === 1, "the first run");
    writeFileSync(first, "2");
    await until(() => release !== undefined, "the slow run to start");
    writeFileSync(first, "3");
    writeFileSync(second, "3");
    await pause(300);
    expect(runs).toHaveLength(2);
    release!();
    await until(() => runs.length === 3, "the run after the slow one");
    expect(runs[2]).toEqual([first, second].sort());
    await pause(300);
    expect(runs).toHaveLength(3);
    stop.abort();
    await loop;
  });

  /** Runs `firstRun` inside the loop's first run; exactly one more run must follow, for `changed`. */
  async function expectOneRunAfter(
    firstRun: () => Promise<void>,
    reported: readonly string[],
    initialInputs: readonly string[],
    changed: string,
  ): Promise<void> {
    const runs: (readonly string[])[] = [];
    const stop = new AbortController();
    const loop = watchInputs({
      run: async (these) => {
        runs.push(these);
        if (runs.length === 1) await firstRun();
        return { inputs: reported, failed: false };
      },
      initialInputs,
      debounceMs: 50,
      signal: stop.signal,
    });
    await until(() => runs.length === 2, "the run after the save");
    expect(runs[1]).toEqual([changed]);
    await pause(400);
    expect(runs).toHaveLength(2);
    stop.abort();
    await loop;
  }

  it("sees a save during the first run in a file it was told to watch from the start", async () => {
    const input = join(tempDir(), "mcp.yaml");
    writeFileSync(input, "a");
    // The first run has read its input; the user saves before the run ends.
    await expectOneRunAfter(async () => writeFileSync(input, "b"), [input], [input], input);
  });

  it("sees a file written during a run in a folder not watched until that run ends", async () => {
    const dir = tempDir();
    const manifest = join(dir, "mcp.yaml");
    mkdirSync(join(dir, "schemas"));
    const schema = join(dir, "schemas", "later.json");
    writeFileSync(manifest, "a");
    // The first run names a schema that is missing; the user writes it before the run ends.
    const writeLater = async () => {
      await pause(30);
      writeFileSync(schema, "{}");
    };
    await expectOneRunAfter(writeLater, [manifest, schema], [manifest], schema);
  });

  it("follows the inputs each run reports, and keeps earlier ones after a failed run", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "schemas"));
    const manifest = join(dir, "mcp.yaml");
    const schema = join(dir, "schemas", "x.json");
    writeFileSync(manifest, "");
    writeFileSync(schema, "{}");
    const results: WatchRun[] = [
      { inputs: [manifest], failed: false },
      { inputs: [manifest, schema], failed: false },
      { inputs: [manifest], failed: true },
    ];
    const runs: (readonly string[])[] = [];
    const stop = new AbortController();
    const loop = watchInputs({
      run: async (changed) => {
        runs.push(changed);
        return results[Math.min(runs.length - 1, results.length - 1)]!;
      },
      debounceMs: 30,
      signal: stop.signal,
    });
    await until(() => runs.length === 1, "the first run");
    // Not an input yet: ignored.
    writeFileSync(schema, "{ }");
    await pause(300);
    expect(runs).toHaveLength(1);
    // The manifest now references the schema (the second run says so).
    writeFileSync(manifest, "x");
    await until(() => runs.length === 2, "the run after the manifest edit");
    writeFileSync(schema, "{  }");
    await until(() => runs.length === 3, "the run after the schema edit");
    expect(runs[2]).toEqual([schema]);
    // The third run failed and reported only the manifest: the schema stays watched.
    writeFileSync(schema, "{   }");
    await until(() => runs.length === 4, "the run after a failed one");
    expect(runs[3]).toEqual([schema]);
    stop.abort();
    await loop;
  });

  it("waits for a run in progress when stopped", async () => {
    const dir = tempDir();
    const input = join(dir, "mcp.yaml");
    writeFileSync(input, "");
    let finished = false;
    const stop = new AbortController();
    const loop = watchInputs({
      run: async () => {
        stop.abort();
        await pause(100);
        finished = true;
        return { inputs: [input], failed: false };
      },
      signal: stop.signal,
    });
    await loop;
    expect(finished).toBe(true);
  });

  it("stops and rejects with the error of a later run that throws, as of the first", async () => {
    const input = join(tempDir(), "mcp.yaml");
    writeFileSync(input, "a");
    let runs = 0;
    const loop = watchInputs({
      run: async () => {
        runs += 1;
        if (runs === 2) throw new Error("a bug in the run");
        return { inputs: [input], failed: false };
      },
      debounceMs: 30,
      signal: new AbortController().signal,
    });
    const outcome = loop.then(
      () => "resolved",
      (error: Error) => error.message,
    );
    await until(() => runs === 1, "the first run");
    writeFileSync(input, "b");
    // Without a stop, only the failed run can end the loop; its watchers are closed, so no third run.
    expect(await outcome).toBe("a bug in the run");
    writeFileSync(input, "c");
    await pause(200);
    expect(runs).toBe(2);
  });
});

describe("describeChanges", () => {
  it("names up to three files and counts the rest", () => {
    expect(describeChanges(["/p/a.yaml"])).toBe("a.yaml");
    expect(describeChanges(["/p/a", "/p/b", "/p/c", "/p/d", "/p/e"])).toBe("a, b, c and 2 more");
  });
});
