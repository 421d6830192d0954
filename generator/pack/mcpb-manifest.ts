// The manifest.json of an .mcpb bundle (MCP Bundle, manifest_version 0.4 as @anthropic-ai/mcpb
// validates it), derived from the model and the project's package.json. Pure: returns the
// manifest and the files it names (icons given as data: URIs), or what the bundle lacks.
import { quote, type Diagnostic } from "../diagnostics.js";
import type { PositionIndex } from "../load/source.js";
import type { Icon, PromptModel, ServerModel } from "../model/types.js";
import type { TemplatePart } from "../validate/prompt-template.js";
import type { ProjectPackage } from "./project.js";

export const mcpbManifestVersion = "0.4";
/** Where the bundled server lives in the archive. */
export const bundledEntry = "server/index.mjs";
/** What the runtime needs (@mcp-gen/runtime's engines). */
const nodeRange = ">=20.19.0";

/** MAJOR.MINOR.PATCH with optional pre-release and build (semver.org). */
export const semverPattern =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

export interface McpbManifestInput {
  readonly model: ServerModel;
  readonly positions: PositionIndex;
  readonly pkg: ProjectPackage | undefined;
  /** package.json as messages show it, read or not. */
  readonly pkgFile: string;
}

export type McpbManifestResult =
  | { ok: true; manifest: Record<string, unknown>; files: Map<string, Uint8Array> }
  | { ok: false; diagnostics: Diagnostic[] };

/** What the bundle needs of the manifest beyond what the manifest schema requires. */
export function bundleRequirements(model: ServerModel, positions: PositionIndex): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  if (model.info.description === undefined || model.info.description.trim() === "") {
    diagnostics.push({
      location: positions.key("/server"),
      message:
        "server.description is missing: .mcpb bundles and the MCP Registry show it to the people installing the server; add `description:` under `server:`",
    });
  }
  if (!semverPattern.test(model.info.version)) {
    diagnostics.push({
      location: positions.value("/server/version"),
      message: `server.version ${quote(model.info.version)} is not a semantic version (MAJOR.MINOR.PATCH, e.g. 1.0.0), which .mcpb bundles and the MCP Registry expect`,
    });
  }
  return diagnostics;
}

export function mcpbManifest({ model, positions, pkg, pkgFile }: McpbManifestInput): McpbManifestResult {
  const diagnostics = bundleRequirements(model, positions);
  if (!model.generate.server)
    diagnostics.push({
      location: positions.value("/generate/server"),
      message: "the manifest generates no server (generate.server: false): there is nothing to bundle",
    });
  if (pkg?.author === undefined) {
    diagnostics.push({
      location: { file: pkgFile },
      message: `the .mcpb bundle needs an author: add "author": "Your Name <you@example.com>" to ${pkg === undefined ? "a package.json beside the manifest" : "package.json"}`,
    });
  }
  if (diagnostics.length > 0) return { ok: false, diagnostics };
  const { info } = model;
  const files = new Map<string, Uint8Array>();
  const icons = bundleIcons(info.icons ?? [], files);
  const env = Object.fromEntries(model.settings.map((s) => [s.env, `\${user_config.${s.key}}`]));
  const manifest = {
    manifest_version: mcpbManifestVersion,
    name: info.name,
    ...(info.title === undefined ? {} : { display_name: info.title }),
    version: info.version,
    description: info.description!,
    author: pkg!.author!,
    ...(pkg!.repositoryUrl === undefined ? {} : { repository: { type: "git", url: pkg!.repositoryUrl } }),
    ...(info.websiteUrl !== undefined && isHttpUrl(info.websiteUrl) ? { homepage: info.websiteUrl } : {}),
    ...icons,
    server: {
      type: "node",
      entry_point: bundledEntry,
      mcp_config: {
        command: "node",
        args: [`\${__dirname}/${bundledEntry}`],
        ...(model.settings.length === 0 ? {} : { env }),
      },
    },
    ...(model.tools.length === 0
      ? {}
      : {
          tools: model.tools.map((t) => ({
            name: t.key,
            ...(t.description === undefined ? {} : { description: t.description }),
          })),
        }),
    ...(model.prompts.length === 0 ? {} : { prompts: model.prompts.map(bundlePrompt) }),
    ...(pkg!.keywords === undefined ? {} : { keywords: pkg!.keywords }),
    ...(pkg!.license === undefined ? {} : { license: pkg!.license }),
    compatibility: { runtimes: { node: nodeRange } },
    ...(model.settings.length === 0
      ? {}
      : {
          user_config: Object.fromEntries(
            model.settings.map((s) => [
              s.key,
              {
                type: s.type,
                title: s.title,
                description: s.description,
                required: s.required,
                ...(s.secret ? { sensitive: true } : {}),
                ...(s.default === undefined ? {} : { default: s.default }),
              },
            ]),
          ),
        }),
  };
  return { ok: true, manifest, files };
}

