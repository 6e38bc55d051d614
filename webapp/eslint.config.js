// The linter of webapp/src: TypeScript and React hooks rules, and the
// boundaries of the feature structure (see src/islands/index.ts): a feature
// imports only itself, the shared components and lib; components and lib
// import no feature; the islands loader and the page script import no
// component; React Aria Components are used through components/ui only.
//
// typescript-eslint parses with the TypeScript compiler's JavaScript API,
// which TypeScript 7 (the native compiler that `tsc` here is) no longer
// ships, and it accepts TypeScript below 6.1 only. The linter therefore
// loads TypeScript 5.9 under the npm alias "typescript-5", used by nothing
// else: the redirect below sends the linter's require("typescript") there,
// and package.json's override lets typescript-eslint's peer range accept the
// project's TypeScript 7 at install time. The rules need no type
// information, so the program that TypeScript 5 would build is never made.
import Module from "node:module";

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const redirected = request === "typescript" || request.startsWith("typescript/") ? request.replace(/^typescript/, "typescript-5") : request;
  return resolveFilename.call(this, redirected, ...rest);
};

const { default: js } = await import("@eslint/js");
const { default: tseslint } = await import("typescript-eslint");
const { default: reactHooks } = await import("eslint-plugin-react-hooks");
const { default: boundaries } = await import("eslint-plugin-boundaries");

// Imports go through @/ (src/), and to a module itself: there are no barrel
// (index re-export) files.
const importPatterns = [
  { regex: "^\\.{1,2}/", message: "Import through @/ (src/)." },
  { regex: "^@/(.*/)?index$", message: "No barrel files: import the module itself." },
];
// React Aria Components come in through the wrappers in components/ui; what
// draws nothing (providers, hooks, types) may be imported anywhere.
const reactAria = {
  name: "react-aria-components",
  allowImportNames: ["I18nProvider", "useDragAndDrop", "parseColor", "Collection"],
  allowTypeImports: true,
  message: "Use the wrappers in @/components/ui.",
};

const element = (type, captured) => ({ element: captured ? { type, captured } : { type } });

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "e2e/", "scripts/", "public/", "ui/", "*.config.*"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The rules of hooks. The React Compiler's rules of the recommended
    // preset (refs, set-state-in-effect, purity, ...) are left off: the
    // islands are not compiled by it, and they keep the latest props in refs
    // and set loading states in effects on purpose.
    files: ["src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "warn" },
  },
  {
    files: ["src/**/*.{ts,tsx}"],
    languageOptions: {
      parserOptions: { ecmaFeatures: { jsx: true } },
    },
    plugins: { boundaries },
    settings: {
      "import/resolver": { typescript: { project: "./tsconfig.json" } },
      "boundaries/elements": [
        { type: "islands", pattern: "src/islands", partialMatch: false },
        { type: "page", pattern: "src/page", partialMatch: false },
        { type: "styles", pattern: "src/styles", partialMatch: false },
        { type: "feature", pattern: "src/features/*", partialMatch: false, capture: ["feature"] },
        { type: "components", pattern: "src/components", partialMatch: false },
        { type: "lib", pattern: "src/lib", partialMatch: false },
      ],
    },
    rules: {
      "boundaries/dependencies": [
        "error",
        {
          default: "disallow",
          checkUnknownLocals: true,
          policies: [
            { from: element("islands"), allow: [{ to: element("feature") }, { to: element("lib") }] },
            { from: element("page"), allow: [{ to: element("lib") }, { to: element("styles") }] },
            {
              from: element("feature"),
              allow: [
                { to: element("feature", { feature: "{{ from.element.captured.feature }}" }) },
                { to: element("components") },
                { to: element("lib") },
              ],
            },
            { from: element("components"), allow: [{ to: element("components") }, { to: element("lib") }] },
            { from: element("lib"), allow: [{ to: element("lib") }] },
          ],
        },
      ],
      "@typescript-eslint/no-restricted-imports": ["error", { patterns: importPatterns, paths: [reactAria] }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
    },
  },
  {
    // The wrappers are where React Aria Components come in.
    files: ["src/components/ui/**/*.{ts,tsx}"],
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: importPatterns }] },
  },
);
