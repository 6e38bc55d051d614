// ScriptEditor is the island of /script/create and /script/{id}: a script's
// name, type, interval, bound node and switch, its language and code
// (JavaScript in the decoders' code editor, or a compiled WebAssembly
// module chosen as a .wasm file), the test pane (the result, the writes and
// sends it would do, and its console output) and, for a saved script, "Run
// now" and its run history.
import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from "react";
import { defineMessages, useIntl, type NoMessageValues } from "react-intl";
import { CodeEditor } from "@/components/code-editor/code-editor";
import { Button } from "@/components/ui/button";
import { FileTrigger } from "@/components/ui/file-trigger";
import { base64Size, toBase64 } from "@/lib/base64";
import {
  fetchRuns,
  fetchScript,
  runScript,
  saveScript,
  scriptErrorIds,
  testScript,
  type Outcome,
  type Run,
  type ScriptInput,
  type ScriptType,
  type TestCode,
} from "@/features/scripts/api/scripts";
import { ResultPane } from "@/features/scripts/components/result-pane";
import { fieldErrors, serverMessage, translator } from "@/lib/api-error";
import { toastOnNextPage } from "@/lib/toast";
import "@/features/scripts/components/scripts.css";

const messages = defineMessages<Record<string, NoMessageValues>>({
  loading: { id: "scripts.editor.loading", defaultMessage: "Loading the script…" },
  loadFailed: { id: "scripts.editor.loadFailed", defaultMessage: "The script could not be loaded" },
  name: { id: "scripts.editor.name", defaultMessage: "Name" },
  type: { id: "scripts.editor.type", defaultMessage: "Type" },
  type0: { id: "scripts.type.0", defaultMessage: "Looping" },
  type1: { id: "scripts.type.1", defaultMessage: "Invoked" },
  type2: { id: "scripts.type.2", defaultMessage: "Triggered" },
  interval: { id: "scripts.editor.interval", defaultMessage: "Interval (seconds)" },
  boundTag: { id: "scripts.editor.boundTag", defaultMessage: "Triggering node" },
  noNode: { id: "scripts.editor.noNode", defaultMessage: "No node" },
  enabled: { id: "scripts.editor.enabled", defaultMessage: "Enabled" },
  code: { id: "scripts.editor.code", defaultMessage: "Script" },
  codeHint: {
    id: "scripts.editor.codeHint",
    defaultMessage: "JavaScript: trigger, latest, range, write, downlink, notify, mail, sms and log; return a result. Escape leaves the editor.",
  },
  create: { id: "scripts.editor.create", defaultMessage: "Create script" },
  save: { id: "scripts.editor.save", defaultMessage: "Save" },
  saving: { id: "scripts.editor.saving", defaultMessage: "Saving…" },
  created: { id: "scripts.editor.created", defaultMessage: "The script was created" },
  saved: { id: "scripts.editor.saved", defaultMessage: "The script was saved" },
  test: { id: "scripts.editor.test", defaultMessage: "Test" },
  testing: { id: "scripts.editor.testing", defaultMessage: "Testing…" },
  testHint: {
    id: "scripts.editor.testHint",
    defaultMessage: "A test runs the script once against the company's data; its writes and sends are shown, not done.",
  },
  run: { id: "scripts.editor.run", defaultMessage: "Run now" },
  running: { id: "scripts.editor.running", defaultMessage: "Running…" },
  testResult: { id: "scripts.editor.testResult", defaultMessage: "Test result" },
  runResult: { id: "scripts.editor.runResult", defaultMessage: "Run result" },
  history: { id: "scripts.editor.history", defaultMessage: "Run history" },
  noRuns: { id: "scripts.editor.noRuns", defaultMessage: "The script has not run yet" },
  started: { id: "scripts.runs.started", defaultMessage: "Started" },
  cause: { id: "scripts.runs.cause", defaultMessage: "Cause" },
  loop: { id: "scripts.cause.loop", defaultMessage: "Interval" },
  invoke: { id: "scripts.cause.invoke", defaultMessage: "Invoked" },
  trigger: { id: "scripts.cause.trigger", defaultMessage: "Uplink" },
  duration: { id: "scripts.runs.duration", defaultMessage: "Duration (ms)" },
  outcome: { id: "scripts.runs.outcome", defaultMessage: "Result or error" },
  actions: { id: "scripts.runs.actions", defaultMessage: "Writes and sends" },
  generic: { id: "error.generic", defaultMessage: "An error occured, try again later" },
  language: { id: "scripts.editor.language", defaultMessage: "Language" },
  langJS: { id: "scripts.editor.langJS", defaultMessage: "JavaScript" },
  langWasm: { id: "scripts.editor.langWasm", defaultMessage: "Compiled (WebAssembly module)" },
  wasmHint: {
    id: "scripts.editor.wasmHint",
    defaultMessage:
      "A WebAssembly module built with the Go SDK (sdk/script, see examples/script): it sees the same trigger, reads, writes and sends as JavaScript, under the same limits.",
  },
  uploadWasm: { id: "scripts.editor.uploadWasm", defaultMessage: "Choose a .wasm file" },
  replaceWasm: { id: "scripts.editor.replaceWasm", defaultMessage: "Replace the .wasm file" },
  noModule: { id: "scripts.editor.noModule", defaultMessage: "No .wasm file chosen" },
  backToJS: {
    id: "scripts.editor.backToJS",
    defaultMessage: "The saved script is compiled: saving it as JavaScript removes the WebAssembly module and runs the code below instead.",
  },
});

