// Selection is the choice of nodes and of their keys that a report and an
// export cover: a list of checkboxes each, the keys those of the chosen
// nodes.
import type { ReactNode } from "react";
import { defineMessages, useIntl, type NoMessageValues } from "react-intl";
import { keyChoices, type NodeChoice } from "@/features/reports/api/reports";

const messages = defineMessages<{ nodes: NoMessageValues; keys: NoMessageValues; noNodes: NoMessageValues; noKeys: NoMessageValues }>({
  nodes: { id: "reports.editor.nodes", defaultMessage: "Nodes" },
  keys: { id: "reports.editor.keys", defaultMessage: "Keys" },
  noNodes: { id: "reports.editor.noNodes", defaultMessage: "The company has no nodes yet" },
  noKeys: { id: "reports.editor.noKeys", defaultMessage: "Choose nodes to see their keys" },
});

export interface SelectionProps {
  idPrefix: string;
  nodes: NodeChoice[];
  chosenNodes: number[];
  chosenKeys: string[];
  onNodes: (ids: number[]) => void;
  onKeys: (keys: string[]) => void;
  nodesError?: string | undefined;
  keysError?: string | undefined;
}

const toggle = <T,>(list: T[], v: T, on: boolean): T[] => (on ? [...list.filter((x) => x !== v), v] : list.filter((x) => x !== v));

export function Selection(p: SelectionProps): ReactNode {
  const intl = useIntl();
  const keys = keyChoices(p.nodes, p.chosenNodes);
  return (
    <div className="fh-report__selection">
      <fieldset className="fh-report__fieldset" aria-invalid={p.nodesError ? true : undefined} aria-describedby={p.nodesError ? `${p.idPrefix}-nodes-error` : undefined}>
        <legend>{intl.formatMessage(messages.nodes)}</legend>
        {p.nodes.length === 0 ? <p className="muted">{intl.formatMessage(messages.noNodes)}</p> : null}
        <div className="fh-report__checks">
          {p.nodes.map((n) => (
            <label key={n.id} className="fh-report__check">
              <input type="checkbox" checked={p.chosenNodes.includes(n.id)} onChange={(e) => p.onNodes(toggle(p.chosenNodes, n.id, e.target.checked))} />
              <span>
                {n.name} <code>{n.deveui}</code>
              </span>
            </label>
          ))}
        </div>
        {p.nodesError ? (
          <p id={`${p.idPrefix}-nodes-error`} className="fh-report__error">
            {p.nodesError}
          </p>
        ) : null}
      </fieldset>
      <fieldset className="fh-report__fieldset" aria-invalid={p.keysError ? true : undefined} aria-describedby={p.keysError ? `${p.idPrefix}-keys-error` : undefined}>
        <legend>{intl.formatMessage(messages.keys)}</legend>
        {keys.length === 0 ? <p className="muted">{intl.formatMessage(messages.noKeys)}</p> : null}
        <div className="fh-report__checks">
          {keys.map((k) => (
            <label key={k.key} className="fh-report__check">
              <input type="checkbox" checked={p.chosenKeys.includes(k.key)} onChange={(e) => p.onKeys(toggle(p.chosenKeys, k.key, e.target.checked))} />
              <span>
                {k.heading} <code>{k.key}</code>
              </span>
            </label>
          ))}
        </div>
        {p.keysError ? (
          <p id={`${p.idPrefix}-keys-error`} className="fh-report__error">
            {p.keysError}
          </p>
        ) : null}
      </fieldset>
    </div>
  );
}
