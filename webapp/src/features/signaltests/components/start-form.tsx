// StartForm starts a test: the node (from the company's nodes), a
// description and, when the node's decoder names its position otherwise
// than the common names, the keys of its latitude and longitude. A
// started test opens its live page.
import { useEffect, useId, useState, type FormEvent, type ReactNode } from "react";
import { useIntl } from "react-intl";
import { companyNodes, nodeKeys, startTest, type Node } from "@/features/signaltests/api/signaltests";
import { known, msg } from "@/features/signaltests/utils/messages";
import { fieldErrors, serverMessage, translator } from "@/lib/api-error";
import { toast, toastOnNextPage } from "@/lib/toast";

export function StartForm({ companyId }: { companyId: number }): ReactNode {
  const intl = useIntl();
  const id = useId();
  const [nodes, setNodes] = useState<Node[] | null>(null);
  const [nodesFailed, setNodesFailed] = useState(false);
  const [deveui, setDeveui] = useState("");
  const [description, setDescription] = useState("");
  const [latitudeKey, setLatitudeKey] = useState("");
  const [longitudeKey, setLongitudeKey] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState("");
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    companyNodes(companyId)
      .then((list) => live && setNodes([...list].sort((a, b) => a.name.localeCompare(b.name))))
      .catch(() => {
        if (!live) return;
        setNodesFailed(true);
        toast("error", intl.formatMessage(msg.generic));
      });
    return () => {
      live = false;
    };
  }, [companyId, intl]);

  // The chosen node's stored keys are offered for the position keys; a
  // failure only leaves the fields without suggestions.
  const [keys, setKeys] = useState<string[]>([]);
  const tagId = nodes?.find((n) => n.deveui === deveui)?.id;
  useEffect(() => {
    setKeys([]);
    if (tagId === undefined) return;
    let live = true;
    nodeKeys(tagId)
      .then((list) => live && setKeys(list.map((k) => k.key).sort()))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [tagId]);

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    setFormError("");
    if (deveui === "") {
      setErrors({ node: intl.formatMessage(msg.startNodeRequired) });
      document.getElementById(`${id}-node`)?.focus();
      return;
    }
    setErrors({});
    setBusy(true);
    startTest(companyId, deveui, { description, latitudeKey, longitudeKey })
      .then((t) => {
        toastOnNextPage("success", intl.formatMessage(msg.created));
        window.location.assign(`/signaltest/peek/${t.testId}`);
      })
      .catch((err: unknown) => {
        setBusy(false);
        const translate = translator(intl, known);
        setErrors(fieldErrors(err, translate));
        setFormError(serverMessage(err, translate) ?? "");
        toast("error", intl.formatMessage(msg.generic));
      });
  };

  const field = (name: string): { "aria-invalid"?: true; "aria-describedby"?: string } =>
    errors[name] ? { "aria-invalid": true, "aria-describedby": `${id}-${name}-error` } : {};

  return (
    <form className="fh-st-start" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{intl.formatMessage(msg.startTitle)}</h2>
      {formError ? (
        <p className="form-error" role="alert">
          {formError}
        </p>
      ) : null}
      {nodes !== null && nodes.length === 0 ? <p className="empty">{intl.formatMessage(msg.startNoNodes)}</p> : null}
      <div className="grid-2">
        <div className="field">
          <label htmlFor={`${id}-node`}>{intl.formatMessage(msg.startNode)}</label>
          <select id={`${id}-node`} value={deveui} onChange={(e) => setDeveui(e.target.value)} disabled={nodes === null || busy} required {...field("node")}>
            <option value="">{nodes === null && !nodesFailed ? intl.formatMessage(msg.loading) : intl.formatMessage(msg.startChooseNode)}</option>
            {(nodes ?? []).map((n) => (
              <option key={n.deveui} value={n.deveui}>
                {n.name} ({n.deveui})
              </option>
            ))}
          </select>
          {errors.node ? (
            <span className="error" id={`${id}-node-error`}>
              {errors.node}
            </span>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor={`${id}-description`}>{intl.formatMessage(msg.startDescription)}</label>
          <input id={`${id}-description`} value={description} maxLength={255} onChange={(e) => setDescription(e.target.value)} disabled={busy} {...field("description")} />
          {errors.description ? (
            <span className="error" id={`${id}-description-error`}>
              {errors.description}
            </span>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor={`${id}-lat`}>{intl.formatMessage(msg.startLatitudeKey)}</label>
          <input id={`${id}-lat`} value={latitudeKey} placeholder="latitude" list={`${id}-keys`} maxLength={255} onChange={(e) => setLatitudeKey(e.target.value)} disabled={busy} aria-describedby={`${id}-keys-hint`} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-lng`}>{intl.formatMessage(msg.startLongitudeKey)}</label>
          <input id={`${id}-lng`} value={longitudeKey} placeholder="longitude" list={`${id}-keys`} maxLength={255} onChange={(e) => setLongitudeKey(e.target.value)} disabled={busy} aria-describedby={`${id}-keys-hint`} />
        </div>
      </div>
      <datalist id={`${id}-keys`}>
        {keys.map((k) => (
          <option key={k} value={k} />
        ))}
      </datalist>
      <p className="hint muted" id={`${id}-keys-hint`}>
        {intl.formatMessage(msg.startKeysHint)}
      </p>
      <button type="submit" className="button" disabled={busy || nodes === null || nodes.length === 0}>
        <span className="mdi mdi-play" aria-hidden="true" /> {intl.formatMessage(msg.startSubmit)}
      </button>
    </form>
  );
}
