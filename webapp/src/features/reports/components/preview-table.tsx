// PreviewTable shows the first rows of a report (POST /report/preview).
import type { ReactNode } from "react";
import { defineMessages, useIntl, type NoMessageValues } from "react-intl";
import type { Preview } from "@/features/reports/api/reports";
import { dateTimeWithZone } from "@/lib/i18n";

const messages = defineMessages<{ time: NoMessageValues; empty: NoMessageValues }>({
  time: { id: "reports.sheet.time", defaultMessage: "Time" },
  empty: { id: "reports.noData", defaultMessage: "There was no data found in the selected time span" },
});

export function PreviewTable({ preview }: { preview: Preview }): ReactNode {
  const intl = useIntl();
  if (preview.rows.length === 0) return <p className="empty">{intl.formatMessage(messages.empty)}</p>;
  return (
    <div className="table-scroll" role="region" aria-labelledby="report-preview-caption" tabIndex={0}>
      <table className="list">
        <caption id="report-preview-caption">{preview.node}</caption>
        <thead>
          <tr>
            <th scope="col">{intl.formatMessage(messages.time)}</th>
            {preview.columns.map((c) => (
              <th scope="col" key={c}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {preview.rows.map((r) => (
            <tr key={r.time}>
              <th scope="row">{intl.formatDate(r.time, dateTimeWithZone)}</th>
              {r.values.map((v, i) => (
                <td key={i}>{v === null ? "–" : typeof v === "number" ? intl.formatNumber(v) : v}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
