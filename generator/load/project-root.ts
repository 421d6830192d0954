// The project root (the folder holding the manifest) and whether a folder a manifest names
// stays inside it: `output`, which generate writes, and `protocolSchemas`, which schema fetch writes.
import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";

/**
 * The project root is the folder holding the manifest. `mcp-gen init` puts mcp.yaml next to
 * package.json, and every relative path in a manifest (`output`, `$ref`) is already read
 * from that folder, so it is the one place a manifest's author and its user agree on without
 * searching the file system. (The nearest ancestor with a package.json was the alternative;
 * it would let a manifest from elsewhere write anywhere below a stray package.json, e.g. one in
 * the home folder.) The check compares real paths: a symbolic link inside the project that
 * leads out of it counts as outside.
 */
export function outsideProjectRoot(root: string, out: string): { real: string; through: boolean } | undefined {
  const inside = (parent: string, child: string) => {
    const rel = relative(parent, child);
    return rel === "" || (!isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${sep}`));
  };
  const realRoot = realPath(root);
  const realOut = realPath(out);
  if (inside(realRoot, realOut)) return undefined;
  return { real: realOut, through: inside(root, out) };
}

/** `path` through every symbolic link of its nearest existing ancestor, the rest as written. */
function realPath(path: string): string {
  const rest: string[] = [];
  for (let at = path; ; at = dirname(at)) {
    try {
      return join(realpathSync.native(at), ...rest);
    } catch {
      if (dirname(at) === at) return path;
      rest.unshift(basename(at));
    }
  }
}
