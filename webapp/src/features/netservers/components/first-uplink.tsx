// FirstUplink is the status of an application's first uplink on its page:
// waiting, then green as soon as one of the application's nodes sends one
// (live, through the event feed's WebSocket), or as soon as the company's
// network server sends a DevEUI that no node has yet ("a DevEUI you have
// not added sent data: add it", from the feed's log entries): either way
// the network server reaches the portal.
import { useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from "react";
import { defineMessages, useIntl, type NoMessageValues } from "react-intl";
import { EventFeed } from "@/lib/live-feed/client";
import { addNodePath, liveUplink, pooledDevEUIs, type FirstUplinkProps, type ReportedNode } from "@/features/netservers/utils/first-uplink";

const messages = defineMessages<{
  waiting: NoMessageValues;
  waitingHint: NoMessageValues;
  last: { name: string; deveui: string };
  received: { name: string; deveui: string; time: string };
  pooled: { deveui: string };
  addIt: NoMessageValues;
  addItLabel: { deveui: string };
  offline: NoMessageValues;
}>({
  waiting: { id: "page.application.ingest.waiting", defaultMessage: "Waiting for the first uplink…" },
  waitingHint: {
    id: "page.application.ingest.waitingHint",
    defaultMessage: "This turns green as soon as a node of this application sends data. Keep the page open.",
  },
  last: { id: "page.application.ingest.last", defaultMessage: "Last uplink from {name} ({deveui}):" },
  received: { id: "page.application.ingest.received", defaultMessage: "Uplink received from {name} ({deveui}) at {time}" },
  pooled: { id: "page.application.ingest.pooled", defaultMessage: "A DevEUI you have not added sent data: {deveui}." },
  addIt: { id: "page.application.ingest.addIt", defaultMessage: "Add it" },
  addItLabel: { id: "page.application.ingest.addItLabel", defaultMessage: "Add it: {deveui}" },
  offline: {
    id: "page.application.ingest.offline",
    defaultMessage: "The live feed is not connected; reload the page to see new uplinks.",
  },
});

// clockMs is how often the window of pooled DevEUIs moves on.
const clockMs = 60_000;

export function FirstUplink({ companyId, applicationId, deveuis, last }: FirstUplinkProps): ReactNode {
  const intl = useIntl();
  const feed = useMemo(() => new EventFeed(companyId), [companyId]);
  const state = useSyncExternalStore(feed.subscribe, feed.getState);
  // The clock only re-renders: the window of pooled DevEUIs moves on.
  const [, setTick] = useState(0);

  useEffect(() => {
    feed.start();
    void feed.loadLog();
    const timer = setInterval(() => setTick((n) => n + 1), clockMs);
    return () => {
      clearInterval(timer);
      feed.stop();
    };
  }, [feed]);

  const live = liveUplink(state.events, deveuis);
  const known = useMemo(() => [...deveuis, ...(state.nodes ?? []).map((n) => n.deveui)], [deveuis, state.nodes]);
  const pooled = pooledDevEUIs(state.log, known, Date.now());
  const time = (n: ReportedNode): string => intl.formatDate(n.time, { dateStyle: "medium", timeStyle: "medium" });

  let status: ReactNode;
  if (live) {
    status = (
      <p className="uplink-status received" role="status" data-live="true">
        <span className="mdi mdi-check-circle" aria-hidden="true" />{" "}
        {intl.formatMessage(messages.received, { name: live.name, deveui: live.deveui, time: time(live) })}
      </p>
    );
  } else if (last) {
    status = (
      <p className="uplink-status received" role="status">
        <span className="mdi mdi-check-circle" aria-hidden="true" /> {intl.formatMessage(messages.last, { name: last.name, deveui: last.deveui })}{" "}
        <time dateTime={last.time}>{time(last)}</time>
      </p>
    );
  } else if (pooled.length === 0) {
    status = (
      <>
        <p className="uplink-status waiting" role="status">
          <span className="mdi mdi-timer-sand" aria-hidden="true" /> {intl.formatMessage(messages.waiting)}
        </p>
        <p className="muted">{intl.formatMessage(messages.waitingHint)}</p>
      </>
    );
  }

  // data-feed tells the feed's state to the browser tests.
  return (
    <div className="first-uplink__state" data-feed={state.status}>
      {status}
      {state.status === "reconnecting" && <p className="muted">{intl.formatMessage(messages.offline)}</p>}
      {pooled.length > 0 && (
        <ul className="pooled-list" aria-live="polite">
          {pooled.map((deveui) => (
            <li key={deveui} className="uplink-status received pooled">
              <span className="mdi mdi-alert-circle-outline" aria-hidden="true" /> {intl.formatMessage(messages.pooled, { deveui })}{" "}
              <a className="button small" href={addNodePath(deveui, applicationId)} aria-label={intl.formatMessage(messages.addItLabel, { deveui })}>
                <span className="mdi mdi-plus" aria-hidden="true" /> {intl.formatMessage(messages.addIt)}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
