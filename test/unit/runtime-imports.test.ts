// The runtime ships with zero dependencies: walk its import graph from the public
// entry points and fail on any import that is not a relative module of the runtime
// (or, for the Node entry only, a node: built-in).
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/paths.js";

function imports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      found.push(node.moduleSpecifier.text);
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    )
      found.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function walk(entry: string): { files: Set<string>; external: string[] } {
  const files = new Set<string>();
  const external: string[] = [];
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const specifier of imports(file)) {
      if (specifier.startsWith(".")) queue.push(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
      else external.push(`${file.slice(repoRoot.length + 1)} imports ${specifier}`);
    }
  }
  return { files, external };
}

describe("runtime import graph", () => {
  it("@mcp-gen/runtime imports no package and no Node built-in (it runs on edge platforms too)", () => {
    const { files, external } = walk(join(repoRoot, "runtime", "index.ts"));
    expect(files.size).toBeGreaterThan(10);
    expect(external).toEqual([]);
  });

  it("@mcp-gen/runtime/node imports only node: built-ins besides the runtime", () => {
    const { external } = walk(join(repoRoot, "runtime", "node.ts"));
    expect(external.filter((e) => !/ imports node:[a-z_/]+$/.test(e))).toEqual([]);
  });

  it("the optional entry points import only their named peer dependency: @mcp-gen/runtime/jwt jose, @mcp-gen/runtime/oauth oauth4webapi", () => {
    const only = (entry: string, dependency: string) =>
      walk(join(repoRoot, "runtime", entry)).external.filter((e) => !e.endsWith(` imports ${dependency}`));
    expect(only("jwt.ts", "jose")).toEqual([]);
    expect(only("oauth.ts", "oauth4webapi")).toEqual([]);
  });

  it("runtime sources are ASCII only (one non-ASCII character makes V8 hold and scan a whole bundle as two-byte text)", () => {
    const files = [
      ...walk(join(repoRoot, "runtime", "index.ts")).files,
      ...walk(join(repoRoot, "runtime", "node.ts")).files,
    ];
    const offending = files.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, i) => (/[^\x00-\x7f]/.test(line) ? [`${file.slice(repoRoot.length + 1)}:${i + 1}`] : [])),
    );
    expect(offending).toEqual([]);
  });

  it("runtime/package.json is @mcp-gen/runtime: no dependencies, optional peers only for the entries that import them", () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, "runtime", "package.json"), "utf8")) as RuntimePackage;
    expect(pkg.name).toBe("@mcp-gen/runtime");
    expect(pkg.sideEffects).toBe(false);
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(Object.keys(pkg.peerDependencies ?? {}).sort()).toEqual(["jose", "oauth4webapi"]);
    expect(pkg.peerDependenciesMeta).toEqual({ jose: { optional: true }, oauth4webapi: { optional: true } });
    // Every entry point is one of the sources walked above, built into dist/ with its types.
    const entries = Object.fromEntries(Object.entries(pkg.exports).filter(([key]) => key !== "./package.json"));
    expect(entries).toEqual({
      ".": { types: "./dist/index.d.ts", default: "./dist/index.js" },
      "./node": { types: "./dist/node.d.ts", default: "./dist/node.js" },
      "./jwt": { types: "./dist/jwt.d.ts", default: "./dist/jwt.js" },
      "./oauth": { types: "./dist/oauth.d.ts", default: "./dist/oauth.js" },
    });
  });

  it("the generator package (the root) neither serves the runtime nor carries it", () => {
    const root = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as RuntimePackage & {
      version: string;
      files: string[];
    };
    const runtime = JSON.parse(readFileSync(join(repoRoot, "runtime", "package.json"), "utf8")) as RuntimePackage & {
      version: string;
    };
    expect(runtime.version).toBe(root.version);
    expect(Object.keys(root.exports).filter((key) => key.includes("runtime"))).toEqual([]);
    expect(root.files.filter((pattern) => pattern.includes("runtime"))).toEqual([]);
    expect(Object.keys(root.dependencies ?? {})).not.toContain("@mcp-gen/runtime");
  });
});

interface RuntimePackage {
  name: string;
  sideEffects?: boolean;
  exports: Record<string, unknown>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}
