// The parts of the project's package.json that shipping reads: who wrote the server, under
// which name and version it is published on npm, its registry name (`mcpName`), licence,
// repository and keywords. Fields of the wrong type are treated as absent.
export interface ProjectPackage {
  readonly name?: string;
  readonly version?: string;
  readonly private: boolean;
  readonly hasBin: boolean;
  readonly author?: Author;
  readonly license?: string;
  readonly keywords?: readonly string[];
  readonly repositoryUrl?: string;
  /** The subfolder of a monorepo holding the package (`repository.directory`). */
  readonly repositoryDirectory?: string;
  /** The server's name in the MCP Registry (io.github.<user>/<name>), which the registry checks npm packages for. */
  readonly mcpName?: string;
}

export interface Author {
  readonly name: string;
  readonly email?: string;
  readonly url?: string;
}

type Json = Record<string, unknown>;
const text = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;

/** npm's "Name <email> (url)" shorthand, or the object form. */
export function parseAuthor(value: unknown): Author | undefined {
  if (typeof value === "string") {
    const match = /^([^<(]*?)\s*(?:<([^>]*)>)?\s*(?:\(([^)]*)\))?\s*$/.exec(value.trim());
    const name = text(match?.[1]);
    if (match === null || name === undefined) return undefined;
    return { name, ...withText("email", match[2]), ...withText("url", match[3]) };
  }
  if (typeof value === "object" && value !== null) {
    const name = text((value as Json).name);
    if (name === undefined) return undefined;
    return { name, ...withText("email", (value as Json).email), ...withText("url", (value as Json).url) };
  }
  return undefined;
}

function withText<K extends string>(key: K, value: unknown): { [P in K]?: string } {
  const found = text(value);
  return found === undefined ? {} : ({ [key]: found } as { [P in K]: string });
}

/** The repository URL npm would link to: `github:user/repo` and `user/repo` shorthands become GitHub URLs. */
function repositoryUrl(value: unknown): string | undefined {
  const raw = text(typeof value === "object" && value !== null ? (value as Json).url : value);
  if (raw === undefined) return undefined;
  const shorthand = /^(?:github:)?([\w.-]+\/[\w.-]+)$/.exec(raw);
  if (shorthand) return `https://github.com/${shorthand[1]}`;
  const url = raw.replace(/^git\+/, "").replace(/\.git$/, "");
  return URL.canParse(url) && /^https?:$/.test(new URL(url).protocol) ? url : undefined;
}

export function readProjectPackage(json: unknown): ProjectPackage {
  const pkg = (typeof json === "object" && json !== null ? json : {}) as Json;
  const keywords = Array.isArray(pkg.keywords)
    ? pkg.keywords.filter((k): k is string => typeof k === "string")
    : undefined;
  const author = parseAuthor(pkg.author);
  const repository = repositoryUrl(pkg.repository);
  const directory =
    typeof pkg.repository === "object" && pkg.repository !== null
      ? text((pkg.repository as Json).directory)
      : undefined;
  return {
    ...withText("name", pkg.name),
    ...withText("version", pkg.version),
    private: pkg.private === true,
    hasBin:
      typeof pkg.bin === "string" ||
      (typeof pkg.bin === "object" && pkg.bin !== null && Object.keys(pkg.bin).length > 0),
    ...(author === undefined ? {} : { author }),
    ...withText("license", pkg.license),
    ...(keywords === undefined || keywords.length === 0 ? {} : { keywords }),
    ...(repository === undefined ? {} : { repositoryUrl: repository }),
    ...(directory === undefined ? {} : { repositoryDirectory: directory }),
    ...withText("mcpName", pkg.mcpName),
  };
}
