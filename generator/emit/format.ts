// Transitional: only the protocol emitter (rewritten in another branch) still calls this. Delete once that branch merges.
// Formats generated TypeScript with prettier: each file's small body (a few declarations
// around the per-tool code) and the units the emitters could not write in prettier's
// layout themselves (generator/emit/layout/ does that for per-tool code). Results are
// cached by text, prettier version and options, so regenerating a project whose small
// declarations did not change never loads prettier (most of a second with its TypeScript
// parser).
import { cacheKey, diskCached, packageIdentity } from "../disk-cache.js";

export const prettierOptions = { parser: "typescript", printWidth: 100, trailingComma: "all", endOfLine: "lf" } as const;

let formatter: Promise<typeof import("prettier")> | undefined;
let identity: (string | Uint8Array)[] | undefined;

/** Texts up to this size are cached: the declarations around per-tool code, not whole files. */
const cachedUpTo = 64 * 1024;

export function formatTypeScript(text: string): Promise<string> {
  const format = async () => (await (formatter ??= import("prettier"))).format(text, prettierOptions);
  if (text.length > cachedUpTo) return format();
  identity ??= [packageIdentity("prettier"), JSON.stringify(prettierOptions)];
  return diskCached("formatted", cacheKey([...identity, text]), format);
}
