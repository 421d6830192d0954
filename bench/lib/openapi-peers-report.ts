// Renders the rows bench/openapi-peers.ts recorded (bench/.out/peers/*.jsonl) as the Markdown
// tables of bench/openapi-peers.md: a summary per generator, one row per document, the Prism calls
// and every failure grouped by generator and step.
type Row = Record<string, any>;

const median = (values: number[]): number => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "–");
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const cell = (text: string) => text.replaceAll("|", "\\|");

const generated = (r: Row) => r.generate?.exit === 0;
const compiled = (r: Row) => r.tsc?.exit === 0;
const served = (r: Row) => r.serve?.ok === true;

function summary(rows: Row[], names: string[]): string[] {
  const lines = [
    "| generator | generated | generate time, median (total) | strict tsc passes | serves, answers tools/list | SDK's ListToolsResultSchema accepts | tools listed | tools/list per tool, median (all documents pooled) | generated lines, median (total) |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const name of names) {
    const mine = rows.filter((r) => r.generator === name);
    const ok = mine.filter(generated);
    const up = mine.filter(served);
    const tools = sum(up.map((r) => r.serve.tools));
    const bytes = sum(up.map((r) => r.serve.bytes));
    const perTool = up.filter((r) => r.serve.tools > 0).map((r) => r.serve.bytes / r.serve.tools);
    const lines_ = ok.map((r) => r.size.lines);
    lines.push(
      `| ${name} | ${ok.length}/${mine.length} | ${fmt(median(mine.map((r) => r.generate.seconds)))} s (${fmt(sum(mine.map((r) => r.generate.seconds)), 0)} s) | ${mine.filter(compiled).length}/${mine.length} | ${up.length}/${mine.length} | ${up.filter((r) => r.serve.accepted).length}/${mine.length} | ${tools} | ${kb(median(perTool))} (${kb(bytes / tools)}) | ${median(lines_)} (${sum(lines_)}) |`,
    );
  }
  return lines;
}

function perDocument(rows: Row[], names: string[]): string[] {
  const docs = [...new Set(rows.map((r) => r.document as string))];
  const lines = [
    `| document | operations | ${names.map((n) => `${n}: generate s · tsc · lines · tools · bytes/tool`).join(" | ")} |`,
    `|---|---:|${names.map(() => "---").join("|")}|`,
  ];
  for (const doc of docs) {
    const mine = rows.filter((r) => r.document === doc);
    const cells = names.map((name) => {
      const r = mine.find((x) => x.generator === name);
      if (r === undefined) return "not run";
      if (!generated(r)) return `✗ generate (exit ${r.generate.exit}${r.generate.timedOut ? ", timed out" : ""})`;
      const tsc = compiled(r)
        ? "✓"
        : r.tsc.timedOut
          ? "✗ timed out"
          : `✗ ${r.tsc.errors} (${Object.keys(r.tsc.codes).join(", ")})`;
      const serve = served(r)
        ? `${r.serve.tools} · ${r.serve.tools > 0 ? Math.round(r.serve.bytes / r.serve.tools) : "–"} B${r.serve.accepted ? "" : " (**SDK rejects**)"}`
        : "✗ serve";
      return `${fmt(r.generate.seconds, 1)} · ${tsc} · ${r.size.lines} · ${serve}`;
    });
    lines.push(`| ${doc} | ${mine[0]!.operations} | ${cells.join(" | ")} |`);
  }
  return lines;
}

function prism(rows: Row[]): string[] {
  const lines = [
    "| document | generator | tools called | valid at Prism | invalid at Prism | of which only for missing credentials | no request sent | results with isError | results with structuredContent |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of rows) {
    const calls: Row[] = r.calls ?? [];
    const count = (f: (c: Row) => boolean) => calls.filter(f).length;
    lines.push(
      `| ${r.document} | ${r.generator}${r.message ? ` (${cell(r.message.slice(0, 120))})` : ""} | ${calls.length} | ${count((c) => c.outcome === "valid")} | ${count((c) => c.outcome === "invalid")} | ${count((c) => c.securityOnly === true)} | ${count((c) => c.outcome === "no request")} | ${count((c) => c.isError === true)} | ${count((c) => c.structured === true)} |`,
    );
  }
  return lines;
}

function failures(rows: Row[], prismRows: Row[]): string[] {
  const lines: string[] = [];
  for (const r of rows) {
    const where = `${r.generator} · ${r.document}`;
    if (!generated(r))
      lines.push(`- ${where}: generate exit ${r.generate.exit}: \`${cell(r.generate.message ?? "")}\``);
    else {
      if (!compiled(r))
        lines.push(
          `- ${where}: tsc ${r.tsc.timedOut ? "timed out" : `${r.tsc.errors} errors ${JSON.stringify(r.tsc.codes)}`}: \`${cell(r.tsc.first ?? "")}\``,
        );
      if (!served(r)) lines.push(`- ${where}: serve: \`${cell(r.serve?.message ?? "")}\``);
      else if (!r.serve.accepted) lines.push(`- ${where}: SDK rejects tools/list: \`${cell(r.serve.rejection)}\``);
    }
  }
  for (const r of prismRows)
    for (const c of r.calls ?? [])
      if (c.outcome !== "valid")
        lines.push(
          `- Prism · ${r.generator} · ${r.document} · ${c.tool}: ${c.outcome}${c.violations?.length ? ` (\`${cell(c.violations.join("; "))}\`)` : ""}${c.failure ? ` (\`${cell(c.failure)}\`)` : ""}`,
        );
  return lines;
}

export function renderReport(recorded: Row[]): string {
  // A later run of the same document, generator and step replaces an earlier one.
  const latest = new Map(recorded.map((r) => [`${r.document}\0${r.generator}\0${r.prism === true}`, r]));
  const all = [...latest.values()];
  const rows = all.filter((r) => r.prism !== true);
  const prismRows = all.filter((r) => r.prism === true);
  const names = [...new Set(rows.map((r) => r.generator as string))];
  return [
    "## Summary",
    "",
    ...summary(rows, names),
    "",
    "## Calls at Prism",
    "",
    ...prism(prismRows),
    "",
    "## Per document",
    "",
    ...perDocument(rows, names),
    "",
    "## Failures",
    "",
    ...failures(rows, prismRows),
  ].join("\n");
}
