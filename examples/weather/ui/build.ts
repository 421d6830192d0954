// Builds forecast.html: panel.html with forecast.ts and the ext-apps library it imports
// bundled into one inline script. Apps run in a sandboxed iframe without network access,
// so the page must carry everything it runs. Deterministic: the same sources give the
// same bytes (forecast.html is checked in; a test rebuilds it and compares).
//   node --import tsx examples/weather/ui/build.ts [--out <file>]
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));

/** The page's HTML text. */
export async function buildForecastPanel(): Promise<string> {
  const bundled = await build({
    entryPoints: [join(here, "forecast.ts")],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    logLevel: "silent",
  });
  // An inline script ends at the first "</script", wherever it appears.
  const script = bundled.outputFiles[0]!.text.trimEnd().replaceAll("</script", "<\\/script");
  const shell = readFileSync(join(here, "panel.html"), "utf8");
  const tag = '<script src="./forecast.ts"></script>';
  if (!shell.includes(tag)) throw new Error(`panel.html must contain ${tag}`);
  return shell.replace(tag, () => `<script>${script}</script>`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf("--out");
  const out = at >= 0 ? resolve(process.argv[at + 1]!) : join(here, "forecast.html");
  writeFileSync(out, await buildForecastPanel());
}
