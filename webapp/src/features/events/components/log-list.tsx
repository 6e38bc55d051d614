// LogList is the event hub's Log tab: the live log list, newest first and at
// most 200 entries, loaded from GET /api/logs and then pushed by the feed.
// Each entry shows its type as a coloured badge, its age, its node and its
// message, in the user's language when the catalogs know the message. A row
// of toggle buttons narrows the list to some types.
import { useId, useMemo, useState, type ReactNode } from "react";
import { type Key } from "react-aria-components";
import { Button } from "@/components/ui/button";
import { ToggleButton, ToggleButtonGroup } from "@/components/ui/toggle-button";
import { defineMessages, useIntl, type NoMessageValues } from "react-intl";
import type { FeedNode } from "@/lib/live-feed/events";
import { auditMessageIds } from "@/features/events/components/audit-messages";
import { relativeParts } from "@/lib/live-feed/events";
import type { LogStatus } from "@/lib/live-feed/client";
import {
  auditChanges,
  auditCompany,
  entryValues,
  logTypes,
  matchesTypes,
  maxLogEntries,
  type LogEntry,
  type LogType,
} from "@/lib/live-feed/logs";

const messages = defineMessages<{
  list: NoMessageValues;
  empty: NoMessageValues;
  emptyFiltered: NoMessageValues;
  loading: NoMessageValues;
  failed: NoMessageValues;
  retry: NoMessageValues;
  types: NoMessageValues;
  showAll: NoMessageValues;
  capped: { max: number };
}>({
  list: { id: "logs.list", defaultMessage: "Log entries, newest first" },
  empty: { id: "logs.empty", defaultMessage: "No log entries yet" },
  emptyFiltered: { id: "logs.empty.filtered", defaultMessage: "No log entries of the chosen types" },
  loading: { id: "logs.loading", defaultMessage: "Loading the log…" },
  failed: { id: "logs.failed", defaultMessage: "The log could not be loaded" },
  retry: { id: "logs.retry", defaultMessage: "Try again" },
  types: { id: "logs.types", defaultMessage: "Types" },
  showAll: { id: "logs.types.showAll", defaultMessage: "Show all types" },
  capped: { id: "logs.capped", defaultMessage: "The list keeps the newest {max} entries" },
});

const typeMessages = defineMessages<Record<LogType, NoMessageValues>>({
  SMS: { id: "logs.type.SMS", defaultMessage: "SMS" },
  APP: { id: "logs.type.APP", defaultMessage: "App" },
  WARNING: { id: "logs.type.WARNING", defaultMessage: "Warning" },
  ERROR: { id: "logs.type.ERROR", defaultMessage: "Error" },
  USEREVENT: { id: "logs.type.USEREVENT", defaultMessage: "User event" },
  LOGIN: { id: "logs.type.LOGIN", defaultMessage: "Login" },
});

// EntryMessageId names the messages the server names by messageId; an
// entry with another id, or none, shows its English message as it is.
type EntryMessageId =
  | "logs.entry.join"
  | "logs.entry.status"
  | "logs.entry.statusPowered"
  | "logs.entry.pool"
  | "logs.entry.decoder"
  | "logs.entry.downlink.handedOver"
  | "logs.entry.downlink.sent"
  | "logs.entry.downlink.sentBy"
  | "logs.entry.downlink.acknowledged"
  | "logs.entry.downlink.failed"
  | "logs.entry.login"
  | "logs.entry.deveuiClaim"
  | "logs.entry.tagMoved"
  | "logs.entry.tagMovedAway"
  | "logs.entry.tagMovedHere";

