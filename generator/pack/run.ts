// `mcp-gen pack`: the shipping artifacts of a server. The entry bundled into one JavaScript
// file inside an .mcpb bundle (MCP Bundle: a zip with manifest.json, which desktop hosts
// install in one click), and/or server.json for the MCP Registry. Everything is checked
// before anything is written; each file is replaced atomically, and only when it changed.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import {
  err,
  formatDiagnostic,
  isWarning,
  jsonDiagnostic,
  out,
  sortDiagnostics,
  type Diagnostic,
} from "../diagnostics.js";
import { loadModel } from "../pipeline.js";
import { replaceFile } from "../write.js";
import { bundleEntry } from "./bundle-entry.js";
import { bundledEntry, bundleRequirements, mcpbManifest } from "./mcpb-manifest.js";
import { readProjectPackage, type ProjectPackage } from "./project.js";
import { serverJson } from "./server-json.js";
import { zip } from "./zip.js";

export interface PackArgs {
  readonly manifest: string;
  /** Output folder; default dist/ beside the manifest. */
  readonly out?: string | undefined;
  /** The server's entry; default src/main.ts beside the manifest. */
  readonly entry?: string | undefined;
  /** Write the .mcpb bundle. */
  readonly mcpb: boolean;
  /** Write server.json (implied by remote and mcpbUrl). */
  readonly serverJson: boolean;
  readonly remote?: string | undefined;
  readonly mcpbUrl?: string | undefined;
  readonly quiet: boolean;
  readonly json: boolean;
}

interface Written {
  readonly path: string;
  readonly status: "written" | "unchanged";
  readonly bytes: number;
  readonly sha256: string;
}

/** The file name of a bundle: name and version, with anything a file system may refuse replaced. */
export const bundleFileName = (name: string, version: string): string =>
  `${`${name}-${version}`.replace(/[^A-Za-z0-9._-]+/g, "-")}.mcpb`;

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");
const shown = (path: string) => relative(process.cwd(), path).split("\\").join("/") || path;

/** The project's package.json, if it has one. */
function readPackage(pkgFile: string): { pkg?: ProjectPackage; diagnostics: Diagnostic[] } {
  let text: string;
  try {
    text = readFileSync(pkgFile, "utf8");
  } catch {
    return { diagnostics: [] };
  }
  try {
    return { pkg: readProjectPackage(JSON.parse(text)), diagnostics: [] };
  } catch (error) {
    return {
      diagnostics: [{ location: { file: shown(pkgFile) }, message: `is not JSON (${(error as Error).message})` }],
    };
  }
}

