// The weather example with its MCP App, generated fresh into a temporary copy: the apps
// tests exercise what the generator makes of `apps:` and `ui:` today, not the checked-in
// generated tree.
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { formatLocation } from "../../generator/diagnostics.js";
import { generateManifest, tempProject } from "./generate.js";
import { repoRoot } from "./paths.js";

export const weatherExample = join(repoRoot, "examples", "weather");
/** The panel's HTML as checked in (built by examples/weather/ui/build.ts). */
export const forecastPanelHtml = join(weatherExample, "ui", "forecast.html");

/**
 * Copies the weather example (without its generated code) into a temporary project,
 * generates it, and returns the copy's entry point (src/main.ts) and folder (to remove).
 */
export async function generatedWeatherWithApps(): Promise<{ main: string; dir: string }> {
  const dir = tempProject();
  for (const part of ["mcp.yaml", "schemas", "ui", "src"])
    cpSync(join(weatherExample, part), join(dir, part), { recursive: true });
  rmSync(join(dir, "src", "mcp"), { recursive: true, force: true });
  const result = await generateManifest(join(dir, "mcp.yaml"));
  if (!result.ok)
    throw new Error(
      `generation failed:\n${result.diagnostics.map((d) => `${formatLocation(d.location)}: ${d.message}`).join("\n")}`,
    );
  for (const [path, text] of result.generated.files) {
    const target = join(result.generated.outDir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  return { main: join(dir, "src", "main.ts"), dir };
}
