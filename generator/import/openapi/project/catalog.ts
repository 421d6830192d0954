// The few-tools side of a project written by `mcp-gen import openapi --tools catalog`: three
// tools over the API's operations instead of one tool per operation. `find_operations` searches
// them, `describe_operation` gives one's input and output schemas, `call_operation` calls one by
// id once its arguments pass the operation's validator (compiled ahead of time by mcp-gen, like a
// tool's). The operations are data (operations.gen.ts), their `$defs` one table per direction.
// This file is copied into the project verbatim as catalog.gen.ts (its `./request.js` import
// becomes `./request.gen.js`).
import { describeIssue, ErrorCode, RpcError, type ValidationIssue } from "@mcp-gen/runtime";
import { callContent, callJson, type OperationSpec, type Upstream } from "./request.js";

export type JsonSchema = boolean | { readonly [keyword: string]: unknown };
type Validator = (value: unknown) => ValidationIssue | undefined;

/** One operation of the API, as the catalog tools see it. */
export interface CatalogOperation {
  /** Its id: what the tool would be named in the one-tool-per-operation mode. */
  readonly id: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly tags: readonly string[];
  readonly spec: OperationSpec;
  /** Its arguments' schema without `$defs`; `inputDefs` names the entries of the shared table it uses. */
  readonly input: JsonSchema;
  readonly inputDefs: readonly string[];
  readonly output?: JsonSchema | undefined;
  readonly outputDefs?: readonly string[] | undefined;
  /** Checks the arguments and fills in schema defaults. */
  readonly validateInput: Validator;
  readonly validateOutput?: Validator | undefined;
}

export interface Catalog {
  readonly operations: readonly CatalogOperation[];
  /** The `$defs` every input schema shares (readOnly properties left out), and every output schema (writeOnly left out). */
  readonly inputDefs: Readonly<Record<string, JsonSchema>>;
  readonly outputDefs: Readonly<Record<string, JsonSchema>>;
}

type Text = { type: "text"; text: string };
const toolError = (text: string): { content: Text[]; isError: true } => ({
  content: [{ type: "text", text }],
  isError: true,
});

/** At most this many operations per page of find_operations. */
export const maxPageSize = 50;
const defaultPageSize = 20;

/** Lower-case words of a text, camelCase split: `listPets` and "List pets" both read "list pets". */
const words = (text: string) =>
  text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");

/** The searchable text of an operation, field by field, with the weight of a hit in it. */
interface Indexed {
  readonly operation: CatalogOperation;
  readonly fields: readonly (readonly [text: string, weight: number])[];
}

/** One line saying what an operation does: its summary, else its description's first sentence. */
function oneLine(operation: CatalogOperation): string | undefined {
  const text = (operation.title ?? operation.description ?? "").replace(/\s+/g, " ").trim();
  if (text === "") return undefined;
  const sentence = operation.title === undefined ? (/^.*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text) : text;
  return sentence.length > 160 ? `${sentence.slice(0, 159)}…` : sentence;
}

/** The three tools' behaviour over one catalog. */
export class CatalogTools {
  private readonly byId = new Map<string, CatalogOperation>();
  private index: readonly Indexed[] | undefined;

  constructor(
    private readonly catalog: Catalog,
    private readonly upstream: Upstream,
  ) {
    for (const operation of catalog.operations) this.byId.set(operation.id, operation);
  }

  /** find_operations: the operations every word of `query` appears in (best first), of `tag` if given, a page at a time. */
  find(args: {
    readonly query?: string | undefined;
    readonly tag?: string | undefined;
    readonly cursor?: string | undefined;
    readonly limit?: number | undefined;
  }) {
    const offset = args.cursor === undefined ? 0 : Number(args.cursor);
    if (!Number.isSafeInteger(offset) || offset < 0 || String(offset) !== (args.cursor ?? "0"))
      return toolError(`Invalid cursor ${JSON.stringify(args.cursor)}: pass the nextCursor of the previous page`);
    const limit = Math.min(Math.max(Math.trunc(args.limit ?? defaultPageSize), 1), maxPageSize);
    const wanted = words(args.query ?? "");
    const tag = args.tag?.toLowerCase();
    const hits: { operation: CatalogOperation; score: number; order: number }[] = [];
    this.searchIndex().forEach(({ operation, fields }, order) => {
      if (tag !== undefined && !operation.tags.some((t) => t.toLowerCase() === tag)) return;
      let score = 0;
      for (const word of wanted) {
        const best = Math.max(0, ...fields.filter(([text]) => text.includes(word)).map(([, weight]) => weight));
        if (best === 0) return;
        score += best;
      }
      hits.push({ operation, score, order });
    });
    hits.sort((a, b) => b.score - a.score || a.order - b.order);
    const page = hits.slice(offset, offset + limit).map(({ operation }) => {
      const summary = oneLine(operation);
      return {
        id: operation.id,
        method: operation.spec.method.toUpperCase(),
        path: operation.spec.path,
        ...(summary !== undefined && { summary }),
      };
    });
    return {
      structuredContent: {
        operations: page,
        total: hits.length,
        ...(offset + limit < hits.length && { nextCursor: String(offset + limit) }),
      },
    };
  }

