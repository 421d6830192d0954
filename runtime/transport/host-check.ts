// DNS-rebinding protection shared by the HTTP bindings: the Host header must name an allowed
// host, and a browser's Origin an allowed origin (by default, http(s) on an allowed host).

import { excerpt } from "../excerpt.js";

/** Host names accepted by default: the loopback names a local server is reached under. */
export const defaultHosts: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

export interface HostCheckOptions {
  readonly allowedHosts?: readonly string[] | "any" | undefined;
  readonly allowedOrigins?: readonly string[] | "any" | undefined;
}

export class HostCheck {
  readonly hosts: readonly string[] | "any";
  private readonly origins: readonly string[] | "any";
  private readonly listedOrigins: readonly string[] | "any";

  constructor(options: HostCheckOptions) {
    this.hosts = options.allowedHosts ?? defaultHosts;
    this.origins = options.allowedOrigins ?? (this.hosts === "any" ? "any" : []);
    this.listedOrigins = options.allowedOrigins ?? [];
  }

  /**
   * Whether a browser page on `origin` may read the replies (CORS): only origins listed in
   * `allowedOrigins` (or all, when it is "any"). An origin accepted by default (a loopback
   * page, or any origin when every host is allowed) may send, but gets no CORS headers.
   */
  sharesWith(origin: string): boolean {
    return this.listedOrigins === "any" || this.listedOrigins.includes(origin);
  }

  /** Why the Host header is refused, if it is. */
  hostProblem(host: string | undefined): string | undefined {
    if (this.hosts === "any") return undefined;
    const hostname = host?.replace(/:\d+$/, "").toLowerCase();
    if (hostname !== undefined && this.hosts.includes(hostname)) return undefined;
    // Deployed under a real name, the usual cause is the default allow-list: say how to extend it.
    const hint =
      this.hosts === defaultHosts && hostname !== undefined
        ? `; serving as ${excerpt(hostname)}? pass allowedHosts: ["${excerpt(hostname.replace(/[^a-z0-9.\-[\]:]/g, ""))}"] to the HTTP binding`
        : "";
    return `Forbidden: Host ${host === undefined ? "(missing)" : `'${excerpt(host)}'`} is not allowed${hint}`;
  }

  /** Why the Origin header (sent by browsers) is refused, if it is. */
  originProblem(origin: string | undefined): string | undefined {
    if (origin === undefined || this.origins === "any") return undefined;
    let allowed = this.origins.includes(origin);
    if (!allowed && this.hosts !== "any") {
      try {
        const url = new URL(origin);
        allowed =
          (url.protocol === "http:" || url.protocol === "https:") && this.hosts.includes(url.hostname.toLowerCase());
      } catch {
        allowed = false;
      }
    }
    return allowed ? undefined : `Forbidden: Origin '${excerpt(origin)}' is not allowed`;
  }
}
