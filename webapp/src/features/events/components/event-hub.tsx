// EventHub is the event hub panel: a floating panel, 650px wide, opened from
// the top bar's button, with the live feed of the company's uplinks, newest
// first, filterable by node. Each event shows its node, its age (refreshed
// every 30 s) and its data as formatted JSON. A second tab holds the live log
// list: the company's log entries, newest first, at most 200, filterable by
// type.
//
// The button is drawn by the server (webapp/ui/layout.templ); the island
// loads on its first click and takes it over as the popover's trigger. The
// feed connects on the first opening and stays connected while the page is
// open, counting on the button the events that arrive while it is closed.
import { useEffect, useId, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { I18nProvider, type Key } from "react-aria-components";
import { Button } from "@/components/ui/button";
import { Dialog, DialogHeading } from "@/components/ui/dialog";
import { Input, Label } from "@/components/ui/field";
import { ListBox, ListBoxItem } from "@/components/ui/list-box";
import { Popover } from "@/components/ui/popover";
import { Autocomplete, SearchField } from "@/components/ui/search-field";
import { Select, SelectValue } from "@/components/ui/select";
import { Tab, TabList, TabPanel, Tabs } from "@/components/ui/tabs";
import { defineMessages, useIntl, type NoMessageValues } from "react-intl";
import { EventFeed, type FeedStatus } from "@/lib/live-feed/client";
import { matchesNodes, relativeParts, type FeedNode, type LiveEvent } from "@/lib/live-feed/events";
import { LogList } from "@/features/events/components/log-list";
import "@/features/events/components/event-hub.css";

const messages = defineMessages<{
  open: NoMessageValues;
  openNew: { count: number };
  title: NoMessageValues;
  close: NoMessageValues;
  waiting: NoMessageValues;
  feed: NoMessageValues;
  nodes: NoMessageValues;
  allNodes: NoMessageValues;
  chosenNodes: { count: number };
  showAll: NoMessageValues;
  search: NoMessageValues;
  noNode: NoMessageValues;
  nodesLoading: NoMessageValues;
  nodesFailed: NoMessageValues;
  retry: NoMessageValues;
  data: { node: string };
}>({
  open: { id: "events.open", defaultMessage: "Live events" },
  openNew: { id: "events.openNew", defaultMessage: "Live events, {count, plural, one {# new event} other {# new events}}" },
  title: { id: "events.title", defaultMessage: "Live events" },
  close: { id: "events.close", defaultMessage: "Close" },
  waiting: { id: "events.waiting", defaultMessage: "Waiting for new events..." },
  feed: { id: "events.feed", defaultMessage: "Events, newest first" },
  nodes: { id: "events.nodes", defaultMessage: "Nodes" },
  allNodes: { id: "events.nodes.all", defaultMessage: "All nodes" },
  chosenNodes: { id: "events.nodes.chosen", defaultMessage: "{count, plural, one {# node} other {# nodes}}" },
  showAll: { id: "events.nodes.showAll", defaultMessage: "Show all nodes" },
  search: { id: "events.nodes.search", defaultMessage: "Search nodes" },
  noNode: { id: "events.nodes.none", defaultMessage: "No node matches" },
  nodesLoading: { id: "events.nodes.loading", defaultMessage: "Loading nodes…" },
  nodesFailed: { id: "events.nodes.failed", defaultMessage: "The nodes could not be loaded" },
  retry: { id: "events.nodes.retry", defaultMessage: "Try again" },
  data: { id: "events.data", defaultMessage: "Data of {node}" },
});

const tabMessages = defineMessages<{ tabs: NoMessageValues; events: NoMessageValues; log: NoMessageValues }>({
  tabs: { id: "logs.tabs", defaultMessage: "Live feed" },
  events: { id: "logs.tab.events", defaultMessage: "Events" },
  log: { id: "logs.tab.log", defaultMessage: "Log" },
});

// HubTab names the panel's tabs.
type HubTab = "events" | "log";

const statusMessages = defineMessages<Record<FeedStatus, NoMessageValues>>({
  idle: { id: "events.status.connecting", defaultMessage: "Connecting…" },
  connecting: { id: "events.status.connecting", defaultMessage: "Connecting…" },
  live: { id: "events.status.live", defaultMessage: "Live" },
  reconnecting: { id: "events.status.reconnecting", defaultMessage: "Reconnecting…" },
});

// refreshMs is how often the ages are redrawn: every 30 s.
const refreshMs = 30_000;

export interface EventHubProps {
  // trigger is the top bar's button, drawn by the server.
  trigger: HTMLButtonElement;
  companyId?: number;
  // open opens the panel at once: the island was loaded by a click.
  open?: boolean;
}

export function EventHub({ trigger, companyId, open = false }: EventHubProps): ReactNode {
  const intl = useIntl();
  const feed = useMemo(() => new EventFeed(companyId), [companyId]);
  const state = useSyncExternalStore(feed.subscribe, feed.getState);
  const [isOpen, setOpen] = useState(open);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [tab, setTab] = useState<HubTab>("events");
  const now = useNow(isOpen);
  const titleId = useId();
  const seen = useRef<ReadonlySet<string>>(new Set());
  const triggerRef = useMemo(() => ({ current: trigger }), [trigger]);

  useEffect(() => {
    if (isOpen) feed.start();
  }, [feed, isOpen]);
  useEffect(() => () => feed.stop(), [feed]);
  useEffect(() => {
    if (isOpen && tab === "log") void feed.loadLog();
  }, [feed, isOpen, tab]);

  useEffect(() => {
    const toggle = (): void => setOpen((o) => !o);
    trigger.addEventListener("click", toggle);
    return () => trigger.removeEventListener("click", toggle);
  }, [trigger]);

  // The events that came while the panel was closed are counted on the button.
  useEffect(() => {
    if (isOpen) seen.current = new Set(state.events.map((e) => e.id));
  }, [isOpen, state.events]);
  const unseen = isOpen ? 0 : state.events.filter((e) => !seen.current.has(e.id)).length;
  useEffect(() => {
    trigger.setAttribute("aria-expanded", String(isOpen));
    trigger.setAttribute(
      "aria-label",
      unseen > 0 ? intl.formatMessage(messages.openNew, { count: unseen }) : intl.formatMessage(messages.open),
    );
  }, [trigger, isOpen, unseen, intl]);

  const shown = state.events.filter((e) => matchesNodes(e, chosen));
  return (
    <I18nProvider locale={intl.locale}>
      {unseen > 0
        ? createPortal(
            <span className="badge" aria-hidden="true">
              {unseen}
            </span>,
            trigger,
          )
        : null}
      <Popover
        className="fh-event-hub__popover"
        triggerRef={triggerRef}
        isOpen={isOpen}
        onOpenChange={setOpen}
        placement="bottom end"
        offset={6}
      >
        <Dialog className="fh-event-hub" aria-labelledby={titleId}>
          <header className="fh-event-hub__header">
            <DialogHeading id={titleId} className="fh-event-hub__title">
              {intl.formatMessage(messages.title)}
            </DialogHeading>
            <span className="fh-event-hub__status" data-status={state.status} role="status">
              <span className="fh-event-hub__dot" aria-hidden="true" />
              {intl.formatMessage(statusMessages[state.status])}
            </span>
            <Button className="fh-event-hub__icon" aria-label={intl.formatMessage(messages.close)} onPress={() => setOpen(false)}>
              <span className="mdi mdi-close" aria-hidden="true" />
            </Button>
          </header>
          <Tabs
            className="fh-event-hub__tabs"
            selectedKey={tab}
            onSelectionChange={(key: Key) => setTab(key === "log" ? "log" : "events")}
          >
            <TabList className="fh-event-hub__tablist" aria-label={intl.formatMessage(tabMessages.tabs)}>
              <Tab id="events" className="fh-event-hub__tab">
                {intl.formatMessage(tabMessages.events)}
              </Tab>
              <Tab id="log" className="fh-event-hub__tab">
                {intl.formatMessage(tabMessages.log)}
              </Tab>
            </TabList>
            <TabPanel id="events" className="fh-event-hub__panel">
              <NodeFilter
                nodes={state.nodes}
                failed={state.nodesFailed}
                chosen={chosen}
                onChange={setChosen}
                onRetry={() => void feed.loadNodes()}
              />
              <div className="fh-event-hub__feed" role="region" aria-label={intl.formatMessage(messages.feed)} tabIndex={0}>
                {shown.length === 0 ? (
                  <p className="fh-event-hub__empty">{intl.formatMessage(messages.waiting)}</p>
                ) : (
                  <ol className="fh-event-hub__events">
                    {shown.map((e) => (
                      <EventItem key={e.id} event={e} now={now} />
                    ))}
                  </ol>
                )}
              </div>
            </TabPanel>
            <TabPanel id="log" className="fh-event-hub__panel">
              <LogList
                entries={state.log}
                status={state.logStatus}
                nodes={state.nodes}
                now={now}
                onRetry={() => void feed.loadLog()}
              />
            </TabPanel>
          </Tabs>
        </Dialog>
      </Popover>
    </I18nProvider>
  );
}

function EventItem({ event, now }: { event: LiveEvent; now: number }): ReactNode {
  const intl = useIntl();
  const at = Date.parse(event.date);
  const age = relativeParts(at, now);
  const node = event.tag.name || event.tag.deveui;
  return (
    <li className="fh-event-hub__event">
      <div className="fh-event-hub__event-head">
        <span className="fh-event-hub__node">{node}</span>
        <span className="fh-event-hub__eui">{event.tag.deveui}</span>
        <time className="fh-event-hub__age" dateTime={event.date} title={intl.formatDate(at, { dateStyle: "medium", timeStyle: "long" })}>
          {intl.formatRelativeTime(age.value, age.unit, { numeric: "auto" })}
        </time>
      </div>
      <pre className="fh-event-hub__data" aria-label={intl.formatMessage(messages.data, { node })}>
        {JSON.stringify(event.data, null, 2)}
      </pre>
    </li>
  );
}

interface NodeFilterProps {
  nodes: FeedNode[] | null;
  failed: boolean;
  chosen: ReadonlySet<string>;
  onChange: (chosen: ReadonlySet<string>) => void;
  onRetry: () => void;
}

// NodeFilter chooses the nodes whose events are shown: a multiple select
// with a search field, listing each node as name and DevEUI.
function NodeFilter({ nodes, failed, chosen, onChange, onRetry }: NodeFilterProps): ReactNode {
  const intl = useIntl();
  const [query, setQuery] = useState("");
  const matching = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (nodes ?? []).filter((n) => q === "" || n.nameWithDeveui.toLowerCase().includes(q) || n.deveui.toLowerCase().includes(q));
  }, [nodes, query]);
  const value = useMemo(() => [...chosen], [chosen]);
  const selectButton = useRef<HTMLButtonElement>(null);

  if (nodes === null) {
    return (
      <div className="fh-event-hub__filter">
        {failed ? (
          <>
            <span className="fh-event-hub__note" role="alert">
              {intl.formatMessage(messages.nodesFailed)}
            </span>
            <Button className="fh-event-hub__link" onPress={onRetry}>
              {intl.formatMessage(messages.retry)}
            </Button>
          </>
        ) : (
          <span className="fh-event-hub__note">{intl.formatMessage(messages.nodesLoading)}</span>
        )}
      </div>
    );
  }
  return (
    <div className="fh-event-hub__filter">
      <Select<FeedNode, "multiple">
        className="fh-event-hub__select"
        selectionMode="multiple"
        value={value}
        onChange={(keys: Key[]) => onChange(new Set(keys.map(String)))}
        placeholder={intl.formatMessage(messages.allNodes)}
      >
        <Label className="fh-event-hub__label">{intl.formatMessage(messages.nodes)}</Label>
        <Button className="fh-event-hub__select-button" ref={selectButton}>
          <SelectValue<FeedNode> className="fh-event-hub__select-value">
            {({ isPlaceholder, selectedItems }) =>
              isPlaceholder
                ? intl.formatMessage(messages.allNodes)
                : selectedItems.length === 1 && selectedItems[0]
                  ? selectedItems[0].name || selectedItems[0].deveui
                  : intl.formatMessage(messages.chosenNodes, { count: selectedItems.length })
            }
          </SelectValue>
          <span className="mdi mdi-menu-down" aria-hidden="true" />
        </Button>
        <Popover className="fh-event-hub__nodes-popover" placement="bottom start" onOpenChange={() => setQuery("")}>
          <Autocomplete inputValue={query} onInputChange={setQuery}>
            <SearchField className="fh-event-hub__search" aria-label={intl.formatMessage(messages.search)} autoFocus>
              <span className="mdi mdi-magnify" aria-hidden="true" />
              <Input className="fh-event-hub__search-input" placeholder={intl.formatMessage(messages.search)} />
            </SearchField>
            <ListBox<FeedNode>
              className="fh-event-hub__nodes"
              items={matching}
              renderEmptyState={() => <div className="fh-event-hub__note">{intl.formatMessage(messages.noNode)}</div>}
            >
              {(n) => (
                <ListBoxItem id={n.deveui} textValue={n.nameWithDeveui} className="fh-event-hub__option">
                  <span className="mdi mdi-check fh-event-hub__check" aria-hidden="true" />
                  <span className="fh-event-hub__node">{n.name}</span>
                  <span className="fh-event-hub__eui">{n.deveui}</span>
                </ListBoxItem>
              )}
            </ListBox>
          </Autocomplete>
        </Popover>
      </Select>
      {chosen.size > 0 ? (
        <Button
          className="fh-event-hub__link"
          onPress={() => {
            onChange(new Set());
            // This button goes away: the focus goes to the filter it cleared.
            selectButton.current?.focus();
          }}
        >
          {intl.formatMessage(messages.showAll)}
        </Button>
      ) : null}
    </div>
  );
}

// useNow is the time the ages are measured from: refreshed every 30 s while
// active, and at once when it becomes active.
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), refreshMs);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}