  /** describe_operation: what `call_operation` needs to call one operation, and what it answers. */
  describe(args: { readonly id: string }) {
    const operation = this.byId.get(args.id);
    if (operation === undefined) return this.unknown(args.id);
    const { spec } = operation;
    return {
      structuredContent: {
        id: operation.id,
        method: spec.method.toUpperCase(),
        path: spec.path,
        ...(operation.title !== undefined && { title: operation.title }),
        ...(operation.description !== undefined && { description: operation.description }),
        tags: [...operation.tags],
        inputSchema: withDefs(operation.input, operation.inputDefs, this.catalog.inputDefs),
        ...(operation.output !== undefined && {
          outputSchema: withDefs(operation.output, operation.outputDefs ?? [], this.catalog.outputDefs),
        }),
      },
    };
  }

  /**
   * call_operation: the operation's request, once its validator accepts the arguments (nothing
   * is sent otherwise). A JSON answer is checked by the operation's output validator, as a tool's
   * structured result is: one that does not match is an internal error, never an invalid result.
   */
  async call(
    args: { readonly id: string; readonly arguments?: { readonly [name: string]: unknown } | undefined },
    signal: AbortSignal,
  ): ReturnType<typeof callContent> {
    const operation = this.byId.get(args.id);
    if (operation === undefined) return this.unknown(args.id);
    // The validator fills in defaults: it works on a copy of the caller's arguments.
    const given = { ...args.arguments };
    const issue = operation.validateInput(given);
    if (issue !== undefined)
      return toolError(
        `Invalid arguments for operation ${operation.id}: ${describeIssue(issue)}. Nothing was sent; describe_operation gives its input schema.`,
      );
    if (operation.validateOutput === undefined) return callContent(this.upstream, operation.spec, given, signal);
    const answer = await callJson<unknown>(this.upstream, operation.spec, given, signal);
    if ("isError" in answer) return answer;
    const outputIssue = operation.validateOutput(answer.structuredContent);
    if (outputIssue !== undefined)
      throw new RpcError(
        ErrorCode.InternalError,
        `Operation ${operation.id} answered structured content that does not match its output schema: ${describeIssue(outputIssue)}`,
      );
    return { content: [{ type: "text", text: JSON.stringify(answer.structuredContent) }] };
  }

  private unknown(id: string) {
    return toolError(`Unknown operation id ${JSON.stringify(id)}: find_operations lists the operations and their ids`);
  }

  private searchIndex(): readonly Indexed[] {
    this.index ??= this.catalog.operations.map((operation) => ({
      operation,
      fields: [
        [words(operation.id).join(" "), 4],
        [words(operation.title ?? "").join(" "), 3],
        [words(operation.tags.join(" ")).join(" "), 2],
        [words(`${operation.spec.method} ${operation.spec.path}`).join(" "), 2],
        [words(operation.description ?? "").join(" "), 1],
      ] as const,
    }));
    return this.index;
  }
}

/** A schema made whole again: the operation's own, with the shared `$defs` it refers to. */
function withDefs(
  schema: JsonSchema,
  names: readonly string[],
  table: Readonly<Record<string, JsonSchema>>,
): { readonly [keyword: string]: unknown } {
  const root = typeof schema === "boolean" ? (schema ? {} : { not: {} }) : schema;
  if (names.length === 0) return root;
  return { ...root, $defs: Object.fromEntries(names.map((name) => [name, table[name] ?? true])) };
}
