// Issue 30 §2 on GitHub's REST description (@octokit/openapi, from the nested package
// test/openapi-corpora: `npm ci --prefix test/openapi-corpora`, then `npm run proof:openapi`;
// not part of `npm test`). A seeded sample of 60 operations, drawn round-robin across the
// document's tags, is imported with `--include operation:<id>` → generated → strict tsc, and
// every tool is called through the generated typed client over 2025-11-25 and 2026-07-28
// against Prism mocking the whole GitHub document with request validation on. Every request
// must be valid at Prism and answered 2xx, every structured result must pass the generated
// output validators; the counts per era are printed.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Rng } from "../../fuzz/generate.js";
import { repoRoot } from "../support/paths.js";
import { callEveryTool, callProblem, importProject, type CallRecord } from "./support/call-every-tool.js";
import { startPrism, type Prism } from "./support/prism.js";

const document = join(
  repoRoot,
  "test",
  "openapi-corpora",
  "node_modules",
  "@octokit",
  "openapi",
  "generated",
  "api.github.com.json",
);
const revisions = ["2025-11-25", "2026-07-28"] as const;
const sampleSize = 60;
const seed = 30;

/**
 * What the calls find that is not the request building's fault, by tool: the start of the
 * problem each must show (callProblem). A tool that stops showing it fails the test too, so
 * the entry goes when the cause is fixed.
 */
const knownFindings: Readonly<Record<string, string>> = {
  // Prism: its generator (json-schema-faker) writes any string for format uri-template, which
  // its own answer check then refuses (HTTP 500, `response.body.*_url` violations).
  meta_root: "meta_root (%s) with {}: Prism's own answer broke the document (HTTP 500)",
  // GitHub's description: the event payload's oneOf lists public-event, which has no required
  // property, so every payload matches it and one more branch; a real answer fails it too.
  "activity_list-received-events-for-user":
    "returned structured content that does not match its output schema: /result/0/payload must match exactly one schema in oneOf",
  // GitHub's description: projects-v2-draft-issue requires a subset of what issue requires, so
  // content that is an issue matches two branches of the item's oneOf.
  "projects_create-draft-item-for-org":
    "returned structured content that does not match its output schema: /content must match exactly one schema in oneOf",
};

interface Operation {
  readonly id: string;
  readonly tag: string;
  readonly path: boolean;
  readonly query: boolean;
  readonly body: boolean;
}

/** Fisher-Yates with the fuzzers' seeded generator, so the sample is the same on every machine. */
function shuffled<T>(items: readonly T[], rng: Rng): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

type Parameters = readonly { readonly in?: string; readonly $ref?: string }[] | undefined;

/** The seeded sample: the document's tags in a shuffled order, one operation of each in turn. */
function sample(): Operation[] {
  const spec = JSON.parse(readFileSync(document, "utf8")) as {
    paths: Record<string, Record<string, unknown>>;
    components: { parameters: Record<string, { in: string }> };
  };
  const location = (parameter: { in?: string; $ref?: string }) =>
    parameter.$ref === undefined
      ? parameter.in
      : spec.components.parameters[parameter.$ref.replace("#/components/parameters/", "")]?.in;
  const byTag = new Map<string, Operation[]>();
  for (const item of Object.values(spec.paths)) {
    for (const method of ["get", "put", "post", "delete", "patch"]) {
      const operation = item[method] as
        | { operationId: string; tags?: string[]; deprecated?: boolean; parameters?: Parameters; requestBody?: unknown }
        | undefined;
      if (operation === undefined || operation.deprecated === true) continue;
      const parameters = [...((item.parameters as Parameters) ?? []), ...(operation.parameters ?? [])];
      const tag = operation.tags?.[0] ?? "";
      byTag.set(tag, [
        ...(byTag.get(tag) ?? []),
        {
          id: operation.operationId,
          tag,
          path: parameters.some((p) => location(p) === "path"),
          query: parameters.some((p) => location(p) === "query"),
          body: operation.requestBody !== undefined,
        },
      ]);
    }
  }
  const rng = new Rng(seed);
  const queues = shuffled([...byTag.keys()].sort(), rng).map((tag) => shuffled(byTag.get(tag)!, rng));
  const picked: Operation[] = [];
  while (picked.length < sampleSize && queues.some((queue) => queue.length > 0))
    for (const queue of queues) if (queue.length > 0 && picked.length < sampleSize) picked.push(queue.shift()!);
  return picked;
}

