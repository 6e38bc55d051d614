// ReportEditor is the island of /report/create and /report/{id}: a report
// subscription's name, type (and a trend's resolution), tempo, reference
// date, nodes and keys, contacts, and a preview of the first rows of its
// last period.
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { defineMessages, useIntl, type NoMessageValues } from "react-intl";
import {
  fetchReport,
  previewReport,
  reportErrorIds,
  saveReport,
  type NodeChoice,
  type Preview,
  type ReportType,
  type Resolution,
  type Tempo,
} from "@/features/reports/api/reports";
import { Selection } from "@/features/reports/components/selection";
import { PreviewTable } from "@/features/reports/components/preview-table";
import { fieldErrors, serverMessage, translator } from "@/lib/api-error";
import { toastOnNextPage } from "@/lib/toast";
import "@/features/reports/components/reports.css";

const messages = defineMessages<{
  loading: NoMessageValues;
  loadFailed: NoMessageValues;
  retry: NoMessageValues;
  name: NoMessageValues;
  type: NoMessageValues;
  regular: NoMessageValues;
  trend: NoMessageValues;
  resolution: NoMessageValues;
  hour: NoMessageValues;
  day: NoMessageValues;
  tempo: NoMessageValues;
  daily: NoMessageValues;
  weekly: NoMessageValues;
  monthly: NoMessageValues;
  refrenceDate: NoMessageValues;
  refrenceHint: NoMessageValues;
  contacts: NoMessageValues;
  contactsHint: NoMessageValues;
  create: NoMessageValues;
  save: NoMessageValues;
  saving: NoMessageValues;
  created: NoMessageValues;
  saved: NoMessageValues;
  preview: NoMessageValues;
  previewHint: NoMessageValues;
  showPreview: NoMessageValues;
  generic: NoMessageValues;
}>({
  loading: { id: "reports.editor.loading", defaultMessage: "Loading the report…" },
  loadFailed: { id: "reports.editor.loadFailed", defaultMessage: "The report could not be loaded" },
  retry: { id: "reports.editor.retry", defaultMessage: "Try again" },
  name: { id: "reports.editor.name", defaultMessage: "Name" },
  type: { id: "reports.editor.type", defaultMessage: "Type" },
  regular: { id: "reports.type.regular", defaultMessage: "Regular" },
  trend: { id: "reports.type.trend", defaultMessage: "Trend" },
  resolution: { id: "reports.editor.resolution", defaultMessage: "Trend per" },
  hour: { id: "reports.resolution.hour", defaultMessage: "Per hour" },
  day: { id: "reports.resolution.day", defaultMessage: "Per day" },
  tempo: { id: "reports.editor.tempo", defaultMessage: "Interval" },
  daily: { id: "reports.tempo.0", defaultMessage: "Daily" },
  weekly: { id: "reports.tempo.1", defaultMessage: "Weekly" },
  monthly: { id: "reports.tempo.2", defaultMessage: "Monthly" },
  refrenceDate: { id: "reports.editor.refrenceDate", defaultMessage: "Reference date" },
  refrenceHint: { id: "reports.editor.refrenceHint", defaultMessage: "The first day the report covers, YYYY-MM-DD; empty is today" },
  contacts: { id: "reports.editor.contacts", defaultMessage: "Send to" },
  contactsHint: { id: "reports.editor.contactsHint", defaultMessage: "E-mail addresses, one per line" },
  create: { id: "reports.editor.create", defaultMessage: "Create report" },
  save: { id: "reports.editor.save", defaultMessage: "Save" },
  saving: { id: "reports.editor.saving", defaultMessage: "Saving…" },
  created: { id: "reports.editor.created", defaultMessage: "The report was created" },
  saved: { id: "reports.editor.saved", defaultMessage: "The report was saved" },
  preview: { id: "reports.editor.preview", defaultMessage: "Preview" },
  previewHint: { id: "reports.editor.previewHint", defaultMessage: "The first rows of the last period" },
  showPreview: { id: "reports.editor.showPreview", defaultMessage: "Show the first rows" },
  generic: { id: "error.generic", defaultMessage: "An error occured, try again later" },
});

