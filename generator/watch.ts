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
 */
export async function watchInputs(options: WatchOptions): Promise<void> {
  const debounceMs = options.debounceMs ?? 100;
  const watchers = new Map<string, FSWatcher>();
  let inputs = new Set((options.initialInputs ?? []).map((path) => resolve(path)));
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let stopped = false;
  let finish!: () => void;
  const done = new Promise<void>((resolveDone) => (finish = resolveDone));

  const schedule = () => {
    if (stopped) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      // During a run the changes wait; the run's end schedules the next one.
      if (!running) void runNow();
    }, debounceMs);
  };

  const onEvent = (folder: string, name: string | Buffer | null) => {
    // Without a name (some platforms, some events) anything in the folder may have changed.
    const candidates = name === null ? [...inputs].filter((path) => dirname(path) === folder) : [join(folder, name.toString())];
    let relevant = false;
    for (const path of candidates) {
      if (!inputs.has(path)) continue;
      changed.add(path);
      relevant = true;
    }
    if (relevant) schedule();
  };

  /** Watches exactly the folders of the current inputs: new ones are added, unneeded ones closed, broken ones retried. */
  const syncWatchers = (announce = true) => {
    const folders = new Set([...inputs].map((path) => dirname(path)));
    for (const [folder, watcher] of watchers) {
      if (folders.has(folder)) continue;
      watcher.close();
      watchers.delete(folder);
    }
    for (const folder of folders) {
      if (watchers.has(folder)) continue;
      try {
        const watcher = watchFolder(folder, { persistent: true }, (_event, name) => onEvent(folder, name));
        watcher.on("error", (error) => {
          // The folder went away (or similar): drop the watcher; the next run sets it up again.
          watcher.close();
          if (watchers.get(folder) === watcher) watchers.delete(folder);
          options.onWatchError?.(folder, error);
          for (const path of inputs) if (dirname(path) === folder) changed.add(path);
          schedule();
        });
        watchers.set(folder, watcher);
      } catch (error) {
        options.onWatchError?.(folder, error as Error);
      }
    }
    if (announce) options.onWatching?.([...inputs].sort(), [...watchers.keys()].sort());
  };

  const runNow = async () => {
    running = true;
    const startedAt = Date.now();
    const these = [...changed].sort();
    changed.clear();
    try {
      const result = await options.run(these);
      // A failed run stops early and knows only some of its inputs (say, the manifest when it
      // does not parse): keep watching what earlier runs read, so fixing any of them runs again.
      const read = result.inputs.map((path) => resolve(path));
      inputs = new Set(result.failed ? [...inputs, ...read] : read);
    } finally {
      running = false;
    }
    if (stopped) {
      finish();
      return;
    }
    syncWatchers();
    // A file saved during the run in a folder that was not watched yet raised no event (a
    // schema the manifest names for the first time, or one that did not exist): its time
    // tells. File times lag the clock by a few milliseconds at most, never lead it, so a file
    // saved before the run never counts.
    for (const path of inputs) if (modifiedSince(path, startedAt)) changed.add(path);
    if (changed.size > 0) schedule();
  };

  const stop = () => {
    if (stopped) return;
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    if (!running) finish();
  };
  if (options.signal) {
    if (options.signal.aborted) return;
    options.signal.addEventListener("abort", stop, { once: true });
  } else {
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  }

  syncWatchers(false);
  await runNow();
  await done;
}

function modifiedSince(path: string, time: number): boolean {
  try {
    return statSync(path).mtimeMs >= time;
  } catch {
    return false; // not there (yet): its folder's watcher reports it
  }
}

/** `mcp.yaml, schemas/a.json and 2 more`: the changed files as a status line names them (`display` shortens each, base name by default). */
export function describeChanges(changed: readonly string[], display: (path: string) => string = (path) => basename(path)): string {
  if (changed.length === 0) return "";
  const shown = changed.slice(0, 3).map((path) => display(path));
  return changed.length > 3 ? `${shown.join(", ")} and ${changed.length - 3} more` : shown.join(", ");
}
