// ReportExport is the export dialog of /report: nodes and keys, a date
// range (the shared date-range picker), type and format; "Download" saves
// the file, or says that the range holds no data or that the download
// failed (SPEC.md section 8).
import { useState, type ReactNode } from "react";
import { defineMessages, useIntl, type NoMessageValues } from "react-intl";
import { Dialog, DialogHeading } from "@/components/ui/dialog";
import { Modal } from "@/components/ui/modal";
import { DateRangePicker, type RangeDetail } from "@/components/date-range-picker/date-range-picker";
import { presetRange } from "@/components/date-range-picker/range";
import { exportFile, saveBlob, type NodeChoice, type ReportType, type Resolution } from "@/features/reports/api/reports";
import { Selection } from "@/features/reports/components/selection";
import { ApiError } from "@/lib/api";
import "@/features/reports/components/reports.css";

const messages = defineMessages<{
  open: NoMessageValues;
  title: NoMessageValues;
  range: NoMessageValues;
  type: NoMessageValues;
  regular: NoMessageValues;
  trend: NoMessageValues;
  hour: NoMessageValues;
  day: NoMessageValues;
  resolution: NoMessageValues;
  format: NoMessageValues;
  download: NoMessageValues;
  downloading: NoMessageValues;
  cancel: NoMessageValues;
  noData: NoMessageValues;
  failed: NoMessageValues;
  choose: NoMessageValues;
}>({
  open: { id: "reports.export.open", defaultMessage: "Export" },
  title: { id: "reports.export.title", defaultMessage: "Export data" },
  range: { id: "reports.export.range", defaultMessage: "Time span" },
  type: { id: "reports.editor.type", defaultMessage: "Type" },
  regular: { id: "reports.type.regular", defaultMessage: "Regular" },
  trend: { id: "reports.type.trend", defaultMessage: "Trend" },
  hour: { id: "reports.resolution.hour", defaultMessage: "Per hour" },
  day: { id: "reports.resolution.day", defaultMessage: "Per day" },
  resolution: { id: "reports.editor.resolution", defaultMessage: "Trend per" },
  format: { id: "reports.export.format", defaultMessage: "Format" },
  download: { id: "reports.export.download", defaultMessage: "Download" },
  downloading: { id: "reports.export.downloading", defaultMessage: "Preparing the file…" },
  cancel: { id: "page.tag.common.cancel", defaultMessage: "Cancel" },
  noData: { id: "reports.noData", defaultMessage: "There was no data found in the selected time span" },
  failed: { id: "reports.fetchFailed", defaultMessage: "The report could not be fetched, try again later!" },
  choose: { id: "reports.export.choose", defaultMessage: "Choose at least one node and one key" },
});

export function ReportExport({ nodes }: { nodes: NodeChoice[] }): ReactNode {
  const intl = useIntl();
  const [isOpen, setOpen] = useState(false);
  const [chosenNodes, setChosenNodes] = useState<number[]>([]);
  const [chosenKeys, setChosenKeys] = useState<string[]>([]);
  const [range, setRange] = useState(() => presetRange("24h", new Date()));
  const [type, setType] = useState<ReportType>("regular");
  const [resolution, setResolution] = useState<Resolution>("hour");
  const [format, setFormat] = useState<"xlsx" | "csv">("xlsx");
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState("");

  const onRange = (d: RangeDetail) => setRange({ from: new Date(d.from), to: new Date(d.to), preset: d.preset });

  const onDownload = async () => {
    if (chosenNodes.length === 0 || chosenKeys.length === 0) {
      setAlert(intl.formatMessage(messages.choose));
      return;
    }
    setBusy(true);
    setAlert("");
    try {
      const { blob, name } = await exportFile({
        nodes: chosenNodes,
        keys: chosenKeys,
        from: range.from.toISOString(),
        to: range.to.toISOString(),
        type,
        format,
        resolution,
      });
      saveBlob(blob, name);
      setOpen(false);
    } catch (err) {
      setAlert(intl.formatMessage(err instanceof ApiError && err.status === 404 ? messages.noData : messages.failed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" className="button secondary" onClick={() => setOpen(true)}>
        <span className="mdi mdi-download" aria-hidden="true" /> {intl.formatMessage(messages.open)}
      </button>
      <Modal overlayClassName="fh-report-overlay" className="fh-report-modal" isOpen={isOpen} onOpenChange={setOpen} isDismissable={!busy}>
        <Dialog className="fh-report-dialog">
          <DialogHeading className="fh-report-dialog__title">{intl.formatMessage(messages.title)}</DialogHeading>
          <div className="fh-report">
            <Selection
              idPrefix="export"
              nodes={nodes}
              chosenNodes={chosenNodes}
              chosenKeys={chosenKeys}
              onNodes={setChosenNodes}
              onKeys={setChosenKeys}
            />
            <div className="fh-report__field">
              <span className="fh-report__label">{intl.formatMessage(messages.range)}</span>
              <DateRangePicker preset="24h" onRangeChange={onRange} />
            </div>
            <div className="fh-report__row">
              <div className="fh-report__field">
                <label htmlFor="export-type">{intl.formatMessage(messages.type)}</label>
                <select id="export-type" value={type} onChange={(e) => setType(e.target.value === "trend" ? "trend" : "regular")}>
                  <option value="regular">{intl.formatMessage(messages.regular)}</option>
                  <option value="trend">{intl.formatMessage(messages.trend)}</option>
                </select>
              </div>
              {type === "trend" ? (
                <div className="fh-report__field">
                  <label htmlFor="export-resolution">{intl.formatMessage(messages.resolution)}</label>
                  <select id="export-resolution" value={resolution} onChange={(e) => setResolution(e.target.value === "day" ? "day" : "hour")}>
                    <option value="hour">{intl.formatMessage(messages.hour)}</option>
                    <option value="day">{intl.formatMessage(messages.day)}</option>
                  </select>
                </div>
              ) : null}
              <div className="fh-report__field">
                <label htmlFor="export-format">{intl.formatMessage(messages.format)}</label>
                <select id="export-format" value={format} onChange={(e) => setFormat(e.target.value === "csv" ? "csv" : "xlsx")}>
                  <option value="xlsx">Excel (.xlsx)</option>
                  <option value="csv">CSV (.csv)</option>
                </select>
              </div>
            </div>
            <div aria-live="polite">
              {alert ? (
                <p className="fh-report__alert" role="alert">
                  {alert}
                </p>
              ) : null}
            </div>
            <div className="fh-report__actions">
              {/* aria-disabled, not disabled: the button keeps the focus while the file is made. */}
              <button type="button" className="button" onClick={() => !busy && void onDownload()} aria-disabled={busy}>
                {busy ? intl.formatMessage(messages.downloading) : intl.formatMessage(messages.download)}
              </button>
              <button type="button" className="button secondary" onClick={() => setOpen(false)} disabled={busy}>
                {intl.formatMessage(messages.cancel)}
              </button>
            </div>
          </div>
        </Dialog>
      </Modal>
    </>
  );
}
