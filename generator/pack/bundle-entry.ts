// Compiles the server's entry (TypeScript or JavaScript) and everything it imports into one
// ES module with esbuild: no node_modules in the bundle, Node built-ins stay imports. Also
// tells whether the entry serves stdio, from whether the runtime's stdio transport made it
// into the output (the runtime has no side effects, so an unused transport is left out).
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Diagnostic } from "../diagnostics.js";

export interface BundledEntry {
  readonly code: Uint8Array;
  readonly servesStdio: boolean;
}

export type BundleResult = { ok: true; bundle: BundledEntry } | { ok: false; diagnostics: Diagnostic[] };

// Packages written as CommonJS call require(), which an ES module does not have: give it one.
const banner =
  'import { createRequire as __mcpgenCreateRequire } from "node:module";\nconst require = __mcpgenCreateRequire(import.meta.url);';

/** The nearest package.json's name above `file`. */
function packageNameOf(file: string): string | undefined {
  for (let dir = dirname(file); dirname(dir) !== dir; dir = dirname(dir)) {
    try {
      return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string }).name;
    } catch {
      // no package.json at this level
    }
  }
  return undefined;
}

/**
 * `entry` (absolute) bundled for Node 20; `root` is the project folder, which the bundle's
 * file comments are relative to, so the bytes do not depend on where the project lies.
 */
export async function bundleEntry(
  entry: string,
  root: string,
  display: (absolute: string) => string,
): Promise<BundleResult> {
  // An optional peer dependency: installing mcp-gen runs no install script (esbuild has one).
  let build: typeof import("esbuild").build;
  try {
    ({ build } = await import("esbuild"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND") throw error;
    return {
      ok: false,
      diagnostics: [
        {
          location: { file: display(entry) },
          message: "mcp-gen pack bundles the server with esbuild, which is not installed: npm install -D esbuild",
        },
      ],
    };
  }
  const outfile = join(root, "server", "index.mjs");
  let result: Awaited<ReturnType<typeof build>>;
  try {
    result = await build({
      entryPoints: [entry],
      absWorkingDir: root,
      outfile,
      write: false,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      banner: { js: banner },
      metafile: true,
      logLevel: "silent",
      legalComments: "eof",
      charset: "utf8",
    });
  } catch (error) {
    const messages = (
      error as { errors?: { text: string; location: { file: string; line: number; column: number } | null }[] }
    ).errors;
    if (messages === undefined) throw error;
    return {
      ok: false,
      diagnostics: messages.map(({ text, location }) => ({
        location:
          location === null
            ? { file: display(entry) }
            : { file: display(resolve(root, location.file)), line: location.line, col: location.column + 1 },
        message: `cannot bundle the server's entry: ${text}`,
      })),
    };
  }
  const output = result.outputFiles![0]!;
  const inputs = Object.values(result.metafile!.outputs)[0]?.inputs ?? {};
  const servesStdio = Object.entries(inputs).some(
    ([path, { bytesInOutput }]) =>
      bytesInOutput > 0 &&
      /(^|\/)transport\/stdio\.[jt]s$/.test(path) &&
      packageNameOf(resolve(root, path)) === "@mcp-gen/runtime",
  );
  return { ok: true, bundle: { code: output.contents, servesStdio } };
}
