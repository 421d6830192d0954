// Values a client sent (header values above all), as error messages quote them: cut short, so
// that a 15 KB Origin does not come back as a 15 KB reply. Shared by the transports' guards
// and the MCP header checks, so it belongs to neither layer.

/** Most characters of a quoted value. */
export const EXCERPT_CHARS = 200;

/** `value`, or its first EXCERPT_CHARS characters and an ellipsis. */
export function excerpt(value: string): string {
  return value.length > EXCERPT_CHARS ? `${value.slice(0, EXCERPT_CHARS)}\u2026` : value;
}
