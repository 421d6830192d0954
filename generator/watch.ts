// `mcp-gen --watch`: runs the generator again whenever one of the files the last run read
// changes (the manifest, referenced schema files, app pages, protocol schemas), until SIGINT
// or SIGTERM. What a run does and prints is the caller's; this module only decides when.
//
// It watches the folders that hold the inputs, not the files: editors save by writing a
// temp file and renaming it over the original, which ends a watch on the file itself but
// shows up as a "rename" of that name in its folder. A folder watch is not recursive, so
// the output folder's own writes never reach it unless an input lives there too.
import { statSync, watch as watchFolder, type FSWatcher } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

export interface WatchRun {
  /** Absolute paths whose change should trigger the next run (re-read after every run: a manifest edit can add or drop schema files). */
  readonly inputs: readonly string[];
  /** A failed run may not know all its inputs: the ones earlier runs read stay watched too. */
  readonly failed: boolean;
}

export interface WatchOptions {
  /** One generate run; `changed` lists the inputs that changed since the last run (empty for the first). Must not throw for user errors. */
  readonly run: (changed: readonly string[]) => Promise<WatchRun>;
  /** Watched from the start (the manifest), so that a save during the first run is seen too. */
  readonly initialInputs?: readonly string[] | undefined;
  /** How long to wait after the last change before running, so one save (or a burst of them) gives one run. */
  readonly debounceMs?: number | undefined;
  /** Called once the watchers are set up after each run, with the folders watched (for a hint on a terminal). */
  readonly onWatching?: ((inputs: readonly string[], folders: readonly string[]) => void) | undefined;
  /** Reports a folder that cannot be watched (removed, no permission); the next run tries again. */
  readonly onWatchError?: ((folder: string, error: Error) => void) | undefined;
  /** Ends the loop when aborted; without one, SIGINT and SIGTERM end it. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Runs `options.run` once, then again after each change of its inputs, until stopped.
 * Changes that arrive during a run are collected and give exactly one more run after it.
 * Resolves once stopped and any run in progress has finished (its writes are atomic).
 * A run that throws (a bug: user errors are results) stops the watch, which rejects with its error.
 */
export async function watchInputs(options: WatchOptions): Promise<void> {
  if (options.signal?.aborted) return;
  const loop = new WatchLoop(options);
  loop.start();
  await loop.done;
}

/** The state of one watch: the inputs, their folders' watchers, the changes waiting for a run. */
class WatchLoop {
  readonly done: Promise<void>;
  private readonly debounceMs: number;
  private readonly watchers = new Map<string, FSWatcher>();
  private inputs: Set<string>;
  private readonly changed = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = false;
  private failure: { error: unknown } | undefined;
  private finish!: () => void;
  private fail!: (error: unknown) => void;

  constructor(private readonly options: WatchOptions) {
    this.debounceMs = options.debounceMs ?? 100;
    this.inputs = new Set((options.initialInputs ?? []).map((path) => resolve(path)));
    this.done = new Promise<void>((resolveDone, rejectDone) => {
      this.finish = resolveDone;
      this.fail = rejectDone;
    });
  }

  start(): void {
    if (this.options.signal) {
      this.options.signal.addEventListener("abort", this.stop, { once: true });
    } else {
      process.on("SIGINT", this.stop);
      process.on("SIGTERM", this.stop);
    }
    this.syncWatchers(false);
    void this.runNow();
  }

  /** Runs once the inputs have been quiet for the debounce time; during a run the changes wait, and its end schedules the next one. */
  private schedule(): void {
    if (this.stopped) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.running) void this.runNow();
    }, this.debounceMs);
  }

  private onEvent(folder: string, name: string | Buffer | null): void {
    // Without a name (some platforms, some events) anything in the folder may have changed.
    const candidates = name === null ? this.inputsIn(folder) : [join(folder, name.toString())];
    let relevant = false;
    for (const path of candidates) {
      if (!this.inputs.has(path)) continue;
      this.changed.add(path);
      relevant = true;
    }
    if (relevant) this.schedule();
  }

  private inputsIn(folder: string): string[] {
    return [...this.inputs].filter((path) => dirname(path) === folder);
  }

  /** Watches exactly the folders of the current inputs: new ones are added, unneeded ones closed, broken ones retried. */
  private syncWatchers(announce = true): void {
    const folders = new Set([...this.inputs].map((path) => dirname(path)));
    for (const [folder, watcher] of this.watchers) {
      if (folders.has(folder)) continue;
      watcher.close();
      this.watchers.delete(folder);
    }
    for (const folder of folders) if (!this.watchers.has(folder)) this.watchFolder(folder);
    if (announce) this.options.onWatching?.([...this.inputs].sort(), [...this.watchers.keys()].sort());
  }

  private watchFolder(folder: string): void {
    try {
      const watcher = watchFolder(folder, { persistent: true }, (_event, name) => this.onEvent(folder, name));
      watcher.on("error", (error) => {
        // The folder went away (or similar): drop the watcher; the next run sets it up again.
        watcher.close();
        if (this.watchers.get(folder) === watcher) this.watchers.delete(folder);
        this.options.onWatchError?.(folder, error);
        for (const path of this.inputsIn(folder)) this.changed.add(path);
        this.schedule();
      });
      this.watchers.set(folder, watcher);
    } catch (error) {
      this.options.onWatchError?.(folder, error as Error);
    }
  }

  private async runNow(): Promise<void> {
    this.running = true;
    const startedAt = Date.now();
    const these = [...this.changed].sort();
    this.changed.clear();
    try {
      const result = await this.options.run(these);
      // A failed run stops early and knows only some of its inputs (say, the manifest when it
      // does not parse): keep watching what earlier runs read, so fixing any of them runs again.
      const read = result.inputs.map((path) => resolve(path));
      this.inputs = new Set(result.failed ? [...this.inputs, ...read] : read);
    } catch (error) {
      this.failure = { error };
      this.stop();
    } finally {
      this.running = false;
    }
    if (this.stopped) {
      this.settle();
      return;
    }
    this.syncWatchers();
    // A file saved during the run in a folder that was not watched yet raised no event (a
    // schema the manifest names for the first time, or one that did not exist): its time
    // tells. File times lag the clock by a few milliseconds at most, never lead it, so a file
    // saved before the run never counts.
    for (const path of this.inputs) if (modifiedSince(path, startedAt)) this.changed.add(path);
    if (this.changed.size > 0) this.schedule();
  }

  private readonly stop = (): void => {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    this.options.signal?.removeEventListener("abort", this.stop);
    process.off("SIGINT", this.stop);
    process.off("SIGTERM", this.stop);
    if (!this.running) this.settle();
  };

  private settle(): void {
    if (this.failure === undefined) this.finish();
    else this.fail(this.failure.error);
  }
}

function modifiedSince(path: string, time: number): boolean {
  try {
    return statSync(path).mtimeMs >= time;
  } catch {
    return false; // not there (yet): its folder's watcher reports it
  }
}

/** `mcp.yaml, schemas/a.json and 2 more`: the changed files as a status line names them (`display` shortens each, base name by default). */
export function describeChanges(
  changed: readonly string[],
  display: (path: string) => string = (path) => basename(path),
): string {
  if (changed.length === 0) return "";
  const shown = changed.slice(0, 3).map((path) => display(path));
  return changed.length > 3 ? `${shown.join(", ")} and ${changed.length - 3} more` : shown.join(", ");
}