export interface ReportEditorProps {
  companyId: number;
  reportId?: number;
  nodes: NodeChoice[];
}

const periodMs: Record<Tempo, number> = { 0: 864e5, 1: 7 * 864e5, 2: 31 * 864e5 };

type Load = { state: "loading" } | { state: "failed" } | { state: "ready" };

export function ReportEditor({ reportId, nodes }: ReportEditorProps): ReactNode {
  const intl = useIntl();
  const translate = translator(intl, reportErrorIds);
  const [load, setLoad] = useState<Load>(reportId ? { state: "loading" } : { state: "ready" });
  const [name, setName] = useState("");
  const [type, setType] = useState<ReportType>("regular");
  const [resolution, setResolution] = useState<Resolution>("hour");
  const [tempo, setTempo] = useState<Tempo>(2);
  const [refrenceDate, setRefrenceDate] = useState("");
  const [contacts, setContacts] = useState("");
  const [chosenNodes, setChosenNodes] = useState<number[]>([]);
  const [chosenKeys, setChosenKeys] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [alert, setAlert] = useState("");
  const [preview, setPreview] = useState<Preview | null>(null);
  const [previewing, setPreviewing] = useState(false);

  useEffect(() => {
    if (!reportId || load.state !== "loading") return;
    fetchReport(reportId)
      .then((r) => {
        setName(r.name);
        setType(r.type);
        setResolution(r.resolution);
        setTempo(r.tempo);
        setRefrenceDate(r.refrenceDate);
        setContacts(r.reportContacts.join("\n"));
        setChosenNodes(r.nodes);
        setChosenKeys(r.keys);
        setLoad({ state: "ready" });
      })
      .catch(() => setLoad({ state: "failed" }));
  }, [reportId, load.state]);

  const body = () => ({
    name,
    type,
    tempo,
    refrenceDate,
    resolution,
    reportContacts: contacts.split(/[\n,;]+/).map((c) => c.trim()).filter(Boolean),
    nodes: chosenNodes,
    keys: chosenKeys,
  });

  const onSave = async (e: React.FormEvent) => {
    e.preventDefault();
    setSaving(true);
    setAlert("");
    try {
      await saveReport(reportId, body());
      toastOnNextPage("success", intl.formatMessage(reportId ? messages.saved : messages.created));
      window.location.assign("/report");
    } catch (err) {
      const fe = fieldErrors(err, translate);
      setErrors(fe);
      setAlert(Object.keys(fe).length ? "" : (serverMessage(err, translate) ?? intl.formatMessage(messages.generic)));
      setSaving(false);
    }
  };

  const onPreview = useCallback(async () => {
    setPreviewing(true);
    setAlert("");
    const to = new Date();
    try {
      setPreview(
        await previewReport({
          nodes: chosenNodes,
          keys: chosenKeys,
          type,
          resolution,
          format: "xlsx",
          from: new Date(to.getTime() - periodMs[tempo]).toISOString(),
          to: to.toISOString(),
        }),
      );
      setErrors({});
    } catch (err) {
      setErrors(fieldErrors(err, translate));
      setAlert(serverMessage(err, translate) ?? intl.formatMessage(messages.generic));
    } finally {
      setPreviewing(false);
    }
  }, [chosenNodes, chosenKeys, type, resolution, tempo, translate, intl]);

  if (load.state === "loading") return <p className="muted">{intl.formatMessage(messages.loading)}</p>;
  if (load.state === "failed") {
    return (
      <div className="fh-report__alert" role="alert">
        <p>{intl.formatMessage(messages.loadFailed)}</p>
        <button type="button" className="button secondary" onClick={() => setLoad({ state: "loading" })}>
          {intl.formatMessage(messages.retry)}
        </button>
      </div>
    );
  }

  const err = (field: string) => (errors[field] ? { "aria-invalid": true, "aria-describedby": `report-${field}-error` } : {});
  const errorText = (field: string) =>
    errors[field] ? (
      <p id={`report-${field}-error`} className="fh-report__error">
        {errors[field]}
      </p>
    ) : null;

  return (
    <form className="fh-report" onSubmit={(e) => void onSave(e)} noValidate>
      <div className="fh-report__row">
        <div className="fh-report__field fh-report__field--grow">
          <label htmlFor="report-name">{intl.formatMessage(messages.name)}</label>
          <input id="report-name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={255} autoComplete="off" {...err("name")} />
          {errorText("name")}
        </div>
        <div className="fh-report__field">
          <label htmlFor="report-type">{intl.formatMessage(messages.type)}</label>
          <select id="report-type" value={type} onChange={(e) => setType(e.target.value === "trend" ? "trend" : "regular")} {...err("type")}>
            <option value="regular">{intl.formatMessage(messages.regular)}</option>
            <option value="trend">{intl.formatMessage(messages.trend)}</option>
          </select>
          {errorText("type")}
        </div>
        {type === "trend" ? (
          <div className="fh-report__field">
            <label htmlFor="report-resolution">{intl.formatMessage(messages.resolution)}</label>
            <select id="report-resolution" value={resolution} onChange={(e) => setResolution(e.target.value === "day" ? "day" : "hour")}>
              <option value="hour">{intl.formatMessage(messages.hour)}</option>
              <option value="day">{intl.formatMessage(messages.day)}</option>
            </select>
          </div>
        ) : null}
        <div className="fh-report__field">
          <label htmlFor="report-tempo">{intl.formatMessage(messages.tempo)}</label>
          <select id="report-tempo" value={tempo} onChange={(e) => setTempo(Number(e.target.value) as Tempo)} {...err("tempo")}>
            <option value={0}>{intl.formatMessage(messages.daily)}</option>
            <option value={1}>{intl.formatMessage(messages.weekly)}</option>
            <option value={2}>{intl.formatMessage(messages.monthly)}</option>
          </select>
          {errorText("tempo")}
        </div>
        <div className="fh-report__field">
          <label htmlFor="report-refrence">{intl.formatMessage(messages.refrenceDate)}</label>
          {/* A text field, not type="date": its segments are one element that Tab
              stops at three times, and the server takes YYYY-MM-DD. */}
          <input id="report-refrence" inputMode="numeric" placeholder="YYYY-MM-DD" maxLength={10} autoComplete="off" value={refrenceDate} onChange={(e) => setRefrenceDate(e.target.value)} aria-describedby="report-refrence-hint" {...err("refrenceDate")} />
          <small id="report-refrence-hint" className="muted">
            {intl.formatMessage(messages.refrenceHint)}
          </small>
          {errorText("refrenceDate")}
        </div>
      </div>
      <Selection
        idPrefix="report"
        nodes={nodes}
        chosenNodes={chosenNodes}
        chosenKeys={chosenKeys}
        onNodes={setChosenNodes}
        onKeys={setChosenKeys}
        nodesError={errors.nodes}
        keysError={errors.keys}
      />
      <div className="fh-report__field">
        <label htmlFor="report-contacts">{intl.formatMessage(messages.contacts)}</label>
        <textarea id="report-contacts" rows={3} value={contacts} onChange={(e) => setContacts(e.target.value)} aria-describedby="report-contacts-hint" {...err("reportContacts")} />
        <small id="report-contacts-hint" className="muted">
          {intl.formatMessage(messages.contactsHint)}
        </small>
        {errorText("reportContacts")}
      </div>
      <div className="fh-report__actions">
        <button type="submit" className="button" disabled={saving}>
          {saving ? intl.formatMessage(messages.saving) : intl.formatMessage(reportId ? messages.save : messages.create)}
        </button>
        <button type="button" className="button secondary" onClick={() => void onPreview()} disabled={previewing}>
          {intl.formatMessage(messages.showPreview)}
        </button>
      </div>
      <div aria-live="polite">
        {alert ? (
          <p className="fh-report__alert" role="alert">
            {alert}
          </p>
        ) : null}
      </div>
      {preview ? (
        <section aria-labelledby="report-preview-heading">
          <h2 id="report-preview-heading">{intl.formatMessage(messages.preview)}</h2>
          <p className="muted">{intl.formatMessage(messages.previewHint)}</p>
          <PreviewTable preview={preview} />
        </section>
      ) : null}
    </form>
  );
}
