// mount renders the report editor into its island element; props:
// {companyId, reportId?, nodes} (ReportEditorProps).
import { createRoot } from "react-dom/client";
import { Intl } from "@/lib/i18n";
import { ReportEditor, type ReportEditorProps } from "@/features/reports/components/report-editor";
import { readNodes } from "@/features/reports/api/reports";

const positive = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v > 0;

export function mount(el: HTMLElement, props: unknown): void {
  const p = (typeof props === "object" && props !== null ? props : {}) as Record<string, unknown>;
  if (!positive(p.companyId)) {
    console.error("report-editor: props need a positive integer companyId", props);
    return;
  }
  const out: ReportEditorProps = { companyId: p.companyId, nodes: readNodes(p.nodes) };
  if (positive(p.reportId)) out.reportId = p.reportId;
  createRoot(el).render(
    <Intl>
      <ReportEditor {...out} />
    </Intl>,
  );
}
