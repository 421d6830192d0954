// Reading an http(s) URL for the importer (the document, or one of its external `$ref`s) within
// bounds: a size cap, a time limit over the whole answer, a few redirects each judged by the caller,
// and, unless the caller allows them, no connection to a private, loopback or link-local address.
// node:http rather than fetch(): its `lookup` hook sees every address a connection is about to
// use, so a host that resolves (or re-resolves, DNS rebinding) to an internal address is refused.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { BlockList, isIP } from "node:net";

/** A fetch the importer will not make (or finish): the reason is for the user. */
export class FetchRefused extends Error {}
/** The refusal to connect to an internal address (which `--allow-ref` can lift). */
export class InternalAddress extends FetchRefused {
  constructor(
    message: string,
    /** The origin refused. */
    readonly origin: string,
  ) {
    super(message);
  }
}

const internal = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3], // multicast, reserved, broadcast
] as const)
  internal.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 96], // unspecified, loopback, IPv4-compatible
  ["64:ff9b::", 96], // NAT64 (an IPv4 address inside)
  ["64:ff9b:1::", 48],
  ["2001::", 32], // Teredo
  ["2002::", 16], // 6to4
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
] as const)
  internal.addSubnet(net, prefix, "ipv6");

/** Whether an IP address is a public one (IPv4-mapped IPv6 addresses are judged as IPv4). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && !internal.check(address, family === 4 ? "ipv4" : "ipv6");
}

const internalAddress = (host: string, address: string) =>
  `${host}${host === address ? "" : ` resolves to ${address}, which`} is a private, loopback or link-local address`;

export interface FetchBounds {
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

/** What a redirect may do: follow (allowing private addresses or not), or be refused with a reason. */
export type RedirectDecision = { readonly privateOk: boolean } | { readonly refused: string };

export interface Fetched {
  readonly text: string;
  /** The URL answered, after redirects. */
  readonly url: string;
  /** Whether the answer came from a private, loopback or link-local address. */
  readonly fromPrivate: boolean;
}

const maxRedirects = 5;

/** The answer's body as text (UTF-8) after redirects; throws FetchRefused or another Error with a reason. */
export async function fetchBounded(
  url: URL,
  privateOk: boolean,
  bounds: FetchBounds,
  redirect: (to: URL) => RedirectDecision,
): Promise<Fetched> {
  let current = url;
  let allowPrivate = privateOk;
  for (let hops = 0; ; hops++) {
    const answer = await get(current, allowPrivate, bounds).catch((error: unknown) => {
      if (hops === 0 || !(error instanceof FetchRefused)) throw error;
      const message = `redirected to ${current.href}: ${error.message}`;
      throw error instanceof InternalAddress ? new InternalAddress(message, error.origin) : new FetchRefused(message);
    });
    if (!("location" in answer)) return { text: answer.text, url: current.href, fromPrivate: answer.fromPrivate };
    if (hops === maxRedirects) throw new FetchRefused(`more than ${maxRedirects} redirects`);
    const to = new URL(answer.location, current);
    if (to.protocol !== "http:" && to.protocol !== "https:")
      throw new FetchRefused(`redirected to ${to.href}, which is no http(s) URL`);
    const decision = redirect(to);
    if ("refused" in decision) throw new FetchRefused(`redirected to ${to.href}: ${decision.refused}`);
    current = to;
    allowPrivate = decision.privateOk;
  }
}

type Answer = { text: string; fromPrivate: boolean } | { location: string };

function get(url: URL, privateOk: boolean, bounds: FetchBounds): Promise<Answer> {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  // A literal address never goes through `lookup`.
  if (!privateOk && isIP(host) !== 0 && !isPublicAddress(host))
    return Promise.reject(new InternalAddress(internalAddress(host, host), url.origin));
  return new Promise((resolve, reject) => {
    let refusal: string | undefined;
    const guarded = (hostname: string, options: LookupOptions, callback: LookupCallback) =>
      dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
        if (error) return callback(error, "", 4);
        const blocked = addresses.find((a) => !isPublicAddress(a.address));
        if (blocked !== undefined) {
          refusal = internalAddress(hostname, blocked.address);
          return callback(new InternalAddress(refusal, url.origin), "", 4);
        }
        if (options.all === true) return (callback as unknown as AllCallback)(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      });
    let settled = false;
    const settle = (fail?: Error, answer?: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (fail === undefined) resolve(answer!);
      else {
        request.destroy();
        reject(fail);
      }
    };
    const timer = setTimeout(
      () => settle(new FetchRefused(`no complete answer within ${bounds.timeoutMs / 1000} s`)),
      bounds.timeoutMs,
    );
    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(
      url,
      {
        headers: { accept: "application/json, application/yaml, text/yaml, */*;q=0.5" },
        ...(!privateOk && { lookup: guarded as never }),
      },
      (response: IncomingMessage) => {
        const fromPrivate = !isPublicAddress(response.socket?.remoteAddress ?? "");
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (status >= 300 && status < 400 && location !== undefined) {
          response.resume();
          return settle(undefined, { location });
        }
        if (status < 200 || status >= 300) {
          response.resume();
          return settle(new Error(`HTTP ${status}${response.statusMessage ? ` ${response.statusMessage}` : ""}`));
        }
        const tooLarge = () =>
          new FetchRefused(`its answer is larger than ${bounds.maxBytes.toLocaleString("en")} bytes`);
        if (Number(response.headers["content-length"]) > bounds.maxBytes) return settle(tooLarge());
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > bounds.maxBytes) settle(tooLarge());
          else chunks.push(chunk);
        });
        response.on("error", (error) => settle(error));
        response.on("end", () => settle(undefined, { text: Buffer.concat(chunks).toString("utf8"), fromPrivate }));
      },
    );
    request.on("error", (error) => settle(refusal === undefined ? error : new InternalAddress(refusal, url.origin)));
    request.end();
  });
}

type LookupCallback = (error: Error | null, address: string, family: number) => void;
type AllCallback = (error: Error | null, addresses: LookupAddress[]) => void;
