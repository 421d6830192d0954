// What the nginx tests share: finding a Debian program, a free loopback port, waiting for a
// child process to be ready, nginx with a configuration of the test's own (the deployment
// guide's, say), and nginx as a round-robin proxy in front of several server instances
// (loopback only), stamping each response with the upstream that served it (X-Upstream) so
// that a test can see requests spread over the instances.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { stopChild } from "./helpers.js";

/** `name` on PATH, else the first of `fallbacks` that exists; undefined when nowhere. */
export function findProgram(name: string, fallbacks: readonly string[]): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return fallbacks.find((path) => existsSync(path));
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once `ready()` is true; rejects when `child` exits first or 15 s pass. */
export async function waitFor(
  what: string,
  ready: () => Promise<boolean>,
  child: ChildProcess,
  log: () => string | Promise<string>,
): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${what} exited (${child.signalCode ?? child.exitCode}):\n${await log()}`);
    if (await ready().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} did not start within 15 s:\n${await log()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** nginx in the foreground with its files in `dir`; `http` is the inside of its http block. */
function mainConfig(dir: string, http: string): string {
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${http}
}
`;
}

function roundRobin(listen: number, upstreams: readonly string[]): string {
  return `  upstream mcp {
${upstreams.map((u) => `    server ${u};`).join("\n")}
  }
  server {
    listen 127.0.0.1:${listen};
    location /mcp {
      proxy_pass http://mcp;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header Connection "";
      proxy_buffering off;
      proxy_next_upstream off;
      add_header X-Upstream $upstream_addr always;
    }
  }`;
}

export interface Nginx {
  stop(): Promise<void>;
}

/**
 * nginx serving `http` (the inside of an http block), resolved once `ready()` is true.
 * nginx is required: without it (on PATH or /usr/sbin/nginx; Debian package nginx-light,
 * which .ci/run installs) this throws.
 */
export async function startNginx(http: string, what: string, ready: () => Promise<boolean>): Promise<Nginx> {
  const nginxPath = findProgram("nginx", ["/usr/sbin/nginx"]);
  if (!nginxPath) {
    throw new Error(
      "nginx is not installed (neither `nginx` on PATH nor /usr/sbin/nginx): install the Debian package nginx-light (.ci/run does)",
    );
  }
  const dir = await mkdtemp(join(tmpdir(), "mcp-gen-nginx-"));
  // nginx workers drop to an unprivileged user when started as root: let them in.
  await chmod(dir, 0o755);
  for (const sub of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) await mkdir(join(dir, sub));
  await writeFile(join(dir, "nginx.conf"), mainConfig(dir, http));
  const nginx = spawn(nginxPath, ["-p", dir, "-c", join(dir, "nginx.conf")], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  nginx.stdout!.on("data", (c: Buffer) => (output += c.toString("utf8")));
  nginx.stderr!.on("data", (c: Buffer) => (output += c.toString("utf8")));
  const stop = async () => {
    await stopChild(nginx);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const log = async () => `${output}\n${await readFile(join(dir, "error.log"), "utf8").catch(() => "")}`;
    await waitFor(what, ready, nginx, log);
  } catch (error) {
    await stop();
    throw error;
  }
  return { stop };
}

export interface NginxProxy {
  /** The proxied MCP endpoint, http://127.0.0.1:<port>/mcp. */
  readonly url: string;
  stop(): Promise<void>;
}

/** nginx round-robin over `upstreams` (host:port each); see startNginx. */
export async function startNginxProxy(upstreams: readonly string[]): Promise<NginxProxy> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const nginx = await startNginx(roundRobin(port, upstreams), `nginx on ${url}`, () =>
    fetch(url, { method: "GET" }).then((r) => r.headers.has("x-upstream")),
  );
  return { url, stop: () => nginx.stop() };
}