const entryMessages = defineMessages<Record<EntryMessageId, Record<string, string | number>>>({
  "logs.entry.join": { id: "logs.entry.join", defaultMessage: "The device joined the network" },
  "logs.entry.status": { id: "logs.entry.status", defaultMessage: "Device status: battery {battery} %, link margin {margin} dB" },
  "logs.entry.statusPowered": { id: "logs.entry.statusPowered", defaultMessage: "Device status: external power, link margin {margin} dB" },
  "logs.entry.pool": {
    id: "logs.entry.pool",
    defaultMessage: "Heard a device that is not a node of the company; its DevEUI goes to the node pool",
  },
  "logs.entry.decoder": { id: "logs.entry.decoder", defaultMessage: "The decoder reported: {warnings}" },
  "logs.entry.downlink.handedOver": { id: "logs.entry.downlink.handedOver", defaultMessage: "Downlink {id} was handed to the network server" },
  "logs.entry.downlink.sent": { id: "logs.entry.downlink.sent", defaultMessage: "Downlink {id} was transmitted" },
  "logs.entry.downlink.sentBy": { id: "logs.entry.downlink.sentBy", defaultMessage: "Downlink {id} was transmitted by gateway {gateway}" },
  "logs.entry.downlink.acknowledged": { id: "logs.entry.downlink.acknowledged", defaultMessage: "Downlink {id} was acknowledged by the device" },
  "logs.entry.downlink.failed": { id: "logs.entry.downlink.failed", defaultMessage: "Downlink {id} failed: {reason}" },
  "logs.entry.login": { id: "logs.entry.login", defaultMessage: "{user} signed in" },
  "logs.entry.deveuiClaim": { id: "logs.entry.deveuiClaim", defaultMessage: "{company} tried to register DevEUI {deveui}, which a node of {owner} has" },
  "logs.entry.tagMoved": {
    id: "logs.entry.tagMoved",
    defaultMessage: "The node {name} ({deveui}) was moved from {from} to {to} with {points} stored values",
  },
  "logs.entry.tagMovedAway": {
    id: "logs.entry.tagMovedAway",
    defaultMessage: "The node {name} ({deveui}) was moved to another company by the portal's administrator",
  },
  "logs.entry.tagMovedHere": {
    id: "logs.entry.tagMovedHere",
    defaultMessage: "The node {name} ({deveui}) was moved to this company by the portal's administrator, with {points} stored values",
  },
});

const isEntryMessage = (id: string): id is EntryMessageId => Object.hasOwn(entryMessages, id);

const auditMessages = defineMessages<{
  changes: NoMessageValues;
  field: NoMessageValues;
  before: NoMessageValues;
  after: NoMessageValues;
  company: { company: string };
}>({
  changes: { id: "logs.audit.changes", defaultMessage: "What changed" },
  field: { id: "logs.audit.field", defaultMessage: "Field" },
  before: { id: "logs.audit.before", defaultMessage: "Before" },
  after: { id: "logs.audit.after", defaultMessage: "After" },
  company: { id: "logs.audit.company", defaultMessage: "Company: {company}" },
});

// entryText is an entry's message in the user's language: the known
// messages above, the audit trail's by their catalog id (each module names
// its own changes, audit.*), else the English message as it is.
function entryText(intl: ReturnType<typeof useIntl>, entry: LogEntry): string {
  if (isEntryMessage(entry.messageId)) return intl.formatMessage(entryMessages[entry.messageId], entryValues(entry));
  if (auditMessageIds.has(entry.messageId)) {
    // The id comes from the server; the list above names it for the build.
    return intl.formatMessage({ id: entry.messageId, defaultMessage: entry.message }, entryValues(entry));
  }
  return entry.message;
}

export interface LogListProps {
  entries: LogEntry[];
  status: LogStatus;
  // nodes names the entries' DevEUIs; null until loaded.
  nodes: FeedNode[] | null;
  now: number;
  onRetry: () => void;
}

