// Lint: typescript-eslint's type-checked rules over every TypeScript file of the repository (`npm run lint`, run by
// `npm test`). Formatting is Prettier's (`.prettierrc.json`), so no stylistic rule is enabled here.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist/",
      "node_modules/",
      ".vitest/",
      "bench/results/",
      "client/api.generated.ts",
      "**/*.js",
      "**/*.mjs",
      "**/*.cjs",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Ports return promises; an adapter or fake that answers synchronously (SQLite, memory) implements them as
      // `async` methods without an await, which is the point of the port, not a mistake.
      "@typescript-eslint/require-await": "off",
      // Names, paths and search terms refuse control characters, so those patterns name them on purpose.
      "no-control-regex": "off",
      "no-duplicate-imports": "error",
      "@typescript-eslint/no-non-null-assertion": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
    },
  },
  {
    files: ["test/**/*.ts"],
    rules: {
      // vitest's asymmetric matchers (expect.any(String), expect.stringMatching(...)) are typed `any` so that they fit
      // any expected field; nearly every finding of this rule in tests is one of them.
      "@typescript-eslint/no-unsafe-assignment": "off",
      // Tests hand a port's methods to expect(), spies and cleanup lists without calling them.
      "@typescript-eslint/unbound-method": "off",
    },
  },
);
