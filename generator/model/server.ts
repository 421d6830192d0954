// The user side of the model: a manifest turned into named, typed, checked declarations.
// Semantic checks happen while the model is built, so each problem is reported once, at
// the position of the declaration that causes it. Each kind of declaration has its own
// module (tools, resources, prompts, forms, auth, apps, settings) and the model's types
// live in ./types.ts; this one puts the parts together.
import { dirname, resolve } from "node:path";
import { quote, type Diagnostic } from "../diagnostics.js";
import { knownRevisions, type Revision } from "../load/revisions.js";
import type { PositionIndex } from "../load/source.js";
import type { Manifest, ManifestGenerate } from "../manifest.gen.js";
import type { ValidatedManifest } from "../validate/validate.js";
import { buildApps } from "./apps.js";
import { authOf } from "./auth.js";
import { Declarations, optional } from "./declarations.js";
import { buildForms } from "./forms.js";
import { serverTypeBase } from "./names.js";
import { buildPrompts } from "./prompts.js";
import { buildResources, buildResourceTemplates } from "./resources.js";
import { buildSettings } from "./settings.js";
import { buildTools } from "./tools.js";
import type { GenerateSettings, ServerModel } from "./types.js";

export interface ManifestInput {
  readonly absolutePath: string;
  readonly positions: PositionIndex;
}

/**
 * Builds the model from what the validate pass returned and reports the semantic problems
 * left to it. `validated.broken` holds the JSON pointers of the parts whose shape is invalid
 * (a section such as `/auth`, or one entry such as `/tools/x`): the manifest comes without
 * them, and checks that depend on them are not run, so problems of the intact parts are
 * reported alongside the shape errors. No model is returned then.
 */
export function buildServerModel(
  manifest: ManifestInput,
  validated: Pick<ValidatedManifest, "manifest" | "broken" | "analysis">,
  outputOverride?: string,
): { model?: ServerModel; diagnostics: Diagnostic[]; inputFiles?: readonly string[] } {
  const { manifest: root, broken, analysis } = validated;
  if (root === undefined) return { diagnostics: [] };
  const { positions } = manifest;
  const manifestDir = dirname(manifest.absolutePath);
  const diagnostics: Diagnostic[] = [];

  const server = root.server;
  const info = {
    name: server?.name ?? "",
    version: server?.version ?? "",
    ...optional("title", server?.title),
    ...optional("description", server?.description),
    ...optional("websiteUrl", server?.websiteUrl),
    ...optional("icons", server?.icons),
  };
  const typeBase = serverTypeBase(info.name);
  if (server !== undefined && (typeBase === "" || /^[0-9]/.test(typeBase))) {
    diagnostics.push({
      location: positions.value("/server/name"),
      message: `server name ${quote(info.name)} cannot name the generated createXServer/XHandlers/XClient; use a name that starts with a letter`,
    });
  }
  const revisions = broken.has("/protocol") ? undefined : revisionsOf(root.protocol);
  const generate = generateSettingsOf(root.generate ?? {});
  const output = outputOverride ? resolve(outputOverride) : resolve(manifestDir, root.output ?? "./mcp");
  const auth = broken.has("/auth") ? "broken" : authOf(root.auth, positions, info.title ?? info.name, diagnostics);

  const context = new Declarations({
    positions,
    manifestDir,
    root,
    revisions,
    auth,
    broken,
    analysis,
  });
  context.inputFiles.add(manifest.absolutePath);
  for (const file of analysis.schemaFiles) context.inputFiles.add(file);
  const resources = buildResources(context);
  const { apps, toolUi } = buildApps(context, info.name, new Set(resources.map((r) => r.uri)));
  const tools = buildTools(context).map((tool) =>
    toolUi.has(tool.key) ? { ...tool, ui: toolUi.get(tool.key)! } : tool,
  );
  const resourceTemplates = buildResourceTemplates(context);
  const prompts = buildPrompts(context);
  const forms = buildForms(context);
  diagnostics.push(...context.diagnostics);
  const settings = buildSettings(root.settings, positions, diagnostics);

  // A failed model still names the files it read or tried to read (a $ref to a file not yet written): watch mode waits for them.
  if (
    broken.size > 0 ||
    auth === "broken" ||
    revisions === undefined ||
    diagnostics.some((d) => d.severity !== "warning")
  )
    return { diagnostics, inputFiles: [...context.inputFiles].sort() };
  return {
    model: {
      info,
      ...optional("instructions", server?.instructions),
      listChanged: server?.listChanged ?? [],
      ...optional("listCache", server?.cache),
      ...optional("auth", auth),
      revisions,
      revisionsLocation: positions.value("/protocol"),
      output,
      generate,
      typeBase,
      tools,
      resources,
      resourceTemplates,
      prompts,
      forms,
      apps,
      settings,
      inputFiles: [...context.inputFiles].sort(),
    },
    diagnostics,
  };
}

/** `protocol:` as a list, preferred first; every known revision when it is absent. */
export function revisionsOf(protocol: Manifest["protocol"]): readonly Revision[] {
  if (protocol === undefined) return [...knownRevisions().keys()];
  return typeof protocol === "string" ? [protocol] : protocol;
}

function generateSettingsOf(gen: ManifestGenerate): GenerateSettings {
  return {
    importExtension: gen.importExtension ?? ".js",
    runtime: gen.runtime ?? "@mcp-gen/runtime",
    server: gen.server !== false,
    client: gen.client !== false,
  };
}

/** The manifest's `x-mcp-header` declarations (checked by the model): tool → argument → header name. */
export function paramHeaderDeclarations(model: ServerModel): Record<string, Readonly<Record<string, string>>> {
  // Null-prototype: tool names are user data and may be "__proto__".
  const declared: Record<string, Readonly<Record<string, string>>> = Object.create(null);
  for (const tool of model.tools) if (Object.keys(tool.paramHeaders).length > 0) declared[tool.key] = tool.paramHeaders;
  return declared;
}