describe("Prism validates the requests of a seeded sample of GitHub's operations", () => {
  let prism: Prism;
  let project: string;
  let operations: Operation[];
  const records = new Map<string, CallRecord[]>();

  beforeAll(async () => {
    if (!existsSync(document))
      throw new Error(`${document} is missing: run npm ci --prefix test/openapi-corpora --no-audit --no-fund`);
    const starting = startPrism(document, { readyTimeoutMs: 180_000 });
    operations = sample();
    ({ project } = importProject(
      "prism-github",
      document,
      [...operations.flatMap((o) => ["--include", `operation:${o.id}`]), "-q"],
      600_000,
    ));
    prism = await starting;
  }, 900_000);
  afterAll(async () => {
    await prism?.close();
    const rows = [...records].map(([revision, calls]) => {
      const called = calls.filter((c) => c.unsampled === undefined);
      const valid = called.filter((c) => c.exchanges.length === 1 && c.exchanges[0]!.requestViolations.length === 0);
      const withOutput = calls.filter((c) => c.outputValid !== undefined);
      const answered = called.filter((c) => c.exchanges.some((e) => e.status >= 200 && e.status < 300));
      return `${revision}: ${called.length} operations called, ${valid.length} valid at Prism, ${answered.length} answered 2xx, ${withOutput.filter((c) => c.outputValid).length}/${withOutput.length} outputs validated`;
    });
    const tools = new Set([...records.values()].flat().map((c) => c.tool));
    const notImported = operations.filter((o) => !tools.has(o.id.replace(/[^A-Za-z0-9_.-]/g, "_")));
    console.log(
      `GitHub through Prism (seed ${seed}): ${operations.length} operations sampled, ${tools.size} imported${
        notImported.length > 0 ? ` (not: ${notImported.map((o) => o.id).join(", ")})` : ""
      }\n${rows.join("\n")}\nknown findings: ${Object.keys(knownFindings).join(", ")}`,
    );
  });

  it("samples operations with path, query and body parameters across tags", () => {
    expect(operations).toHaveLength(sampleSize);
    expect(new Set(operations.map((o) => o.tag)).size).toBeGreaterThanOrEqual(20);
    for (const kind of ["path", "query", "body"] as const)
      expect(operations.filter((o) => o[kind]).length).toBeGreaterThanOrEqual(10);
  });

  it.each(revisions)("every sampled operation over %s: valid at Prism, answered, outputs valid", async (revision) => {
    const loggedBefore = prism.loggedRequestErrors.length;
    const calls = await callEveryTool(project, prism, revision);
    records.set(revision, calls);
    expect(calls.length).toBeGreaterThanOrEqual(50);
    // Every request valid at Prism, the known findings included.
    expect(
      calls.flatMap((c) => c.exchanges.flatMap((e) => e.requestViolations.map((v) => `${c.tool}: ${v.message}`))),
    ).toEqual([]);
    const problems = calls.map((c) => [c.tool, callProblem(c)] as const);
    expect(problems.filter(([tool, problem]) => problem !== undefined && !(tool in knownFindings))).toEqual([]);
    expect(Object.keys(knownFindings).filter((tool) => !problems.some(([called]) => called === tool))).toEqual([]);
    for (const [tool, problem] of problems)
      if (tool in knownFindings) expect(problem).toContain(knownFindings[tool]!.replace("%s", revision));
    expect(prism.loggedRequestErrors.slice(loggedBefore)).toEqual([]);
  });
});
