// Support for validators that mcp-gen compiles from JSON Schema at generation time.
// Generated validators are plain functions; this module holds only what they share.

/** The first reason a value does not match its schema. */
export interface ValidationIssue {
  /** JSON pointer to the offending value inside the validated instance ("" for the root). */
  readonly path: string;
  /** What is wrong, e.g. "must be >= 1" or "must have required property 'city'". */
  readonly message: string;
}

/**
 * A compiled validator: returns undefined when `value` matches, else the first issue.
 * Validators that apply schema defaults fill missing properties of `value` in place.
 */
export type Validator = (value: unknown) => ValidationIssue | undefined;

/** `/days must be >= 1` */
export function describeIssue(issue: ValidationIssue): string {
  return issue.path === "" ? issue.message : `${issue.path} ${issue.message}`;
}

/** Structural equality of JSON values, as JSON Schema's `const`, `enum` and `uniqueItems` define it. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** String length in Unicode code points, which is what minLength/maxLength count. */
export function codePointLength(value: string): number {
  let length = 0;
  for (let i = 0; i < value.length; i++) {
    length++;
    const code = value.charCodeAt(i);
    // A high surrogate followed by a low one is a single code point.
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return length;
}

/** Escapes a property name for use as a JSON pointer token in issue paths. */
export function pointerToken(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}