const valueMessages = defineMessages<{
  moduleChosen: { name: string; size: string };
  moduleSaved: { size: string };
  tooLarge: { max: number };
  limits: Omit<Limits, "maxModule">;
}>({
  moduleChosen: { id: "scripts.editor.moduleChosen", defaultMessage: "Chosen: {name}, {size}" },
  moduleSaved: { id: "scripts.editor.moduleSaved", defaultMessage: "Saved WebAssembly module, {size}; choose a file to replace it" },
  tooLarge: { id: "scripts.module.tooLarge", defaultMessage: "A compiled script may be at most {max} bytes" },
  limits: {
    id: "scripts.editor.limits",
    defaultMessage:
      "Limits: {runWrites} writes and {runSends} sends a run. A script may write {scriptWrites} times and send {scriptSends} messages a minute; past that its runs fail, and {failures} failed runs in a row switch it off. The company's scripts together may write {companyWrites} times and send {companySends} messages a minute; past that actions are refused, but no script is switched off for it.",
  },
});

// Limits are the script engine's limits, from the contract, for the help.
export interface Limits {
  runWrites: number;
  runSends: number;
  scriptWrites: number;
  scriptSends: number;
  companyWrites: number;
  companySends: number;
  failures: number;
  maxModule: number;
}

type Language = "js" | "wasm";

// Upload is a module chosen in this session.
interface Upload {
  name: string;
  size: number;
  base64: string;
}

export interface NodeChoice {
  id: number;
  name: string;
}

export interface ScriptEditorProps {
  companyId: number;
  scriptId?: number;
  nodes: NodeChoice[];
  limits?: Limits;
}

type Load = "loading" | "failed" | "ready";