const isHttpUrl = (value: string) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);

const extensions: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/jpg": "jpg",
  "image/svg+xml": "svg",
  "image/webp": "webp",
};

/**
 * `icons` (one entry per WxH size) and `icon` (the first PNG, which is what hosts display):
 * https icons by URL, data: icons as files in the bundle (icons/<n>.<ext>).
 */
function bundleIcons(
  icons: readonly Icon[],
  files: Map<string, Uint8Array>,
): { icon?: string; icons?: { src: string; size: string; theme?: string }[] } {
  const sources: { src: string; mimeType: string | undefined; icon: Icon }[] = [];
  icons.forEach((icon, i) => {
    const data = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s.exec(icon.src);
    if (data === null) {
      if (isHttpUrl(icon.src)) sources.push({ src: icon.src, mimeType: icon.mimeType, icon });
      return;
    }
    const mimeType = (data[1] || icon.mimeType || "").toLowerCase();
    const extension = extensions[mimeType];
    if (extension === undefined) return;
    const bytes = data[2]!.split(";").includes("base64")
      ? Buffer.from(data[3]!, "base64")
      : Buffer.from(decodeURIComponent(data[3]!), "utf8");
    const path = `icons/${i}.${extension}`;
    files.set(path, bytes);
    sources.push({ src: path, mimeType, icon });
  });
  const sized = sources.flatMap(({ src, icon }) =>
    (icon.sizes ?? [])
      .filter((size) => /^\d+x\d+$/.test(size))
      .map((size) => ({ src, size, ...(icon.theme === undefined ? {} : { theme: icon.theme }) })),
  );
  const png = sources.find(
    ({ src, mimeType }) =>
      mimeType === "image/png" || (mimeType === undefined && /\.png$/i.test(new URL(src, "file:///").pathname)),
  );
  return { ...(png === undefined ? {} : { icon: png.src }), ...(sized.length === 0 ? {} : { icons: sized }) };
}

/**
 * A prompt as .mcpb lists it: its text with `${arguments.x}` placeholders, as the server
 * renders it when every argument is given (an `{{#if}}` shows its first branch, an
 * `{{#unless}}` its else branch); messages are separated by a blank line. A prompt its
 * handler builds has no text to show: its description stands in.
 */
function bundlePrompt(prompt: PromptModel): Record<string, unknown> {
  const render = (parts: readonly TemplatePart[]): string =>
    parts
      .map((part) =>
        part.kind === "text"
          ? part.text
          : part.kind === "arg"
            ? `\${arguments.${part.name}}`
            : render(part.negate ? part.otherwise : part.then),
      )
      .join("");
  const text =
    prompt.messages === undefined
      ? (prompt.description ?? prompt.title ?? prompt.key)
      : prompt.messages.map((m) => render(m.parts)).join("\n\n");
  return {
    name: prompt.key,
    ...(prompt.description === undefined ? {} : { description: prompt.description }),
    ...(prompt.arguments.length === 0 ? {} : { arguments: prompt.arguments.map((a) => a.name) }),
    text,
  };
}