export function LogList({ entries, status, nodes, now, onRetry }: LogListProps): ReactNode {
  const intl = useIntl();
  const [types, setTypes] = useState<ReadonlySet<LogType>>(new Set());
  const labelId = useId();
  const names = useMemo(() => new Map((nodes ?? []).map((n) => [n.deveui, n.name])), [nodes]);
  const shown = entries.filter((e) => matchesTypes(e, types));

  let body: ReactNode;
  if (shown.length > 0) {
    body = (
      <ol className="fh-event-hub__events">
        {shown.map((e) => (
          <EntryItem key={e.id} entry={e} node={names.get(e.deveui) ?? ""} now={now} />
        ))}
      </ol>
    );
  } else if (status === "failed") {
    body = (
      <div className="fh-event-hub__empty">
        <p className="fh-event-hub__note" role="alert">
          {intl.formatMessage(messages.failed)}
        </p>
        <Button className="fh-event-hub__link" onPress={onRetry}>
          {intl.formatMessage(messages.retry)}
        </Button>
      </div>
    );
  } else if (status === "idle" || status === "loading") {
    body = <p className="fh-event-hub__empty">{intl.formatMessage(messages.loading)}</p>;
  } else {
    body = <p className="fh-event-hub__empty">{intl.formatMessage(types.size > 0 ? messages.emptyFiltered : messages.empty)}</p>;
  }

  return (
    <>
      <div className="fh-event-hub__filter">
        <div className="fh-event-hub__select">
          <span id={labelId} className="fh-event-hub__label">
            {intl.formatMessage(messages.types)}
          </span>
          <ToggleButtonGroup
            className="fh-event-hub__types"
            aria-labelledby={labelId}
            selectionMode="multiple"
            selectedKeys={types}
            onSelectionChange={(keys: Set<Key>) => setTypes(new Set(logTypes.filter((t) => keys.has(t))))}
          >
            {logTypes.map((t) => (
              <ToggleButton key={t} id={t} className="fh-event-hub__type" data-log-type={t}>
                {intl.formatMessage(typeMessages[t])}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        </div>
        {types.size > 0 ? (
          <Button className="fh-event-hub__link" onPress={() => setTypes(new Set())}>
            {intl.formatMessage(messages.showAll)}
          </Button>
        ) : null}
      </div>
      <div className="fh-event-hub__feed" role="region" aria-label={intl.formatMessage(messages.list)} tabIndex={0}>
        {status === "failed" && shown.length > 0 ? (
          <div className="fh-event-hub__retry">
            <span className="fh-event-hub__note" role="alert">
              {intl.formatMessage(messages.failed)}
            </span>
            <Button className="fh-event-hub__link" onPress={onRetry}>
              {intl.formatMessage(messages.retry)}
            </Button>
          </div>
        ) : null}
        {body}
        {entries.length >= maxLogEntries ? (
          <p className="fh-event-hub__note fh-event-hub__capped">{intl.formatMessage(messages.capped, { max: maxLogEntries })}</p>
        ) : null}
      </div>
    </>
  );
}

function EntryItem({ entry, node, now }: { entry: LogEntry; node: string; now: number }): ReactNode {
  const intl = useIntl();
  const at = Date.parse(entry.createdAt);
  const age = relativeParts(at, now);
  const text = entryText(intl, entry);
  const company = auditCompany(entry);
  const changes = auditChanges(entry);
  return (
    <li className="fh-event-hub__event" data-log-type={entry.type}>
      <div className="fh-event-hub__event-head">
        <span className="fh-log-badge" data-log-type={entry.type}>
          {intl.formatMessage(typeMessages[entry.type])}
        </span>
        {node ? <span className="fh-event-hub__node">{node}</span> : null}
        {entry.deveui ? <span className="fh-event-hub__eui">{entry.deveui}</span> : null}
        <time className="fh-event-hub__age" dateTime={entry.createdAt} title={intl.formatDate(at, { dateStyle: "medium", timeStyle: "long" })}>
          {intl.formatRelativeTime(age.value, age.unit, { numeric: "auto" })}
        </time>
      </div>
      <p className="fh-event-hub__message">{text}</p>
      {company ? <p className="fh-event-hub__note">{intl.formatMessage(auditMessages.company, { company })}</p> : null}
      {changes.length > 0 ? (
        <table className="fh-audit-changes">
          <caption className="sr-only">{intl.formatMessage(auditMessages.changes)}</caption>
          <thead>
            <tr>
              <th scope="col">{intl.formatMessage(auditMessages.field)}</th>
              <th scope="col">{intl.formatMessage(auditMessages.before)}</th>
              <th scope="col">{intl.formatMessage(auditMessages.after)}</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((c) => (
              <tr key={c.field}>
                <th scope="row">{c.field}</th>
                <td>{c.before || "—"}</td>
                <td>{c.after || "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </li>
  );
}
