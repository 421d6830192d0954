// The documentation's links and the CLI guide stay true: every relative link of README.md and
// docs/*.md names a file or folder of the repository and, with a #fragment, a heading of that
// Markdown file (GitHub's anchor rule); docs/cli.md documents every command and every flag the
// built CLI's --help lists.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { anchor } from "../../scripts/manifest-reference.js";
import { cliPath, repoRoot } from "../support/paths.js";

/** Guides other branches of the same change add; linked from the README before they land. */
const writtenElsewhere = new Set(["docs/getting-started.md", "docs/schemas.md", "docs/shipping.md"]);

const documents = [
  "README.md",
  ...readdirSync(join(repoRoot, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** Markdown without fenced code blocks and code spans, where brackets are not links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, text] of markdown.replace(/^```[\s\S]*?^```/gm, "").matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const plain = text!.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
    const slug = anchor(plain);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    found.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return found;
}

/** Every relative link target of a document: [text](target) and ![alt](target). */
function links(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe("documentation links", () => {
  it("finds the documents and their links", () => {
    expect(documents).toContain("docs/manifest.md");
    expect(links(readFileSync(join(repoRoot, "README.md"), "utf8")).length).toBeGreaterThan(10);
  });

  it.each(documents)("every relative link of %s resolves to a file and, with a #fragment, to a heading", (document) => {
    const text = readFileSync(join(repoRoot, document), "utf8");
    const broken: string[] = [];
    for (const link of links(text)) {
      const [path, fragment] = link.split("#", 2) as [string, string | undefined];
      const target =
        path === "" ? join(repoRoot, document) : resolve(dirname(join(repoRoot, document)), decodeURIComponent(path));
      const name = relative(repoRoot, target).split("\\").join("/");
      if (name.startsWith("..")) broken.push(`${link}: outside the repository`);
      else if (!existsSync(target)) {
        if (!writtenElsewhere.has(name) || fragment !== undefined) broken.push(`${link}: no such file`);
      } else if (fragment !== undefined) {
        if (!statSync(target).isFile() || !target.endsWith(".md"))
          broken.push(`${link}: a fragment of a file that is not Markdown`);
        else if (!anchors(readFileSync(target, "utf8")).has(fragment))
          broken.push(`${link}: no heading #${fragment} in ${name}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("computes anchors as GitHub does", () => {
    expect([
      ...anchors(
        "# A typed client (`pull`)\n## Scale-out and serverless\n## Tasks\n## Tasks\n```\n# not a heading\n```\n",
      ),
    ]).toEqual(["a-typed-client-pull", "scale-out-and-serverless", "tasks", "tasks-1"]);
  });
});

describe("docs/cli.md", () => {
  const guide = readFileSync(join(repoRoot, "docs", "cli.md"), "utf8");
  const help = (...command: string[]) =>
    spawnSync(process.execPath, [cliPath, ...command, "--help"], { encoding: "utf8" }).stdout;

  /** The guide's section of a command: from its heading to the next heading of its level or above. */
  const section = (command: string) => {
    const start = guide.indexOf(`\n### \`mcp-gen ${command}`);
    expect(start, `docs/cli.md has a section for mcp-gen ${command}`).toBeGreaterThanOrEqual(0);
    const end = guide.slice(start + 1).search(/\n##/);
    return guide.slice(start, end < 0 ? undefined : start + 1 + end);
  };

  it("has a section for every command the CLI lists", () => {
    const listing = help().split("\nCommands:\n")[1]!.split("\n\n")[0]!;
    const commands = [...listing.matchAll(/^ {2}mcp-gen (\w+)/gm)].map((m) => m[1]!);
    expect(commands).toEqual(["generate", "init", "scaffold", "pull", "docs", "pack", "diff", "schema", "import"]);
    for (const command of commands) section(command === "generate" ? "[generate]" : command);
  });

  it.each([
    ["[generate]", ["generate"]],
    ["init", ["init"]],
    ["scaffold", ["scaffold"]],
    ["schema", ["schema"]],
    ["pull", ["pull"]],
    ["docs", ["docs"]],
    ["diff", ["diff"]],
    ["pack", ["pack"]],
    ["import openapi", ["import"]],
  ])("documents every flag of mcp-gen %s", (heading, command) => {
    const flags = [...help(...command).matchAll(/^ {2}(?:-\w, )? *(--[a-z-]+)/gm)]
      .map((m) => m[1]!)
      .filter((f) => f !== "--version" && f !== "--help");
    expect(flags.length).toBeGreaterThan(0);
    const text = section(heading);
    expect(flags.filter((flag) => !new RegExp("`(?:-\\w, )?" + flag + "[ `]").test(text))).toEqual([]);
  });
});
