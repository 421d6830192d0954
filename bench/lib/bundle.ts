// Bundling servers with esbuild: every implementation runs as one pre-built file under
// plain node (no tsx in the measured process, so its pid is the server and cold start
// is the server's), and the minified size of a minimal server is one of the measures.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

// CommonJS dependencies bundled into an ES module still call require() for built-ins.
const requireShim = `import { createRequire as __benchCreateRequire } from "node:module"; const require = __benchCreateRequire(import.meta.url);`;

/** Bundles `entry` (and everything it imports) into one ES module that plain node runs. */
export async function bundle(entry: string, outfile: string, minify = false): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    minify,
    legalComments: "none",
    // Only for running: a size measure is built without it (nothing runs that bundle).
    ...(minify ? {} : { banner: { js: requireShim } }),
    logLevel: "error",
  });
}

export interface BundleSize {
  readonly minified: number;
  readonly gzipped: number;
}

/** Minified and gzipped (level 9) size of the bundle of `entry`, in bytes. */
export async function bundleSize(entry: string, outfile: string): Promise<BundleSize> {
  await bundle(entry, outfile, true);
  const bytes = readFileSync(outfile);
  return { minified: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length };
}