export async function runPack(args: PackArgs): Promise<number> {
  const report = (ok: boolean, diagnostics: readonly Diagnostic[], files: readonly Written[] = []) => {
    if (args.json) out(JSON.stringify({ ok, files, diagnostics: diagnostics.map(jsonDiagnostic) }, null, 2));
    else for (const diagnostic of diagnostics) err(formatDiagnostic(diagnostic));
    return ok ? 0 : 1;
  };
  const loaded = loadModel({ manifest: args.manifest });
  if (!loaded.ok) return report(false, loaded.diagnostics);
  const { model, positions, warnings } = loaded;
  const root = dirname(loaded.absolute);
  const entry = args.entry === undefined ? join(root, "src", "main.ts") : resolve(args.entry);
  const outDir = args.out === undefined ? join(root, "dist") : resolve(args.out);
  const writeServerJson = args.serverJson || args.remote !== undefined || args.mcpbUrl !== undefined;

  const pkgFile = join(root, "package.json");
  const { pkg, diagnostics } = readPackage(pkgFile);
  // What the manifest and package.json lack is reported before the entry is bundled.
  const bundleManifest = args.mcpb ? mcpbManifest({ model, positions, pkg, pkgFile: shown(pkgFile) }) : undefined;
  if (bundleManifest?.ok === false) diagnostics.push(...bundleManifest.diagnostics);
  if (bundleManifest === undefined) diagnostics.push(...bundleRequirements(model, positions));
  if (!existsSync(entry)) {
    const hint = args.entry === undefined ? "; pass --entry with the file that starts the server" : "";
    diagnostics.push({ location: { file: shown(entry) }, message: `no such file: the server's entry${hint}` });
  }
  if (diagnostics.length > 0) return report(false, [...warnings, ...sortDiagnostics(diagnostics)]);
  const bundled = await bundleEntry(entry, root, shown);
  if (!bundled.ok) return report(false, [...warnings, ...bundled.diagnostics]);
  const { code, servesStdio } = bundled.bundle;

  const outputs = new Map<string, Uint8Array>();
  let mcpb: { url: string; sha256: string } | undefined;
  if (bundleManifest?.ok) {
    if (!servesStdio) {
      diagnostics.push({
        location: { file: shown(entry) },
        message:
          "never serves stdio (serveStdio from @mcp-gen/runtime/node), so it cannot be an .mcpb bundle: hosts run a bundled server as a child process and speak MCP over its stdin and stdout. " +
          "Serve stdio from this entry or pass another --entry; for a server deployed over HTTP, write only server.json with --no-mcpb --remote <url>",
      });
    } else {
      const files = new Map(bundleManifest.files);
      files.set("manifest.json", Buffer.from(`${JSON.stringify(bundleManifest.manifest, null, 2)}\n`));
      files.set(bundledEntry, code);
      const archive = zip(files);
      outputs.set(bundleFileName(model.info.name, model.info.version), archive);
      if (args.mcpbUrl !== undefined) mcpb = { url: args.mcpbUrl, sha256: sha256(archive) };
    }
  }
  if (writeServerJson && diagnostics.length === 0) {
    const built = serverJson({
      model,
      positions,
      pkg,
      pkgFile: shown(pkgFile),
      servesStdio,
      remoteUrl: args.remote,
      mcpb,
    });
    if (!built.ok) diagnostics.push(...built.diagnostics);
    else outputs.set("server.json", Buffer.from(`${JSON.stringify(built.serverJson, null, 2)}\n`));
  }
  if (diagnostics.length > 0) return report(false, [...warnings, ...sortDiagnostics(diagnostics)]);

  const written: Written[] = [];
  try {
    writeOutputs(outDir, outputs, written);
  } catch (error) {
    // A file-system error (a file where the folder should be, permissions, a full disk).
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    return report(
      false,
      [
        {
          location: { file: shown(outDir) },
          message: `cannot write the output folder (${code}: ${(error as Error).message})`,
        },
      ],
      written,
    );
  }
  if (args.json) return report(true, warnings, written);
  for (const warning of warnings.filter(isWarning)) err(formatDiagnostic(warning));
  if (!args.quiet) for (const file of written) out(writtenLine(file));
  return 0;
}

/** Writes each output into `outDir` unless it holds those bytes already, recording each in `written` as it goes (a file-system error throws). */
function writeOutputs(outDir: string, outputs: ReadonlyMap<string, Uint8Array>, written: Written[]): void {
  mkdirSync(outDir, { recursive: true });
  for (const [name, data] of outputs) {
    const target = join(outDir, name);
    let same = false;
    try {
      same = Buffer.from(readFileSync(target)).equals(Buffer.from(data));
    } catch {
      // not written yet
    }
    if (!same) replaceFile(target, data);
    written.push({
      path: shown(target),
      status: same ? "unchanged" : "written",
      bytes: data.length,
      sha256: sha256(data),
    });
  }
}

function writtenLine(file: Written): string {
  const size = file.bytes >= 1024 ? `${Math.round(file.bytes / 1024)} kB` : `${file.bytes} bytes`;
  return `mcp-gen: ${file.status === "written" ? "wrote" : "already up to date:"} ${file.path} (${size}, sha256 ${file.sha256})`;
}
