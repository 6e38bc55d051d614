// mount renders the dashboard into its island element. The server pages
// /dashboard/{id} and /public/{id} give the props {dashboardId, companyId,
// canEdit, canRun, publicToken, tileUrl}; see DashboardProps.
import { createRoot } from "react-dom/client";
import { Intl, pageTimeZone } from "@/lib/i18n";
import { DashboardBoard, type DashboardProps } from "@/features/dashboards/components/dashboard";

export function mount(el: HTMLElement, props: unknown): void {
  const p = readProps(props);
  if (!p) {
    console.error("dashboard: props need a positive dashboardId or a publicToken", props);
    return;
  }
  try {
    createRoot(el).render(
      <Intl>
        <DashboardBoard {...p} />
      </Intl>,
    );
  } catch (err) {
    console.error("dashboard: mount failed", err);
  }
}

const positive = (v: unknown): number => (typeof v === "number" && Number.isSafeInteger(v) && v > 0 ? v : 0);

// readProps keeps the props that have the right type. A tile URL must be an
// http(s) or protocol-relative template; anything else is dropped, and the
// map then draws its markers without tiles.
export function readProps(raw: unknown): DashboardProps | null {
  if (typeof raw !== "object" || raw === null) return null;
  const p = raw as Record<string, unknown>;
  const publicToken = typeof p.publicToken === "string" ? p.publicToken : "";
  const dashboardId = positive(p.dashboardId);
  if (!dashboardId && !publicToken) return null;
  const tile = typeof p.tileUrl === "string" ? p.tileUrl.trim() : "";
  return {
    dashboardId,
    companyId: positive(p.companyId),
    canEdit: p.canEdit === true,
    canRun: p.canRun === true,
    publicToken,
    tileUrl: /^(https?:)?\/\//.test(tile) || tile.startsWith("/") ? tile : "",
    timeZone: typeof p.timeZone === "string" && p.timeZone !== "" ? p.timeZone : pageTimeZone(),
    name: typeof p.name === "string" ? p.name : "",
  };
}
