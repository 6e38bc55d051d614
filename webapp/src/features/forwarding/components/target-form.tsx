// TargetForm adds a forwarding target to an application, or changes one,
// in a modal dialog: the fields of its kind, and the server's refusals on
// them. A stored secret or password is never shown: empty keeps it.
import { useState, type FormEvent, type ReactNode } from "react";
import { useIntl } from "react-intl";
import { api } from "@/lib/api";
import { fieldErrors, serverMessage, translator } from "@/lib/api-error";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions, DialogHeading } from "@/components/ui/dialog";
import { Modal } from "@/components/ui/modal";
import { headersText, knownErrors, parseHeaders, type Kind, type Target } from "@/features/forwarding/utils/model";

interface Props {
  applicationId: number;
  target: Target | null;
  onClose: () => void;
  onSaved: () => void;
}

export function TargetForm({ applicationId, target, onClose, onSaved }: Props): ReactNode {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>): string => intl.formatMessage({ id }, values);
  const translate = translator(intl, knownErrors);
  const [kind, setKind] = useState<Kind>(target?.kind ?? "webhook");
  const [name, setName] = useState(target?.name ?? "");
  const [url, setUrl] = useState(target?.url ?? "");
  const [secret, setSecret] = useState("");
  const [headers, setHeaders] = useState(target ? headersText(target.headers) : "");
  const [username, setUsername] = useState(target?.username ?? "");
  const [password, setPassword] = useState("");
  const [topic, setTopic] = useState(target?.topic ?? "fieldhub/{applicationId}/{devEui}");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setSaving(true);
    setErrors({});
    setFormError(null);
    const body: Record<string, unknown> = { name, kind, url };
    if (kind === "webhook") {
      body.headers = parseHeaders(headers);
      if (secret !== "") body.secret = secret;
    } else {
      body.username = username;
      body.topic = topic;
      if (password !== "") body.password = password;
    }
    try {
      if (target) await api("PUT", `/api/forwarding/${target.id}`, body);
      else await api("POST", `/api/applications/${applicationId}/forwarding`, body);
      onSaved();
    } catch (err) {
      const fe = fieldErrors(err, translate);
      setErrors(fe);
      if (Object.keys(fe).length === 0) setFormError(serverMessage(err, translate) ?? t("error.generic"));
      setSaving(false);
    }
  };

  const field = (key: string, label: string, value: string, set: (v: string) => void, hint?: string, extra: Record<string, string> = {}): ReactNode => {
    const id = `fwd-${key}`;
    const described = [hint ? `${id}-hint` : "", errors[key] ? `${id}-error` : ""].filter(Boolean).join(" ");
    return (
      <div className="field">
        <label htmlFor={id}>{label}</label>
        {key === "headers" ? (
          <textarea id={id} value={value} onChange={(e) => set(e.target.value)} aria-invalid={errors[key] ? "true" : undefined}
            aria-describedby={described || undefined} spellCheck={false} className="mono" />
        ) : (
          <input id={id} name={key} value={value} onChange={(e) => set(e.target.value)} aria-invalid={errors[key] ? "true" : undefined}
            aria-describedby={described || undefined} autoComplete="off" {...extra} />
        )}
        {hint ? (
          <span id={`${id}-hint`} className="hint">
            {hint}
          </span>
        ) : null}
        {errors[key] ? (
          <span id={`${id}-error`} className="error">
            {errors[key]}
          </span>
        ) : null}
      </div>
    );
  };

  return (
    <Modal overlayClassName="fh-fwd-overlay" className="fh-fwd-modal" isOpen isDismissable={!saving} onOpenChange={(open) => !open && onClose()}>
      <Dialog className="fh-fwd-dialog">
        <DialogHeading className="fh-fwd-dialog__title">
          {target ? t("page.application.forwarding.editTitle", { name: target.name }) : t("page.application.forwarding.addTitle")}
        </DialogHeading>
        <form onSubmit={(e) => void submit(e)} noValidate>
          {field("name", t("page.application.forwarding.name"), name, setName, undefined, { maxLength: "255" })}
          <div className="field">
            <label htmlFor="fwd-kind">{t("page.application.forwarding.kind")}</label>
            <select id="fwd-kind" value={kind} onChange={(e) => setKind(e.target.value === "mqtt" ? "mqtt" : "webhook")}>
              <option value="webhook">{t("page.application.forwarding.kind.webhook")}</option>
              <option value="mqtt">{t("page.application.forwarding.kind.mqtt")}</option>
            </select>
            {errors.kind ? <span className="error">{errors.kind}</span> : null}
          </div>
          {kind === "webhook" ? (
            <>
              {field("url", t("page.application.forwarding.url.webhook"), url, setUrl, undefined, { type: "url", spellCheck: "false" })}
              {field("secret", t("page.application.forwarding.secret"), secret, setSecret,
                (target?.hasSecret ? t("page.application.forwarding.secretKept") + " " : "") + t("page.application.forwarding.secretHint"),
                { type: "password", autoComplete: "new-password" })}
              {field("headers", t("page.application.forwarding.headers"), headers, setHeaders, t("page.application.forwarding.headersHint"))}
            </>
          ) : (
            <>
              {field("url", t("page.application.forwarding.url.mqtt"), url, setUrl, t("page.application.forwarding.urlHint.mqtt"), { spellCheck: "false" })}
              {field("username", t("page.application.forwarding.username"), username, setUsername)}
              {field("password", t("page.application.forwarding.password"), password, setPassword,
                target?.hasPassword ? t("page.application.forwarding.passwordKept") : undefined, { type: "password", autoComplete: "new-password" })}
              {field("topic", t("page.application.forwarding.topic"), topic, setTopic, t("page.application.forwarding.topicHint"), { spellCheck: "false" })}
            </>
          )}
          {formError ? (
            <p role="alert" className="error">
              {formError}
            </p>
          ) : null}
          <DialogActions className="fh-fwd-dialog__actions">
            <Button className="button secondary" onPress={onClose} isDisabled={saving}>
              {t("page.application.forwarding.cancel")}
            </Button>
            <Button className="button" type="submit" isDisabled={saving}>
              {t("page.application.forwarding.save")}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </Modal>
  );
}
