// ResultPane shows what a test or a run of a script did: valid or the
// engine's message and line, the result, the writes and sends (a test's are
// only recorded), and the console output.
import type { ReactNode } from "react";
import { defineMessages, useIntl, type NoMessageValues } from "react-intl";
import type { Action, Outcome } from "@/features/scripts/api/scripts";
import type { NodeChoice } from "@/features/scripts/components/script-editor";

const messages = defineMessages<Record<string, NoMessageValues>>({
  valid: { id: "scripts.result.valid", defaultMessage: "Valid" },
  invalid: { id: "scripts.result.invalid", defaultMessage: "Invalid" },
  result: { id: "scripts.result.value", defaultMessage: "Result" },
  actions: { id: "scripts.result.actions", defaultMessage: "Writes and sends" },
  noActions: { id: "scripts.result.noActions", defaultMessage: "None" },
  log: { id: "scripts.result.log", defaultMessage: "Log" },
  noLog: { id: "scripts.result.noLog", defaultMessage: "No output" },
});

export function ResultPane({ title, outcome, nodes }: { title: string; outcome: Outcome; nodes: NodeChoice[] }): ReactNode {
  const intl = useIntl();
  const t = (m: string) => intl.formatMessage(messages[m]!);
  const nodeName = (id?: number) => nodes.find((n) => n.id === id)?.name ?? (id ? `#${id}` : "");
  const describe = (a: Action): string => {
    switch (a.kind) {
      case "write":
        return `${nodeName(a.tagId)} ← ${JSON.stringify(a.values)}${a.time ? " @ " + a.time : ""}`;
      case "downlink":
        return `${nodeName(a.tagId)} ← port ${a.port ?? 0}: ${a.payload ?? ""}`;
      case "mail":
        return `${(a.to ?? []).join(", ")}: ${a.subject ?? ""} — ${a.text ?? ""}`;
      case "sms":
        return `${(a.to ?? []).join(", ")}: ${a.text ?? ""}`;
      default:
        return [a.subject, a.text].filter(Boolean).join(": ");
    }
  };
  return (
    <section className="fh-script__result" aria-labelledby="script-result-heading">
      <h2 id="script-result-heading">
        {title}: {outcome.valid ? t("valid") : t("invalid")}
      </h2>
      {outcome.valid ? null : (
        <p className="fh-script__error" role="alert">
          {outcome.error}
          {outcome.line ? ` (${outcome.line})` : ""}
        </p>
      )}
      <h3>{t("result")}</h3>
      <pre className="fh-mono">{JSON.stringify(outcome.result ?? null, null, 2)}</pre>
      <h3>{t("actions")}</h3>
      {outcome.actions.length === 0 ? (
        <p className="muted">{t("noActions")}</p>
      ) : (
        <ul className="fh-script__actions-list">
          {outcome.actions.map((a, i) => (
            <li key={i}>
              <strong>{a.kind}</strong> {describe(a)}
            </li>
          ))}
        </ul>
      )}
      <h3>{t("log")}</h3>
      {outcome.log.length === 0 ? <p className="muted">{t("noLog")}</p> : <pre className="fh-mono">{outcome.log.join("\n")}</pre>}
    </section>
  );
}
