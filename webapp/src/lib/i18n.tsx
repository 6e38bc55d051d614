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

// dateTimeWithZone are the options of a time to the minute with its zone
// named ("27 Nov 2026, 06:27 CET"), for tooltips and tables, where the
// reader must know which clock a time is on.
export const dateTimeWithZone: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZoneName: "short",
};

// pageTimeZone is the IANA zone the server resolved for the viewer (their
// own choice, else their company's), so that islands show times on the same
// clock as the server's pages; the browser's zone if the page names none or
// one this browser does not know.
export function pageTimeZone(): string {
  const zone = document.documentElement.dataset.timeZone ?? "";
  if (zone !== "") {
    try {
      new globalThis.Intl.DateTimeFormat("en", { timeZone: zone });
      return zone;
    } catch {
      // An unknown zone: fall through to the browser's.
    }
  }
  return globalThis.Intl.DateTimeFormat().resolvedOptions().timeZone;
}

export async function loadCatalog(): Promise<void> {
  const load = loaders[pageLang()] ?? loaders.en;
  if (load) messages = (await load()).default;
}

export function Intl({ children }: { children: ReactNode }): ReactNode {
  const lang = pageLang();
  return (
    <IntlProvider
      locale={lang === "sv" ? "sv-SE" : "en-GB"}
      messages={messages}
      defaultLocale="en-GB"
      timeZone={pageTimeZone()}
    >
      {children}
    </IntlProvider>
  );
}
