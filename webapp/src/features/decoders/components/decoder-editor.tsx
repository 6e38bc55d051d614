// DecoderEditor is the decoder page's island: a company's own decoder, new
// (props without decoderId) or saved. It holds the name, a code editor for a
// JavaScript codec or the upload of one (or of a WebAssembly module), saving
// as a new version, the version history with roll back, and the test pane,
// which runs what the editor holds now.
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { FieldError, Input, Label } from "@/components/ui/field";
import { FileTrigger } from "@/components/ui/file-trigger";
import { Radio, RadioGroup } from "@/components/ui/radio-group";
import { TextField } from "@/components/ui/text-field";
import { defineMessages, useIntl, type NoMessageValues } from "react-intl";
import { toBase64 } from "@/lib/base64";
import {
  activate,
  addVersion,
  createDecoder,
  fetchDecoder,
  fetchVersion,
  decoderErrorIds,
  rename,
  type CodecBody,
  type Decoder,
  type Kind,
  type TestCodec,
} from "@/features/decoders/api/decoders";
import { CodeEditor } from "@/components/code-editor/code-editor";
import { TestPane } from "@/features/decoders/components/test-pane";
import { fieldErrors, serverMessage, translator } from "@/lib/api-error";
import "@/features/decoders/components/decoder-editor.css";
import { dateTimeWithZone } from "@/lib/i18n";

const messages = defineMessages<{
  loading: NoMessageValues;
  codec: NoMessageValues;
  loadFailed: NoMessageValues;
  retry: NoMessageValues;
  name: NoMessageValues;
  rename: NoMessageValues;
  renamed: NoMessageValues;
  kind: NoMessageValues;
  kindJS: NoMessageValues;
  kindWASM: NoMessageValues;
  source: NoMessageValues;
  editorHint: NoMessageValues;
  uploadJS: NoMessageValues;
  uploadWASM: NoMessageValues;
  module: { name: string; size: string };
  noModule: NoMessageValues;
  moduleSaved: { version: number };
  tooLarge: NoMessageValues;
  create: NoMessageValues;
  save: NoMessageValues;
  saving: NoMessageValues;
  saved: { version: number };
  versions: NoMessageValues;
  version: NoMessageValues;
  created: NoMessageValues;
  by: NoMessageValues;
  size: NoMessageValues;
  state: NoMessageValues;
  active: NoMessageValues;
  open: { version: number };
  opened: { version: number };
  activate: { version: number };
  activated: { version: number };
  generic: NoMessageValues;
}>({
  loading: { id: "decoders.editor.loading", defaultMessage: "Loading the decoder…" },
  codec: { id: "decoders.editor.codec", defaultMessage: "Codec" },
  loadFailed: { id: "decoders.editor.loadFailed", defaultMessage: "The decoder could not be loaded" },
  retry: { id: "decoders.editor.retry", defaultMessage: "Try again" },
  name: { id: "decoders.editor.name", defaultMessage: "Name" },
  rename: { id: "decoders.editor.rename", defaultMessage: "Rename" },
  renamed: { id: "decoders.editor.renamed", defaultMessage: "The name was saved" },
  kind: { id: "decoders.editor.kind", defaultMessage: "The decoder is" },
  kindJS: { id: "decoders.kind.js", defaultMessage: "JavaScript codec" },
  kindWASM: { id: "decoders.kind.wasm", defaultMessage: "WebAssembly module" },
  source: { id: "decoders.editor.source", defaultMessage: "Codec (JavaScript)" },
  editorHint: {
    id: "decoders.editor.hint",
    defaultMessage: "Once you type, Tab indents and Shift+Tab outdents; press Escape and then Tab to leave the editor.",
  },
  uploadJS: { id: "decoders.editor.uploadJS", defaultMessage: "Open a .js file" },
  uploadWASM: { id: "decoders.editor.uploadWASM", defaultMessage: "Choose a .wasm file" },
  module: { id: "decoders.editor.module", defaultMessage: "{name}, {size}" },
  noModule: { id: "decoders.editor.noModule", defaultMessage: "No module chosen" },
  moduleSaved: { id: "decoders.editor.moduleSaved", defaultMessage: "Version {version} is active; choose a file to save a new one" },
  tooLarge: { id: "decoders.editor.tooLarge", defaultMessage: "The file is too large" },
  create: { id: "decoders.editor.create", defaultMessage: "Create decoder" },
  save: { id: "decoders.editor.save", defaultMessage: "Save as new version" },
  saving: { id: "decoders.editor.saving", defaultMessage: "Saving…" },
  saved: { id: "decoders.editor.saved", defaultMessage: "Version {version} was saved and now decodes the uplinks" },
  versions: { id: "decoders.versions.title", defaultMessage: "Versions" },
  version: { id: "decoders.versions.version", defaultMessage: "Version" },
  created: { id: "decoders.versions.created", defaultMessage: "Saved" },
  by: { id: "decoders.versions.by", defaultMessage: "By" },
  size: { id: "decoders.versions.size", defaultMessage: "Size" },
  state: { id: "decoders.versions.state", defaultMessage: "State" },
  active: { id: "decoders.versions.active", defaultMessage: "Active" },
  open: { id: "decoders.versions.open", defaultMessage: "Open version {version} in the editor" },
  opened: { id: "decoders.versions.opened", defaultMessage: "Version {version} is in the editor; save it to make it a new version" },
  activate: { id: "decoders.versions.activate", defaultMessage: "Roll back to version {version}" },
  activated: { id: "decoders.versions.activated", defaultMessage: "Version {version} decodes the uplinks now" },
  generic: { id: "error.generic", defaultMessage: "An error occured, try again later" },
});

