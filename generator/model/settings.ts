// `settings:` of the manifest: what the person installing the server configures, each read by
// the server from one environment variable. The model checks what the schema cannot: a
// default of the setting's type, `secret` on strings only, and one variable per setting.
import { quote, type Diagnostic } from "../diagnostics.js";
import { childPointer, type PositionIndex } from "../load/source.js";
import type { ManifestSetting } from "../manifest.gen.js";
import { optional } from "./declarations.js";
import type { SettingModel, SettingType } from "./types.js";

/** The environment variable a setting defaults to: its key in upper case. */
export const defaultEnvName = (key: string): string => key.toUpperCase();

/** The JSON type a default of each setting type has. */
const defaultTypes: Record<SettingType, "string" | "number" | "boolean"> = {
  string: "string",
  number: "number",
  boolean: "boolean",
  directory: "string",
  file: "string",
};

/** Settings in manifest order; problems go to `diagnostics`. */
export function buildSettings(
  declared: Readonly<Record<string, ManifestSetting>> | undefined,
  positions: PositionIndex,
  diagnostics: Diagnostic[],
): SettingModel[] {
  const settings: SettingModel[] = [];
  // Windows reads environment variable names case-insensitively: API_KEY and api_key are one.
  const byEnv = new Map<string, string>();
  for (const [key, decl] of Object.entries(declared ?? {})) {
    const pointer = childPointer("/settings", key);
    const type = decl.type ?? "string";
    const env = decl.env ?? defaultEnvName(key);
    const secret = decl.secret === true;
    const fallback = decl.default;
    if (fallback !== undefined && typeof fallback !== defaultTypes[type]) {
      diagnostics.push({
        location: positions.value(childPointer(pointer, "default")),
        message: `setting ${quote(key)} is of type ${type}, so its default must be a ${defaultTypes[type]}`,
      });
    }
    if (secret && type !== "string") {
      diagnostics.push({
        location: positions.value(childPointer(pointer, "secret")),
        message: `setting ${quote(key)} is of type ${type}; only string settings can be secret`,
      });
    }
    const clash = byEnv.get(env.toUpperCase());
    if (clash !== undefined) {
      diagnostics.push({
        location: positions.key(decl.env === undefined ? pointer : childPointer(pointer, "env")),
        message: `settings ${quote(clash)} and ${quote(key)} both use the environment variable ${env}; give one another \`env\``,
      });
    }
    byEnv.set(env.toUpperCase(), key);
    settings.push({
      key,
      title: decl.title ?? key,
      description: decl.description,
      env,
      type,
      required: decl.required === true,
      secret,
      ...optional("default", fallback),
    });
  }
  return settings;
}
