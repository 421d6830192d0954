// The author `init` writes into package.json (`mcp-gen pack` needs one for the .mcpb bundle),
// when this machine already knows it: npm's init-author-* settings (what `npm init` uses; the
// old init.author.* spelling too), else git's user.name and user.email. Read offline, without
// asking; undefined when neither names anyone.
import { execFileSync } from "node:child_process";

/** `command args` run in `cwd`: its stdout, or "" when it fails or is not installed. */
function output(command: string, args: readonly string[], cwd: string): string {
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: "utf8",
      timeout: 15_000,
      stdio: ["ignore", "pipe", "ignore"],
      shell: process.platform === "win32",
    });
  } catch {
    return "";
  }
}

/** npm's settings, `key=value` a line as `npm config get` prints several keys. */
function npmSettings(cwd: string): Map<string, string> {
  const keys = ["name", "email", "url"].flatMap((field) => [`init-author-${field}`, `init.author.${field}`]);
  const lines = output(process.platform === "win32" ? "npm.cmd" : "npm", ["config", "get", ...keys], cwd).split(
    /\r?\n/,
  );
  return new Map(lines.map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1).trim()]));
}

/** npm's "Name <email> (url)" form; a name with those brackets in it would not read back, so none. */
function person(name: string, email: string, url = ""): string | undefined {
  if (name === "" || /[<>()]/.test(name)) return undefined;
  return [name, email === "" ? "" : ` <${email}>`, url === "" ? "" : ` (${url})`].join("");
}

export function knownAuthor(cwd: string): string | undefined {
  const npm = npmSettings(cwd);
  const field = (name: string) => npm.get(`init-author-${name}`) || npm.get(`init.author.${name}`) || "";
  const git = (key: string) => output("git", ["config", key], cwd).trim();
  return person(field("name"), field("email"), field("url")) ?? person(git("user.name"), git("user.email"));
}
