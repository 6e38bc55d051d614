// The islands' messages come from the same catalogs as the server pages
// (webapp/locales), so a text is written once per language. Only the page's
// language is fetched: loadCatalog runs before any island mounts.
import type { ReactNode } from "react";
import { IntlProvider } from "react-intl";
import type { MessageFormatElement } from "react-intl";

type Messages = Record<string, MessageFormatElement[]>;

// The catalogs arrive parsed (see vite.config.ts), so no ICU parser ships.
const loaders: Record<string, () => Promise<{ default: Messages }>> = {
  en: () => import("virtual:catalog/en"),
  sv: () => import("virtual:catalog/sv"),
};

let messages: Messages = {};

// pageLang is the language the server rendered the page in.
export function pageLang(): string {
  const lang = document.documentElement.lang;
  return lang in loaders ? lang : "en";
}

export async function loadCatalog(): Promise<void> {
  const load = loaders[pageLang()] ?? loaders.en;
  if (load) messages = (await load()).default;
}

export function Intl({ children }: { children: ReactNode }): ReactNode {
  const lang = pageLang();
  return (
    <IntlProvider locale={lang === "sv" ? "sv-SE" : "en-GB"} messages={messages} defaultLocale="en-GB">
      {children}
    </IntlProvider>
  );
}
