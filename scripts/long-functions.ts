// Lists the functions longer than a limit (default 100 lines, from the line of their name to
// their closing brace) in the hand-written code of generator/ and runtime/, longest first:
// `npx tsx scripts/long-functions.ts [limit] [folder or file..]`. A report for reviewers, not a gate:
// a data table may be long and stay.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

const root = join(import.meta.dirname, "..");
const [limitArg, ...folderArgs] = process.argv.slice(2);
const limit = limitArg === undefined ? 100 : Number(limitArg);
const folders = folderArgs.length > 0 ? folderArgs : ["generator", "runtime"];

function* sources(folder: string): Generator<string> {
  if (statSync(folder).isFile()) {
    yield folder;
    return;
  }
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory() && entry.name !== "dist" && entry.name !== "node_modules") yield* sources(path);
    else if (
      entry.isFile() &&
      entry.name.endsWith(".ts") &&
      !entry.name.endsWith(".gen.ts") &&
      !entry.name.endsWith(".d.ts")
    )
      yield path;
  }
}

/** A function's name as a reader finds it: its own, its variable's or property's, else `(anonymous)`. */
function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name !== undefined) return node.name.getText();
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) &&
    parent.name !== undefined
  )
    return parent.name.getText();
  return "(anonymous)";
}

const long: { where: string; name: string; lines: number }[] = [];
for (const folder of folders) {
  for (const path of sources(join(root, folder))) {
    const file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
        const declaration = node as ts.FunctionLikeDeclaration;
        const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
        const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = last - first + 1;
        if (lines > limit)
          long.push({ where: `${relative(root, path)}:${first + 1}`, name: nameOf(declaration), lines });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
}
long.sort((a, b) => b.lines - a.lines || a.where.localeCompare(b.where));
for (const { where, name, lines } of long) console.log(`${String(lines).padStart(5)}  ${name}  ${where}`);
console.log(`${long.length} function(s) over ${limit} lines in ${folders.join(", ")}`);
