// The Chromium every browser test drives (through playwright-core), chosen in one place:
// a system Chromium when there is one ($CHROMIUM_PATH, else /usr/bin/chromium, else
// `chromium` on PATH), else the one the devDependency @sparticuz/chromium ships inside its
// npm package, so that `npm ci && npm test` passes on a machine with Node alone.
// MCP_GEN_TEST_BROWSER=bundled skips the system lookup (CI runs the browser tests once so),
// MCP_GEN_TEST_BROWSER=system refuses to fall back.
import { execFile } from "node:child_process";
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";
import { promisify } from "node:util";
import Bundled from "@sparticuz/chromium";
import { chromium, type Browser } from "playwright-core";
import { repoRoot } from "./paths.js";

/**
 * Flags for a browser on a closed network, whatever its origin. --no-sandbox: Chromium
 * refuses its process sandbox as root (CI containers); the iframe sandbox is unaffected.
 * Each launch gets a fresh profile: playwright's launch() makes a temporary --user-data-dir.
 */
const closedNetworkArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * What @sparticuz/chromium recommends for serverless platforms, less the flags that switch
 * off the browser security the tests observe (CORS, site isolation, mixed content), and
 * --single-process, which Lambda needs and playwright's several pages do not get along with.
 */
const leftOut = [
  "--disable-web-security",
  "--allow-running-insecure-content",
  "--disable-site-isolation-trials",
  "--disable-features=",
  "--single-process",
  "--headless",
];
const bundledArgs = Bundled.args.filter((arg) => !leftOut.some((flag) => arg.startsWith(flag)));

const isExecutable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The system Chromium, or undefined when there is none (or the bundled one is asked for). */
function systemChromium(): string | undefined {
  const wanted = process.env.MCP_GEN_TEST_BROWSER;
  if (wanted !== undefined && wanted !== "" && wanted !== "system" && wanted !== "bundled") {
    throw new Error(`MCP_GEN_TEST_BROWSER=${wanted}: expected "system" or "bundled"`);
  }
  if (wanted === "bundled") return undefined;
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    if (!isExecutable(configured)) throw new Error(`CHROMIUM_PATH=${configured} is not an executable file`);
    return configured;
  }
  const found = [
    "/usr/bin/chromium",
    ...(process.env.PATH ?? "")
      .split(delimiter)
      .filter(Boolean)
      .map((dir) => join(dir, "chromium")),
  ].find(isExecutable);
  if (!found && wanted === "system")
    throw new Error("MCP_GEN_TEST_BROWSER=system: no Chromium at $CHROMIUM_PATH, /usr/bin/chromium or on PATH");
  return found;
}

/**
 * The bundled Chromium, inflated once per version into node_modules/.cache. The package
 * inflates into os.tmpdir(), so a child process does it with TMPDIR set to a private staging
 * folder, which is then renamed into place: parallel test files never see half a binary.
 */
async function bundledChromium(): Promise<{ executable: string; fontconfig: string }> {
  const packageJson = join(
    dirname(createRequire(import.meta.url).resolve("@sparticuz/chromium")),
    "..",
    "package.json",
  );
  const { version } = JSON.parse(readFileSync(packageJson, "utf8")) as { version: string };
  const cacheRoot = join(repoRoot, "node_modules", ".cache", "mcp-gen-chromium");
  const folder = join(cacheRoot, version);
  const files = { executable: join(folder, "chromium"), fontconfig: join(folder, "fonts.conf") };
  if (existsSync(folder)) return files;
  mkdirSync(cacheRoot, { recursive: true });
  const staging = mkdtempSync(join(cacheRoot, "staging-"));
  try {
    const inflate = "const { default: c } = await import('@sparticuz/chromium'); await c.executablePath();";
    await promisify(execFile)(process.execPath, ["--input-type=module", "-e", inflate], {
      cwd: repoRoot,
      env: { ...process.env, TMPDIR: staging },
    });
    // The package's own fonts.conf names /tmp/fonts; this one adds the system's fonts, if any.
    writeFileSync(
      join(staging, "fonts.conf"),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n  <dir>${join(folder, "fonts", "fonts")}</dir>\n  <cachedir>${join(folder, "fonts-cache")}</cachedir>\n</fontconfig>\n`,
    );
    renameSync(staging, folder);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // Another test file inflated it first.
    if (!existsSync(folder)) throw error;
  }
  return files;
}

/** Launches the chosen Chromium headless with the closed-network flags and `args`. */
export async function launchChromium(args: readonly string[] = []): Promise<Browser> {
  const system = systemChromium();
  if (system) return chromium.launch({ executablePath: system, args: [...closedNetworkArgs, ...args] });
  const bundled = await bundledChromium();
  return chromium.launch({
    executablePath: bundled.executable,
    args: [...bundledArgs, ...closedNetworkArgs, ...args],
    env: { ...process.env, FONTCONFIG_FILE: bundled.fontconfig },
  });
}