// starter is the codec a new decoder starts from: The Things Stack's
// decodeUplink, which ChirpStack v4 runs too.
const starter = `// input: {bytes, fPort, recvTime, variables}
function decodeUplink(input) {
  var bytes = input.bytes;
  if (bytes.length < 2) {
    return { errors: ["payload too short"] };
  }
  return {
    data: {
      temperature: ((bytes[0] << 24 >> 16) | bytes[1]) / 10,
    },
  };
}
`;

export interface DecoderEditorProps {
  companyId: number;
  decoderId?: number;
  maxSource: number;
  maxModule: number;
}

type Load = { state: "loading" } | { state: "failed" } | { state: "ready" };
type Notice = { tone: "ok" | "error"; text: string } | null;

// upload is a module chosen in this session.
interface Upload {
  name: string;
  size: number;
  base64: string;
}

export function DecoderEditor({ companyId, decoderId, maxSource, maxModule }: DecoderEditorProps): ReactNode {
  const intl = useIntl();
  const [load, setLoad] = useState<Load>(decoderId ? { state: "loading" } : { state: "ready" });
  const [decoder, setDecoder] = useState<Decoder | null>(null);
  const [name, setName] = useState("");
  const [kind, setKind] = useState<Kind>("js");
  const [source, setSource] = useState(decoderId ? "" : starter);
  const [upload, setUpload] = useState<Upload | null>(null);
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const refresh = useCallback(
    (keepSource: boolean): Promise<void> => {
      if (!decoderId) return Promise.resolve();
      return fetchDecoder(decoderId).then((d) => {
        setDecoder(d);
        setName(d.name);
        setKind(d.kind);
        if (!keepSource) setSource(d.source ?? "");
        setLoad({ state: "ready" });
      });
    },
    [decoderId],
  );

  useEffect(() => {
    if (load.state !== "loading") return;
    refresh(false).catch(() => setLoad({ state: "failed" }));
  }, [load.state, refresh]);

  const fail = (err: unknown): void => {
    const translate = translator(intl, decoderErrorIds);
    const fields = fieldErrors(err, translate);
    setErrors(fields);
    const other = Object.keys(fields).some((f) => !["name", "source", "module", "kind"].includes(f));
    const text = other ? Object.values(fields).join(" ") : serverMessage(err, translate);
    setNotice(Object.keys(fields).length > 0 && !other ? null : { tone: "error", text: text ?? intl.formatMessage(messages.generic) });
  };

  const body = (): CodecBody | null => {
    if (kind === "wasm") return upload ? { module: upload.base64 } : null;
    return { source };
  };

  // nameRefused checks the name's required rule before a call, so that an
  // empty name is no refused request the browser reports in its console.
  const nameRefused = (): boolean => {
    if (name.trim() !== "") return false;
    setErrors({ name: translator(intl, decoderErrorIds)("validation.required") ?? "" });
    return true;
  };

  const onSave = (): void => {
    const content = body();
    setNotice(null);
    setErrors({});
    if (!decoderId && nameRefused()) return;
    if (!content) {
      setErrors({ module: intl.formatMessage(messages.noModule) });
      return;
    }
    setSaving(true);
    const done = (): void => setSaving(false);
    if (!decoderId) {
      createDecoder(companyId, name, kind, content)
        .then((d) => window.location.assign(`/decoders/${d.id}`))
        .catch((err: unknown) => {
          fail(err);
          done();
        });
      return;
    }
    addVersion(decoderId, content)
      .then((v) => refresh(true).then(() => {
        setUpload(null);
        setNotice({ tone: "ok", text: intl.formatMessage(messages.saved, { version: v.version }) });
      }))
      .catch(fail)
      .finally(done);
  };

  const onRename = (): void => {
    if (!decoderId) return;
    setNotice(null);
    setErrors({});
    if (nameRefused()) return;
    rename(decoderId, name)
      .then((d) => {
        setDecoder(d);
        setNotice({ tone: "ok", text: intl.formatMessage(messages.renamed) });
      })
      .catch(fail);
  };

  const onOpen = (version: number): void => {
    if (!decoderId) return;
    fetchVersion(decoderId, version)
      .then((v) => {
        setSource(v.source ?? "");
        setNotice({ tone: "ok", text: intl.formatMessage(messages.opened, { version }) });
      })
      .catch(fail);
  };

  const onActivate = (version: number): void => {
    if (!decoderId) return;
    activate(decoderId, version)
      .then((d) => {
        setDecoder(d);
        setNotice({ tone: "ok", text: intl.formatMessage(messages.activated, { version }) });
      })
      .catch(fail);
  };

  const onFiles = (files: FileList | null): void => {
    const file = files?.[0];
    if (!file) return;
    setErrors({});
    if (kind === "js") {
      if (file.size > maxSource) {
        setErrors({ source: intl.formatMessage(messages.tooLarge) });
        return;
      }
      file.text().then(setSource).catch(fail);
      return;
    }
    if (file.size > maxModule) {
      setErrors({ module: intl.formatMessage(messages.tooLarge) });
      return;
    }
    file
      .arrayBuffer()
      .then((buf) => setUpload({ name: file.name, size: file.size, base64: toBase64(buf) }))
      .catch(fail);
  };

  if (load.state === "loading") return <p className="fh-muted">{intl.formatMessage(messages.loading)}</p>;
  if (load.state === "failed") {
    return (
      <div className="fh-decoder__alert" role="alert">
        <p>{intl.formatMessage(messages.loadFailed)}</p>
        <Button className="fh-button fh-button--secondary" onPress={() => setLoad({ state: "loading" })}>
          {intl.formatMessage(messages.retry)}
        </Button>
      </div>
    );
  }

  // The test runs the editor's script, a module chosen now, or else the
  // saved WebAssembly decoder.
  let codec: TestCodec | null = null;
  if (kind === "js") codec = source.trim() !== "" ? { script: source } : null;
  else if (upload) codec = { wasm: upload.base64 };
  else if (decoder) codec = { key: decoder.key };

  return (
    <div className="fh-decoder">
      <section className="fh-decoder__codec" aria-labelledby="decoder-codec-heading">
        <h2 id="decoder-codec-heading">{intl.formatMessage(messages.codec)}</h2>
        <div className="fh-decoder__row">
          <TextField className="fh-field fh-field--grow" value={name} onChange={setName} isRequired isInvalid={!!errors.name} maxLength={255}>
            <Label>{intl.formatMessage(messages.name)}</Label>
            <Input autoComplete="off" />
            <FieldError className="fh-field__error">{errors.name}</FieldError>
          </TextField>
          {decoder && name !== decoder.name ? (
            <Button className="fh-button fh-button--secondary" onPress={onRename}>
              {intl.formatMessage(messages.rename)}
            </Button>
          ) : null}
        </div>
        {!decoderId ? (
          <RadioGroup
            className="fh-radios"
            orientation="horizontal"
            value={kind}
            onChange={(v) => setKind(v === "wasm" ? "wasm" : "js")}
            isInvalid={!!errors.kind}
          >
            <Label>{intl.formatMessage(messages.kind)}</Label>
            <div className="fh-radios__list">
              <Radio className="fh-radio" value="js">
                {intl.formatMessage(messages.kindJS)}
              </Radio>
              <Radio className="fh-radio" value="wasm">
                {intl.formatMessage(messages.kindWASM)}
              </Radio>
            </div>
            <FieldError className="fh-field__error">{errors.kind}</FieldError>
          </RadioGroup>
        ) : null}
        {kind === "js" ? (
          <>
            <CodeEditor
              label={intl.formatMessage(messages.source)}
              hint={intl.formatMessage(messages.editorHint)}
              value={source}
              onChange={setSource}
              error={errors.source}
            />
            <FileTrigger acceptedFileTypes={[".js", "text/javascript", "application/javascript"]} onSelect={onFiles}>
              <Button className="fh-button fh-button--secondary">
                <span className="mdi mdi-file-upload-outline" aria-hidden="true" /> {intl.formatMessage(messages.uploadJS)}
              </Button>
            </FileTrigger>
          </>
        ) : (
          <div className="fh-decoder__module">
            <FileTrigger acceptedFileTypes={[".wasm", "application/wasm"]} onSelect={onFiles}>
              <Button className="fh-button fh-button--secondary">
                <span className="mdi mdi-file-upload-outline" aria-hidden="true" /> {intl.formatMessage(messages.uploadWASM)}
              </Button>
            </FileTrigger>
            <p aria-live="polite">
              {upload
                ? intl.formatMessage(messages.module, { name: upload.name, size: `${intl.formatNumber(upload.size)} B` })
                : decoder
                  ? intl.formatMessage(messages.moduleSaved, { version: decoder.activeVersion })
                  : intl.formatMessage(messages.noModule)}
            </p>
            {errors.module ? (
              <p className="fh-code__error" role="alert">
                {errors.module}
              </p>
            ) : null}
          </div>
        )}
        <div className="fh-decoder__actions">
          <Button className="fh-button" onPress={onSave} isPending={saving}>
            {saving ? intl.formatMessage(messages.saving) : intl.formatMessage(decoderId ? messages.save : messages.create)}
          </Button>
        </div>
        <div aria-live="polite">
          {notice ? (
            <p className={notice.tone === "ok" ? "fh-decoder__notice" : "fh-decoder__alert"} role={notice.tone === "error" ? "alert" : undefined}>
              {notice.text}
            </p>
          ) : null}
        </div>
      </section>
      <TestPane companyId={companyId} codec={codec} />
      {decoder ? (
        <section className="fh-decoder__versions" aria-labelledby="decoder-versions-heading">
          <h2 id="decoder-versions-heading">{intl.formatMessage(messages.versions)}</h2>
          <div className="fh-decoder__table" role="region" aria-labelledby="decoder-versions-heading" tabIndex={0}>
            <table className="list">
              <thead>
                <tr>
                  <th scope="col">{intl.formatMessage(messages.version)}</th>
                  <th scope="col">{intl.formatMessage(messages.created)}</th>
                  <th scope="col">{intl.formatMessage(messages.by)}</th>
                  <th scope="col">{intl.formatMessage(messages.size)}</th>
                  <th scope="col">{intl.formatMessage(messages.state)}</th>
                </tr>
              </thead>
              <tbody>
                {(decoder.versions ?? []).map((v) => (
                  <tr key={v.version}>
                    <th scope="row">{v.version}</th>
                    <td>{intl.formatDate(v.createdAt, dateTimeWithZone)}</td>
                    <td>{v.createdByName || "–"}</td>
                    <td>{intl.formatNumber(v.size)} B</td>
                    <td className="fh-decoder__version-actions">
                      {v.active ? <span className="pill ok">{intl.formatMessage(messages.active)}</span> : null}
                      {decoder.kind === "js" ? (
                        <Button className="fh-button fh-button--secondary" onPress={() => onOpen(v.version)}>
                          {intl.formatMessage(messages.open, { version: v.version })}
                        </Button>
                      ) : null}
                      {!v.active ? (
                        <Button className="fh-button fh-button--secondary" onPress={() => onActivate(v.version)}>
                          {intl.formatMessage(messages.activate, { version: v.version })}
                        </Button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
    </div>
  );
}
