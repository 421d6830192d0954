// The lint gate for hand-written code (`npm run lint`, run by .ci/run): a few rules, each one
// catching a real bug, with type information from tsconfig.json (`npm run lint` builds the
// runtime's declarations first: tests import `@mcp-gen/runtime`, whose types live in
// runtime/dist). Layout is Prettier's job (`npm run format:check`). Generated code is never
// linted: the printer lays it out, and the golden trees and `mcp-gen --check` pin it.
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";

/** Generated trees, build output and scratch folders: not hand-written. */
const generated = [
  "**/*.gen.ts",
  "examples/*/src/mcp/**",
  "bench/workload/mcp/**",
  "test/conformance/server/mcp/**",
  "test/interop/everything/mcp/**",
  "test/golden/*/expected/**",
  "**/dist/**",
  "**/node_modules/**",
  "**/.out/**",
  "**/.tmp/**",
  "fuzz/failures/**",
  // Outside tsconfig.json (they import packages of their own or are built for a browser), so
  // there is no type information to lint them with.
  "test/**/fixtures/**",
  "test/support/apps-host/**",
  "examples/*/ui/**",
];

export default defineConfig(
  { ignores: generated },
  {
    files: ["{generator,runtime,test,bench,fuzz,scripts,examples}/**/*.ts"],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "@typescript-eslint": tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // A promise nobody awaits or catches is an unhandled rejection waiting to happen.
      "@typescript-eslint/no-floating-promises": "error",
      // An async function where a void callback is expected (an event listener, forEach) loses its rejection.
      "@typescript-eslint/no-misused-promises": "error",
      // `await` on something that is not a promise is a mistake about what a call returns.
      // Handlers may answer with a value or a promise: Promise.all over a mix of both is fine.
      "@typescript-eslint/await-thenable": ["error", { allowMixedPromiseArrays: true }],
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          args: "after-used",
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrors: "none",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
      // Most files mix values and types in one import, so fixes write `import { x, type T }`.
      // `typeof import("yaml")` stays allowed: it names the type of a module loaded lazily.
      "@typescript-eslint/consistent-type-imports": [
        "error",
        { fixStyle: "inline-type-imports", disallowTypeAnnotations: false },
      ],
      "no-fallthrough": "error",
      "no-unsafe-finally": "error",
      eqeqeq: ["error", "smart"],
    },
  },
);
