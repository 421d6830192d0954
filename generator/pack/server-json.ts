// server.json for the MCP Registry (schema 2025-12-11): the server's identity from the
// manifest, its registry name from package.json's `mcpName`, and where it can be had: the npm
// package (run over stdio, configured by the manifest's settings as environment variables),
// the .mcpb bundle at a download URL, and/or a remote Streamable HTTP endpoint. Pure.
import { quote, type Diagnostic } from "../diagnostics.js";
import type { PositionIndex } from "../load/source.js";
import type { ServerModel, SettingModel } from "../model/types.js";
import { bundleRequirements } from "./mcpb-manifest.js";
import type { ProjectPackage } from "./project.js";

export const serverJsonSchema = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";
/** The registry's limit on `description`. */
const maxDescription = 100;
const registryName = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
/** The icon types the registry takes. */
const registryIconTypes = new Set(["image/png", "image/jpeg", "image/jpg", "image/svg+xml", "image/webp"]);

export interface ServerJsonInput {
  readonly model: ServerModel;
  readonly positions: PositionIndex;
  readonly pkg: ProjectPackage | undefined;
  /** package.json as messages show it, read or not. */
  readonly pkgFile: string;
  /** The entry serves stdio (what an npm or .mcpb package is run over). */
  readonly servesStdio: boolean;
  /** The Streamable HTTP endpoint where the server is deployed. */
  readonly remoteUrl?: string | undefined;
  /** Where the .mcpb bundle will be downloadable (a GitHub or GitLab release asset), and its sha256. */
  readonly mcpb?: { readonly url: string; readonly sha256: string } | undefined;
}

export type ServerJsonResult =
  { ok: true; serverJson: Record<string, unknown> } | { ok: false; diagnostics: Diagnostic[] };

const stdio = { type: "stdio" } as const;

export function serverJson(input: ServerJsonInput): ServerJsonResult {
  const { model, positions, pkg, pkgFile, remoteUrl } = input;
  const diagnostics = bundleRequirements(model, positions);
  diagnostics.push(...identityProblems(input));
  const packages = distributionPackages(input, diagnostics);
  if (packages.length === 0 && remoteUrl === undefined) {
    diagnostics.push({
      location: { file: pkgFile },
      message:
        'server.json lists nowhere to get the server: publish the npm package (package.json not "private"), pass --mcpb-url with the bundle\'s download URL, or --remote with the deployed endpoint',
    });
  }
  if (diagnostics.length > 0) return { ok: false, diagnostics };
  const { info } = model;
  const remotes =
    remoteUrl === undefined
      ? []
      : [
          {
            type: "streamable-http",
            url: remoteUrl,
            ...(model.auth === undefined ? {} : { headers: [authorizationHeader(model)] }),
          },
        ];
  const icons = registryIcons(info.icons);
  return {
    ok: true,
    serverJson: {
      $schema: serverJsonSchema,
      name: pkg!.mcpName!,
      ...(info.title === undefined ? {} : { title: info.title }),
      description: info.description!,
      version: info.version,
      ...(info.websiteUrl !== undefined && URL.canParse(info.websiteUrl) ? { websiteUrl: info.websiteUrl } : {}),
      ...(pkg?.repositoryUrl === undefined
        ? {}
        : { repository: repository(pkg.repositoryUrl, pkg.repositoryDirectory) }),
      ...(icons.length === 0 ? {} : { icons }),
      ...(packages.length === 0 ? {} : { packages }),
      ...(remotes.length === 0 ? {} : { remotes }),
    },
  };
}

/** What the registry will not take of the server's identity: description and title lengths, the registry name. */
function identityProblems({ model, positions, pkg, pkgFile }: ServerJsonInput): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const { info } = model;
  if (info.description !== undefined && info.description.length > maxDescription) {
    diagnostics.push({
      location: positions.value("/server/description"),
      message: `server.description has ${info.description.length} characters; the MCP Registry takes at most ${maxDescription}`,
    });
  }
  if (info.title !== undefined && (info.title.length === 0 || info.title.length > maxDescription)) {
    diagnostics.push({
      location: positions.value("/server/title"),
      message: `server.title has ${info.title.length} characters; the MCP Registry takes 1 to ${maxDescription}`,
    });
  }
  if (pkg?.mcpName === undefined) {
    diagnostics.push({
      location: { file: pkgFile },
      message: `server.json needs the server's registry name: add "mcpName": "io.github.<user>/${info.name}" to ${pkg === undefined ? "a package.json beside the manifest" : "package.json"} (the registry also checks npm packages for it)`,
    });
  } else if (!registryName.test(pkg.mcpName) || pkg.mcpName.length > 200) {
    diagnostics.push({
      location: { file: pkgFile },
      message: `"mcpName" ${quote(pkg.mcpName)} is not a registry name: reverse-DNS namespace, one slash, then the server's name (io.github.<user>/${info.name})`,
    });
  }
  return diagnostics;
}

