import { defineConfig, type Plugin } from "vite";
import { parse } from "@formatjs/icu-messageformat-parser";
import { readdirSync, readFileSync } from "node:fs";
import react from "@vitejs/plugin-react";
import optimizeLocales from "@react-aria/optimize-locales-plugin";
import { fileURLToPath } from "node:url";

// usedIds collects the quoted strings of the islands' sources: the catalogs
// the browser gets keep only the messages the islands name (literally, as
// FormatJS requires), not those of the server pages.
function usedIds(): Set<string> {
  const ids = new Set<string>();
  const src = fileURLToPath(new URL("./src/", import.meta.url));
  for (const file of readdirSync(src, { recursive: true, encoding: "utf8" })) {
    if (!/\.(ts|tsx)$/.test(file)) continue;
    for (const m of readFileSync(src + file, "utf8").matchAll(/["'`]([a-zA-Z][\w.-]*\.[\w.-]+)["'`]/g)) {
      if (m[1]) ids.add(m[1]);
    }
  }
  return ids;
}

// catalogs serves "virtual:catalog/<lang>": the locale catalog with every
// message already parsed, so the browser needs no ICU parser (react-intl's
// parser is swapped for its no-parser build below).
function catalogs(): Plugin {
  const prefix = "virtual:catalog/";
  return {
    name: "fieldhub-catalogs",
    resolveId: (id) => (id.startsWith(prefix) ? "\0" + id : null),
    load(id) {
      if (!id.startsWith("\0" + prefix)) return null;
      const lang = id.slice(prefix.length + 1);
      if (!/^[a-z]{2}$/.test(lang)) throw new Error(`bad catalog ${lang}`);
      const file = fileURLToPath(new URL(`./locales/${lang}.json`, import.meta.url));
      this.addWatchFile(file);
      const messages = JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
      const used = usedIds();
      const parsed = Object.fromEntries(
        Object.entries(messages)
          .filter(([k]) => used.has(k))
          .map(([k, v]) => [k, parse(v)]),
      );
      return `export default ${JSON.stringify(parsed)};`;
    },
  };
}

// Two entries: "page" (htmx, the frame's behaviour and the stylesheet) on every
// server page, and "islands", a small loader that imports an island's chunk only
// when the page has an element for it. The Go server reads the manifest to emit
// the hashed file names.
export default defineConfig({
  plugins: [
    catalogs(),
    react(),
    // React Aria ships its built-in strings for 34 languages; keep ours.
    { ...optimizeLocales.vite({ locales: ["en-GB", "en-US", "sv-SE"] }), enforce: "pre" },
  ],
  base: "/assets/",
  resolve: {
    alias: [
      { find: /^@\//, replacement: fileURLToPath(new URL("./src/", import.meta.url)) },
      { find: /^@formatjs\/icu-messageformat-parser$/, replacement: "@formatjs/icu-messageformat-parser/no-parser.js" },
    ],
  },
  build: {
    outDir: "dist",
    assetsDir: "",
    manifest: true,
    emptyOutDir: false,
    sourcemap: false,
    rollupOptions: {
      input: {
        page: "src/page/main.ts",
        islands: "src/islands/index.ts",
      },
      onwarn(warning, warn) {
        // htmx evaluates hx-on attributes by design; the warning is about that.
        if (warning.code === "EVAL" && warning.id?.includes("htmx.org")) return;
        warn(warning);
      },
    },
  },
  server: { port: 5173, strictPort: true, origin: "http://localhost:5173" },
});
