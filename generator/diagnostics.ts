// User-facing problems found while generating. Every phase before `write` reports
// problems as values, never by throwing, so the CLI can print all of them at once
// and exit without touching the output folder.

/** A line for the user on stdout (results), and a message on stderr (problems, progress). */
export const out = (line: string) => process.stdout.write(`${line}\n`);
export const err = (line: string) => process.stderr.write(`mcp-gen: ${line}\n`);

export interface SourceLocation {
  /** Path of the file, as given by the user (relative paths stay relative). */
  readonly file: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly col: number;
}

export interface Diagnostic {
  readonly location: SourceLocation | { readonly file: string };
  /** What is wrong and how to fix it, one sentence or two. */
  readonly message: string;
  /**
   * A warning is printed but does not stop generation (unless `--strict`); absent means
   * an error, which stops the run before anything is written.
   */
  readonly severity?: "warning" | undefined;
}

export const isWarning = (diagnostic: Diagnostic): boolean => diagnostic.severity === "warning";

/** The same problem reported as a warning. */
export const warning = (location: Diagnostic["location"], message: string): Diagnostic => ({
  location,
  message,
  severity: "warning",
});

export function formatLocation(location: Diagnostic["location"]): string {
  return "line" in location ? `${location.file}:${location.line}:${location.col}` : location.file;
}

/** `mcp.yaml:12:5: unknown key "descripton" (did you mean "description"?)`, or `mcp.yaml:3:5: warning: …` */
export function formatDiagnostic(diagnostic: Diagnostic): string {
  return `${formatLocation(diagnostic.location)}: ${isWarning(diagnostic) ? "warning: " : ""}${diagnostic.message}`;
}

/** A diagnostic as `--json` reports it: position fields only when known. */
export const jsonDiagnostic = ({ location, message, severity }: Diagnostic) => ({
  ...location,
  severity: severity ?? "error",
  message,
});

/** Orders diagnostics by file, then position, so output is stable whatever found them first. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(({ location: la, message: ma }, { location: lb, message: mb }) => {
    if (la.file !== lb.file) return la.file < lb.file ? -1 : 1;
    const pa = "line" in la ? la.line * 1e6 + la.col : 0;
    const pb = "line" in lb ? lb.line * 1e6 + lb.col : 0;
    if (pa !== pb) return pa - pb;
    return ma < mb ? -1 : ma > mb ? 1 : 0;
  });
}

/** Damerau-free Levenshtein distance, enough for did-you-mean hints. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}

/** The closest candidate within a distance that scales with the word, or undefined. */
export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** `value` in double quotes, escaped as in JSON; U+2028/U+2029 too, so a message stays on one line. */
export function quote(value: string): string {
  return JSON.stringify(value).replace(/[\u2028\u2029]/g, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"));
}
