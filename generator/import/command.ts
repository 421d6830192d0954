// The `import` command's yargs definition, kept apart from cli.ts: `mcp-gen import openapi
// <file|url>`. The importer itself (and its parser) loads only when the command runs.
import type { Argv, CommandModule } from "yargs";
import { selectionProblem } from "./openapi/selection.js";

/** The command; `setAction` receives the run, which cli.ts starts once yargs found no usage error. */
export function importCommand(
  setAction: (run: () => Promise<number>) => void,
  version: () => string,
): CommandModule<object, never> {
  return {
    command: "import <format> <source>",
    describe: "Write an mcp-gen project whose tools call an HTTP API, from its OpenAPI 3.0/3.1 or Swagger 2.0 document",
    builder: (y: Argv) =>
      y
        .positional("format", { type: "string", choices: ["openapi"], describe: "what the document is" })
        .positional("source", {
          type: "string",
          demandOption: true,
          describe: "the document: a file or an http(s) URL, JSON or YAML",
        })
        .option("out", {
          type: "string",
          default: ".",
          describe: "project folder to write (rewrites only files an import wrote; keeps src/handlers.ts)",
        })
        .option("name", { type: "string", describe: "server name (default: from the document's title)" })
        .option("include", {
          type: "string",
          array: true,
          default: [],
          describe:
            "import only operations matching one of these: tag:<name>, operation:<operationId glob>, path:<path glob>",
        })
        .option("exclude", {
          type: "string",
          array: true,
          default: [],
          describe: "leave out operations matching one of these (same forms as --include)",
        })
        .option("include-deprecated", { type: "boolean", default: false, describe: "import deprecated operations too" })
        .option("tools", {
          type: "string",
          choices: ["operations", "catalog"],
          default: "operations",
          describe:
            "operations: one tool per operation; catalog: three tools (find_operations, describe_operation, call_operation), for large APIs",
        })
        .option("check", {
          type: "boolean",
          default: false,
          describe: "write nothing; exit 1 listing the imported files the document (or these options) would change",
        })
        .option("allow-ref", {
          type: "string",
          array: true,
          default: [],
          describe:
            "let the document's external $refs also read this folder or URL prefix (by default: JSON/YAML files in the document's folder tree and public http(s) URLs; from a URL document, its own origin)",
        })
        .option("quiet", { alias: "q", type: "boolean", default: false, describe: "print only errors and warnings" })
        .example("$0 import openapi petstore.yaml --out petstore", "a project in ./petstore, one tool per operation")
        .example(
          "$0 import openapi api.json --include tag:repos --exclude 'operation:*Legacy*'",
          "only the repos tag, without the legacy operations",
        )
        .example("$0 import openapi github.json --out github --tools catalog", "three tools over every operation")
        .example("$0 import openapi ../api.yaml --check", "in CI: exit 1 when the document changed the project")
        .check((a) => {
          for (const pattern of [...(a.include as string[]), ...(a.exclude as string[])]) {
            const problem = selectionProblem(pattern);
            if (problem !== undefined) throw new Error(problem);
          }
          return true;
        }) as unknown as Argv<never>,
    handler: (a: Record<string, unknown>) => {
      setAction(async () =>
        (await import("./openapi/run.js")).runImportOpenApi({
          source: a.source as string,
          out: a.out as string,
          name: a.name as string | undefined,
          include: a.include as string[],
          exclude: a.exclude as string[],
          includeDeprecated: a.includeDeprecated as boolean,
          quiet: a.quiet as boolean,
          mcpGenVersion: version(),
          tools: a.tools as "operations" | "catalog",
          check: a.check as boolean,
          allowRefs: a.allowRef as string[],
        }),
      );
    },
  };
}
