// WWW-Authenticate parsing (RFC 9110 section 11.6.1): a header holds one or more challenges,
// each a scheme followed by auth-params (name=token or name="quoted string"). Enough of
// the grammar for Bearer challenges (RFC 6750, RFC 9728 resource_metadata).

export interface Challenge {
  /** The auth scheme as sent (compare case-insensitively). */
  readonly scheme: string;
  /** Auth-params by lower-cased name. */
  readonly params: Readonly<Record<string, string>>;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;

export function parseWwwAuthenticate(header: string): Challenge[] {
  const challenges: { scheme: string; params: Record<string, string> }[] = [];
  let current: { scheme: string; params: Record<string, string> } | undefined;
  let i = 0;
  const skip = (pattern: RegExp) => {
    while (i < header.length && pattern.test(header[i]!)) i++;
  };
  const token = (): string | undefined => {
    const match = TOKEN.exec(header.slice(i));
    if (!match) return undefined;
    i += match[0].length;
    return match[0];
  };
  while (i < header.length) {
    skip(/[\s,]/);
    if (i >= header.length) break;
    const name = token();
    if (name === undefined) {
      i++; // Not a token (a stray token68 "=", say): skip it.
      continue;
    }
    skip(/[ \t]/);
    if (header[i] === "=" && current) {
      i++;
      skip(/[ \t]/);
      let value = "";
      if (header[i] === '"') {
        for (i++; i < header.length && header[i] !== '"'; i++) {
          if (header[i] === "\\" && i + 1 < header.length) i++;
          value += header[i];
        }
        i++;
      } else value = token() ?? "";
      current.params[name.toLowerCase()] = value;
    } else {
      current = { scheme: name, params: {} };
      challenges.push(current);
    }
  }
  return challenges;
}

/** The Bearer challenge of a response, if it has one. */
export function bearerChallenge(response: Response): Challenge | undefined {
  const header = response.headers.get("www-authenticate");
  return header === null ? undefined : parseWwwAuthenticate(header).find((c) => c.scheme.toLowerCase() === "bearer");
}

/** Splits a space-delimited scope string (RFC 6749 section 3.3). */
export function scopeList(scope: string | undefined): string[] {
  return scope === undefined ? [] : scope.split(/\s+/).filter((s) => s !== "");
}
