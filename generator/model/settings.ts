// `settings:` of the manifest: what the person installing the server configures, each read by
// the server from one environment variable. The model checks what the schema cannot: a
// default of the setting's type, `secret` on strings only, and one variable per setting.
import { quote, type Diagnostic } from "../diagnostics.js";
import { childPointer, type PositionIndex } from "../load/source.js";
import { optional, str } from "./declarations.js";
import type { JsonObject, SettingModel, SettingType } from "./types.js";

/** The environment variable a setting defaults to: its key in upper case. */
export const defaultEnvName = (key: string): string => key.toUpperCase();

/** The JSON type a default of each setting type has. */
const defaultTypes: Record<SettingType, "string" | "number" | "boolean"> = { string: "string", number: "number", boolean: "boolean", directory: "string", file: "string" };

/** Settings in manifest order, but for those whose shape is `broken`; problems go to `diagnostics`. */
export function buildSettings(declared: JsonObject | undefined, positions: PositionIndex, broken: ReadonlySet<string>, diagnostics: Diagnostic[]): SettingModel[] {
  const settings: SettingModel[] = [];
  // Windows reads environment variable names case-insensitively: API_KEY and api_key are one.
  const byEnv = new Map<string, string>();
  for (const [key, value] of Object.entries(declared ?? {})) {
    const pointer = childPointer("/settings", key);
    if (broken.has(pointer)) continue;
    const decl = value as JsonObject;
    const type = (str(decl, "type") ?? "string") as SettingType;
    const env = str(decl, "env") ?? defaultEnvName(key);
    const secret = decl.secret === true;
    const fallback = decl.default as string | number | boolean | undefined;
    if (fallback !== undefined && typeof fallback !== defaultTypes[type]) {
      diagnostics.push({ location: positions.value(childPointer(pointer, "default")), message: `setting ${quote(key)} is of type ${type}, so its default must be a ${defaultTypes[type]}` });
    }
    if (secret && type !== "string") {
      diagnostics.push({ location: positions.value(childPointer(pointer, "secret")), message: `setting ${quote(key)} is of type ${type}; only string settings can be secret` });
    }
    const clash = byEnv.get(env.toUpperCase());
    if (clash !== undefined) {
      diagnostics.push({ location: positions.key(str(decl, "env") === undefined ? pointer : childPointer(pointer, "env")), message: `settings ${quote(clash)} and ${quote(key)} both use the environment variable ${env}; give one another \`env\`` });
    }
    byEnv.set(env.toUpperCase(), key);
    settings.push({
      key,
      title: str(decl, "title") ?? key,
      description: str(decl, "description") ?? "",
      env,
      type,
      required: decl.required === true,
      secret,
      ...optional("default", fallback),
    });
  }
  return settings;
}