/**
 * The packages server.json lists: the npm package (unless package.json is private) and the
 * .mcpb bundle (when it has a download URL); what keeps one out is added to `diagnostics`.
 */
function distributionPackages(
  { model, pkg, pkgFile, servesStdio, mcpb }: ServerJsonInput,
  diagnostics: Diagnostic[],
): Record<string, unknown>[] {
  const { info } = model;
  const packages: Record<string, unknown>[] = [];
  const npm = pkg !== undefined && !pkg.private;
  if (npm || mcpb !== undefined) {
    if (!servesStdio) {
      diagnostics.push({
        location: { file: pkgFile },
        message: `the server's entry never serves stdio, so neither ${npm ? "its npm package" : "the .mcpb bundle"} can be run by a client; serve stdio from it${npm ? ', or mark package.json "private": true to leave npm out of server.json' : ""}`,
      });
    }
  }
  if (npm) {
    if (pkg.name === undefined || pkg.version === undefined)
      diagnostics.push({
        location: { file: pkgFile },
        message:
          'the npm package in server.json needs "name" and "version" in package.json (or "private": true to leave npm out)',
      });
    else if (!pkg.hasBin)
      diagnostics.push({
        location: { file: pkgFile },
        message: `package.json has no "bin", so \`npx ${pkg.name}\` cannot start the server; add one that runs the built entry (or "private": true to leave npm out of server.json)`,
      });
    else
      packages.push({
        registryType: "npm",
        identifier: pkg.name,
        version: pkg.version,
        transport: stdio,
        ...environmentVariables(model.settings),
      });
  }
  if (mcpb !== undefined)
    packages.push({
      registryType: "mcpb",
      identifier: mcpb.url,
      version: info.version,
      fileSha256: mcpb.sha256,
      transport: stdio,
      ...environmentVariables(model.settings),
    });
  return packages;
}

/** The registry takes https icons of the usual image types only, sized WxH or "any". */
function registryIcons(icons: ServerModel["info"]["icons"]) {
  return (icons ?? [])
    .filter(
      (icon) =>
        /^https:\/\/\S+$/.test(icon.src) &&
        icon.src.length <= 255 &&
        (icon.mimeType === undefined || registryIconTypes.has(icon.mimeType)),
    )
    .map(({ sizes, ...icon }) => {
      const kept = sizes?.filter((size) => /^(\d+x\d+|any)$/.test(size));
      return { ...icon, ...(kept === undefined || kept.length === 0 ? {} : { sizes: kept }) };
    });
}

/** The settings as the environment variables a client sets when it runs the package. */
function environmentVariables(settings: readonly SettingModel[]): { environmentVariables?: Record<string, unknown>[] } {
  if (settings.length === 0) return {};
  return {
    environmentVariables: settings.map((s) => ({
      name: s.env,
      description: s.description,
      isRequired: s.required,
      isSecret: s.secret,
      format: s.type === "directory" || s.type === "file" ? "filepath" : s.type,
      ...(s.default === undefined ? {} : { default: String(s.default) }),
    })),
  };
}

/** A protected server (`auth:`) takes a bearer token; clients that do MCP authorization get one themselves. */
function authorizationHeader(model: ServerModel): Record<string, unknown> {
  const issuers = model.auth!.authorizationServers.join(", ");
  return {
    name: "Authorization",
    description: `OAuth 2.1 bearer access token for this server, issued by ${issuers}`,
    isRequired: true,
    isSecret: true,
    value: "Bearer {token}",
    variables: { token: { description: `Access token issued by ${issuers}`, isRequired: true, isSecret: true } },
  };
}

function repository(url: string, subfolder: string | undefined): Record<string, string> {
  const host = new URL(url).hostname;
  const source = host === "github.com" ? "github" : host === "gitlab.com" ? "gitlab" : host;
  return { url, source, ...(subfolder === undefined ? {} : { subfolder }) };
}
