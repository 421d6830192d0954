// Build step (`npm run build`): compiles the ajv validators the generator uses on every
// run — the manifest schema's and the two JSON Schema meta-schemas' — into ./ajv-seed/
// next to the built ajv-cache module, so that no run, not even a machine's first, loads
// ajv's compiler for them. Run as `node dist/generator/validate/seed-ajv.js`.
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { metaValidator } from "./json-schema.js";
import { compiledValidator } from "./manifest-shape.js";

const seed = fileURLToPath(new URL("./ajv-seed/", import.meta.url));
// Seeds are keyed by schema digest: drop those of earlier builds (an edited manifest schema).
rmSync(seed, { recursive: true, force: true });
compiledValidator(seed);
metaValidator("draft-07", seed);
metaValidator("2020-12", seed);
