// mount renders the export dialog's button into its island element; props:
// {companyId, nodes}.
import { createRoot } from "react-dom/client";
import { Intl } from "@/lib/i18n";
import { ReportExport } from "@/features/reports/components/report-export";
import { readNodes } from "@/features/reports/api/reports";

export function mount(el: HTMLElement, props: unknown): void {
  const p = (typeof props === "object" && props !== null ? props : {}) as Record<string, unknown>;
  createRoot(el).render(
    <Intl>
      <ReportExport nodes={readNodes(p.nodes)} />
    </Intl>,
  );
}