export function ScriptEditor({ companyId, scriptId, nodes, limits }: ScriptEditorProps): ReactNode {
  const intl = useIntl();
  const t = (m: keyof typeof messages) => intl.formatMessage(messages[m]!);
  const translate = translator(intl, scriptErrorIds);
  const [load, setLoad] = useState<Load>(scriptId ? "loading" : "ready");
  const [name, setName] = useState("");
  const [type, setType] = useState<ScriptType>(1);
  const [interval, setInterval] = useState("60");
  const [boundTag, setBoundTag] = useState(0);
  const [enabled, setEnabled] = useState(false);
  const [content, setContent] = useState("");
  const [language, setLanguage] = useState<Language>("js");
  const [upload, setUpload] = useState<Upload | null>(null);
  // savedModule is the saved script's module (base64), for its test.
  const [savedModule, setSavedModule] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState("");
  const [busy, setBusy] = useState<"" | "save" | "test" | "run">("");
  const [outcome, setOutcome] = useState<{ kind: "test" | "run"; out: Outcome } | null>(null);
  const [runs, setRuns] = useState<Run[]>([]);

  const loadRuns = useCallback(() => {
    if (scriptId) fetchRuns(scriptId).then(setRuns, () => setRuns([]));
  }, [scriptId]);

  useEffect(() => {
    if (!scriptId || load !== "loading") return;
    fetchScript(scriptId)
      .then((s) => {
        setName(s.name);
        setType(s.type);
        setInterval(String(s.interval));
        setBoundTag(s.boundTag ?? 0);
        setEnabled(s.enabled);
        setContent(s.content);
        setSavedModule(s.module ?? "");
        setLanguage(s.module ? "wasm" : "js");
        setLoad("ready");
        loadRuns();
      })
      .catch(() => setLoad("failed"));
  }, [scriptId, load, loadRuns]);

  const fail = (err: unknown) => {
    const fe = fieldErrors(err, translate);
    setErrors(fe);
    setAlert(Object.keys(fe).length ? "" : (serverMessage(err, translate) ?? t("generic")));
  };

  const onSave = async (e: FormEvent) => {
    e.preventDefault();
    setBusy("save");
    setAlert("");
    try {
      // An empty interval is left out: the server names it as missing.
      const body: ScriptInput = { name, type, enabled, boundTag, content };
      if (interval.trim() !== "") body.interval = Number(interval);
      if (language === "wasm") {
        if (upload) body.module = upload.base64;
        else if (!savedModule) {
          setErrors({ module: t("noModule") });
          setBusy("");
          return;
        }
      } else if (savedModule) {
        body.module = "";
      }
      await saveScript(companyId, scriptId, body);
      toastOnNextPage("success", t(scriptId ? "saved" : "created"));
      window.location.assign("/script");
    } catch (err) {
      fail(err);
      setBusy("");
    }
  };

  const onTest = async () => {
    setBusy("test");
    setAlert("");
    try {
      let code: TestCode = { content };
      if (language === "wasm") {
        const module = upload?.base64 ?? savedModule;
        if (!module) {
          setErrors({ module: t("noModule") });
          return;
        }
        code = { module };
      }
      setOutcome({ kind: "test", out: await testScript(companyId, code, type === 2 ? boundTag : 0) });
    } catch (err) {
      fail(err);
    } finally {
      setBusy("");
    }
  };

  const onRun = async () => {
    if (!scriptId) return;
    setBusy("run");
    setAlert("");
    try {
      setOutcome({ kind: "run", out: await runScript(scriptId) });
      loadRuns();
    } catch (err) {
      fail(err);
    } finally {
      setBusy("");
    }
  };

  const onFiles = (files: FileList | null): void => {
    const file = files?.[0];
    if (!file) return;
    setErrors({});
    if (limits && file.size > limits.maxModule) {
      setErrors({ module: intl.formatMessage(valueMessages.tooLarge, { max: limits.maxModule }) });
      return;
    }
    file
      .arrayBuffer()
      .then((buf) => setUpload({ name: file.name, size: file.size, base64: toBase64(buf) }))
      .catch(fail);
  };

  if (load === "loading") return <p className="muted">{t("loading")}</p>;
  if (load === "failed") {
    return (
      <p className="fh-script__alert" role="alert">
        {t("loadFailed")}
      </p>
    );
  }

  const err = (field: string) => (errors[field] ? { "aria-invalid": true, "aria-describedby": `script-${field}-error` } : {});
  const errorText = (field: string) =>
    errors[field] ? (
      <p id={`script-${field}-error`} className="fh-script__error">
        {errors[field]}
      </p>
    ) : null;

  return (
    <div className="fh-script">
      <form onSubmit={(e) => void onSave(e)} noValidate className="fh-script__form">
        <div className="fh-script__row">
          <div className="fh-script__field fh-script__field--grow">
            <label htmlFor="script-name">{t("name")}</label>
            <input id="script-name" value={name} maxLength={255} autoComplete="off" onChange={(e) => setName(e.target.value)} {...err("name")} />
            {errorText("name")}
          </div>
          <div className="fh-script__field">
            <label htmlFor="script-type">{t("type")}</label>
            <select id="script-type" value={type} onChange={(e) => setType(Number(e.target.value) as ScriptType)} {...err("type")}>
              <option value={0}>{t("type0")}</option>
              <option value={1}>{t("type1")}</option>
              <option value={2}>{t("type2")}</option>
            </select>
          </div>
          {type === 0 ? (
            <div className="fh-script__field">
              <label htmlFor="script-interval">{t("interval")}</label>
              <input id="script-interval" inputMode="numeric" value={interval} onChange={(e) => setInterval(e.target.value)} {...err("interval")} />
              {errorText("interval")}
            </div>
          ) : null}
          {type === 2 ? (
            <div className="fh-script__field">
              <label htmlFor="script-tag">{t("boundTag")}</label>
              <select id="script-tag" value={boundTag} onChange={(e) => setBoundTag(Number(e.target.value))} {...err("boundTag")}>
                <option value={0}>{t("noNode")}</option>
                {nodes.map((n) => (
                  <option key={n.id} value={n.id}>
                    {n.name}
                  </option>
                ))}
              </select>
              {errorText("boundTag")}
            </div>
          ) : null}
          <label className="fh-script__check">
            <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> {t("enabled")}
          </label>
        </div>
        <fieldset className="fh-script__language">
          <legend>{t("language")}</legend>
          {(["js", "wasm"] as const).map((l) => (
            <label key={l} className="fh-script__check">
              <input type="radio" name="script-language" value={l} checked={language === l} onChange={() => setLanguage(l)} />{" "}
              {t(l === "js" ? "langJS" : "langWasm")}
            </label>
          ))}
        </fieldset>
        {language === "js" ? (
          <>
            {savedModule ? <p className="fh-script__notice">{t("backToJS")}</p> : null}
            <CodeEditor label={t("code")} hint={t("codeHint")} value={content} onChange={setContent} error={errors.content} />
          </>
        ) : (
          <div className="fh-script__module">
            <p className="muted">{t("wasmHint")}</p>
            <FileTrigger acceptedFileTypes={[".wasm", "application/wasm"]} onSelect={onFiles}>
              <Button className="button secondary">
                <span className="mdi mdi-file-upload-outline" aria-hidden="true" /> {t(savedModule || upload ? "replaceWasm" : "uploadWasm")}
              </Button>
            </FileTrigger>
            <p aria-live="polite" className="fh-script__module-name">
              {upload
                ? intl.formatMessage(valueMessages.moduleChosen, { name: upload.name, size: `${intl.formatNumber(upload.size)} B` })
                : savedModule
                  ? intl.formatMessage(valueMessages.moduleSaved, { size: `${intl.formatNumber(base64Size(savedModule))} B` })
                  : t("noModule")}
            </p>
            {errors.module ? (
              <p className="fh-script__error" role="alert">
                {errors.module}
              </p>
            ) : null}
          </div>
        )}
        <p className="muted">{t("testHint")}</p>
        {limits ? <p className="muted">{intl.formatMessage(valueMessages.limits, limits)}</p> : null}
        <div className="fh-script__actions">
          <button type="submit" className="button" disabled={busy !== ""}>
            {busy === "save" ? t("saving") : t(scriptId ? "save" : "create")}
          </button>
          <button type="button" className="button secondary" onClick={() => void onTest()} disabled={busy !== ""}>
            {busy === "test" ? t("testing") : t("test")}
          </button>
          {scriptId ? (
            <button type="button" className="button secondary" onClick={() => void onRun()} disabled={busy !== ""}>
              {busy === "run" ? t("running") : t("run")}
            </button>
          ) : null}
        </div>
        <div aria-live="polite">
          {alert ? (
            <p className="fh-script__alert" role="alert">
              {alert}
            </p>
          ) : null}
        </div>
      </form>
      <div aria-live="polite">
        {outcome ? <ResultPane title={t(outcome.kind === "test" ? "testResult" : "runResult")} outcome={outcome.out} nodes={nodes} /> : null}
      </div>
      {scriptId ? (
        <section aria-labelledby="script-history-heading" className="fh-script__history">
          <h2 id="script-history-heading">{t("history")}</h2>
          {runs.length === 0 ? (
            <p className="muted">{t("noRuns")}</p>
          ) : (
            <div className="table-scroll" role="region" aria-labelledby="script-history-heading" tabIndex={0}>
              <table className="list">
                <thead>
                  <tr>
                    <th scope="col">{t("started")}</th>
                    <th scope="col">{t("cause")}</th>
                    <th scope="col">{t("duration")}</th>
                    <th scope="col">{t("actions")}</th>
                    <th scope="col">{t("outcome")}</th>
                  </tr>
                </thead>
                <tbody>
                  {runs.map((r) => (
                    <tr key={r.id}>
                      <td>{intl.formatDate(r.startedAt, { dateStyle: "short", timeStyle: "medium" })}</td>
                      <td>{t(r.cause)}</td>
                      <td>{r.durationMs}</td>
                      <td>{r.actions}</td>
                      <td className={r.error ? "fh-script__error" : "fh-mono"}>{r.error || r.result}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      ) : null}
    </div>
  );
}
