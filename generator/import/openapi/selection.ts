// Which operations an import takes: `--include`/`--exclude` patterns and deprecated operations.
// Small and dependency-free: the CLI checks patterns with it before loading the importer.

/** `--include`/`--exclude` patterns: `tag:<name>`, `operation:<glob>` (operationId), `path:<glob>`. */
export interface Selection {
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  readonly includeDeprecated: boolean;
}

/** A glob as a regular expression: `*` any characters but `/` (in paths), `**` any, `?` one. */
function globPattern(glob: string, slashes: boolean): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*\*|\*|\?/g, (m) =>
      m === "**" ? ".*" : m === "*" ? (slashes ? "[^/]*" : ".*") : slashes ? "[^/]" : ".",
    );
  return new RegExp(`^${body}$`);
}

/** Why a selection pattern is malformed, or undefined. */
export function selectionProblem(pattern: string): string | undefined {
  return /^(?:tag|operation|path):./.test(pattern)
    ? undefined
    : `${JSON.stringify(pattern)} is not tag:<name>, operation:<glob> or path:<glob>`;
}

export function matches(
  pattern: string,
  operation: { tags: readonly string[]; operationId: string | undefined; path: string },
): boolean {
  const colon = pattern.indexOf(":");
  const [kind, value] = [pattern.slice(0, colon), pattern.slice(colon + 1)];
  if (kind === "tag") return operation.tags.includes(value);
  if (kind === "operation")
    return operation.operationId !== undefined && globPattern(value, false).test(operation.operationId);
  return globPattern(value, true).test(operation.path);
}
