// `mcp-gen pull`: write a client manifest for a live server, or (--check) tell whether the
// checked-in one still matches what the server lists.
import { existsSync, readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { parse } from "yaml";
import { err, formatDiagnostic, out } from "../diagnostics.js";
import { knownRevisions } from "../load/revisions.js";
import { terminalProgress } from "../progress.js";
import { replaceFile } from "../write.js";
import { defaultLimits, PullError, readServer, type PullSource } from "./listing.js";
import { buildManifest, renderManifest, type PulledManifest } from "./manifest.js";

export interface PullArgs {
  readonly stdio?: string | undefined;
  readonly url?: string | undefined;
  /** Where the manifest goes (or, with check, where the checked-in one is). */
  readonly output: string;
  readonly check?: boolean | undefined;
  readonly timeout?: number | undefined;
  readonly schemaDir?: string | undefined;
  readonly quiet?: boolean | undefined;
  /** One JSON document on stdout instead of lines: what was written, or (with check) the differences. */
  readonly json?: boolean | undefined;
}

/** The sections --check compares, entry by entry. `output`, `protocol`, identifiers and comments are the user's. */
const comparedSections = ["tools", "resources", "resourceTemplates", "prompts"] as const;

/** The entries of a section without `identifier:`, which the user may choose freely. */
function withoutIdentifiers(section: unknown): Record<string, unknown> {
  if (typeof section !== "object" || section === null) return {};
  return Object.fromEntries(
    Object.entries(section).map(([key, value]) => {
      if (typeof value !== "object" || value === null) return [key, value];
      const { identifier: _chosen, ...rest } = value as Record<string, unknown>;
      return [key, rest];
    }),
  );
}

/** One line per difference between the checked-in manifest and the pulled one. */
export function manifestDrift(checkedIn: unknown, pulled: PulledManifest["document"]): string[] {
  const old = (typeof checkedIn === "object" && checkedIn !== null ? checkedIn : {}) as Record<string, unknown>;
  const drift: string[] = [];
  const oldServer = (old.server ?? {}) as Record<string, unknown>;
  const newServer = pulled.server as Record<string, unknown>;
  for (const field of new Set([...Object.keys(oldServer), ...Object.keys(newServer)])) {
    if (!isDeepStrictEqual(oldServer[field], newServer[field])) drift.push(`server.${field}: changed`);
  }
  for (const section of comparedSections) {
    const before = withoutIdentifiers(old[section]);
    const after = withoutIdentifiers(pulled[section]);
    for (const key of Object.keys(before))
      if (!(key in after)) drift.push(`${section}.${key}: no longer listed by the server`);
    for (const [key, value] of Object.entries(after)) {
      if (!(key in before)) drift.push(`${section}.${key}: new on the server`);
      else if (!isDeepStrictEqual(before[key], value)) {
        const fields = new Set([...Object.keys(before[key] ?? {}), ...Object.keys(value as object)]);
        const changed = [...fields].filter(
          (f) =>
            !isDeepStrictEqual(
              (before[key] as Record<string, unknown> | undefined)?.[f],
              (value as Record<string, unknown>)[f],
            ),
        );
        drift.push(`${section}.${key}: ${changed.join(", ")} changed`);
      }
    }
  }
  return drift;
}

/**
 * The pulled manifest with the `protocolSchemas:` of the manifest it replaces: the folder of
 * schemas pinned in the project is the user's setting, and the generate step after pulling
 * (and every later run) reads it, so a re-pull keeps an offline project generating.
 */
function keepPinnedSchemas(pulled: PulledManifest, output: string): PulledManifest {
  let pinned: unknown;
  try {
    pinned = (parse(readFileSync(output, "utf8")) as { protocolSchemas?: unknown } | null)?.protocolSchemas;
  } catch {
    return pulled; // no manifest yet, or one that does not parse: nothing to keep
  }
  if (typeof pinned !== "string") return pulled;
  const entries = Object.entries(pulled.document).flatMap(([key, value]) =>
    key === "output"
      ? [
          [key, value],
          ["protocolSchemas", pinned],
        ]
      : [[key, value]],
  );
  return { ...pulled, document: Object.fromEntries(entries) as PulledManifest["document"] };
}

export async function runPull(args: PullArgs): Promise<number> {
  const source: PullSource | undefined =
    args.stdio !== undefined ? { stdio: args.stdio } : args.url !== undefined ? { url: args.url } : undefined;
  if (source === undefined) {
    err('pull needs --stdio "<command>" or --url <url>');
    return 2;
  }
  const described = "stdio" in source ? `stdio: ${source.stdio}` : source.url;
  const progress = terminalProgress(process.stderr, !args.quiet && !args.json);
  let pulled: PulledManifest;
  let revision: string;
  try {
    const limits = { ...defaultLimits, timeoutMs: args.timeout ?? defaultLimits.timeoutMs };
    const listing = await readServer(source, [...knownRevisions().keys()], limits, (what) =>
      progress.update(`pull: ${what} (${described})`),
    );
    pulled = buildManifest(listing);
    revision = listing.revision;
  } catch (error) {
    if (!(error instanceof PullError)) throw error;
    progress.clear();
    err(`pull from ${described}: ${error.message}`);
    return 1;
  }
  progress.clear();
  for (const note of pulled.notes) err(`note: ${note}`);

  if (args.check) {
    if (!existsSync(args.output)) {
      err(`${args.output} does not exist; run mcp-gen pull without --check to write it`);
      return 1;
    }
    let checkedIn: unknown;
    try {
      checkedIn = parse(readFileSync(args.output, "utf8"));
    } catch (error) {
      err(`${args.output}: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    }
    const drift = manifestDrift(checkedIn, pulled.document);
    if (args.json) {
      out(
        JSON.stringify({ manifest: args.output, matches: drift.length === 0, revision, differences: drift }, null, 2),
      );
      return drift.length > 0 ? 1 : 0;
    }
    for (const line of drift) err(`${args.output}: ${line}`);
    if (drift.length > 0) {
      err(
        `${drift.length} difference(s) between ${args.output} and the server; run mcp-gen pull without --check to update it`,
      );
      return 1;
    }
    if (!args.quiet) out(`mcp-gen: ${args.output} matches the server`);
    return 0;
  }

  replaceFile(args.output, renderManifest(keepPinnedSchemas(pulled, args.output), described, revision));
  // The manifest must generate: a server whose schemas the generator cannot type is reported
  // here, with the generator's own diagnostics pointing into the written file.
  const { generate } = await import("../pipeline.js");
  const result = await generate({ manifest: args.output, schemaDir: args.schemaDir });
  if (!result.ok) {
    for (const diagnostic of result.diagnostics) err(formatDiagnostic(diagnostic));
    err(
      `wrote ${args.output}, but mcp-gen cannot generate a client from it yet: see above (an entry named there can be edited or removed; missing protocol schemas are fetched with \`mcp-gen schema fetch\` or found with --schema-dir)`,
    );
    return 1;
  }
  for (const diagnostic of result.warnings) err(formatDiagnostic(diagnostic));
  const count = (section: string) => Object.keys((pulled.document[section] ?? {}) as object).length;
  const counts = {
    tools: count("tools"),
    resources: count("resources"),
    resourceTemplates: count("resourceTemplates"),
    prompts: count("prompts"),
  };
  if (args.json) out(JSON.stringify({ manifest: args.output, revision, ...counts }, null, 2));
  else if (!args.quiet) {
    out(
      `mcp-gen: wrote ${args.output}: ${counts.tools} tool(s), ${counts.resources} resource(s), ${counts.resourceTemplates} template(s), ${counts.prompts} prompt(s) (negotiated ${revision})`,
    );
  }
  return 0;
}
