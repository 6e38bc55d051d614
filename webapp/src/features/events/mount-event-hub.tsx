// mount renders the event hub into its island element, which holds the
// server's top bar button (data-event-hub-trigger); see EventHubProps.
import { createRoot } from "react-dom/client";
import { Intl } from "@/lib/i18n";
import { EventHub, type EventHubProps } from "@/features/events/components/event-hub";

export function mount(el: HTMLElement, props: unknown, activated = false): void {
  const trigger = el.querySelector<HTMLButtonElement>("button[data-event-hub-trigger]");
  if (!trigger) {
    console.error("event-hub: the island has no trigger button");
    return;
  }
  try {
    // React owns a container of its own: the button stays the server's.
    const host = document.createElement("div");
    host.className = "fh-event-hub__host";
    el.append(host);
    createRoot(host).render(
      <Intl>
        <EventHub {...readProps(props)} trigger={trigger} open={activated} />
      </Intl>,
    );
  } catch (err) {
    console.error("event-hub: mount failed", err);
  }
}

// readProps keeps the props that have the right type and drops the others.
function readProps(raw: unknown): Omit<EventHubProps, "trigger"> {
  const props: Omit<EventHubProps, "trigger"> = {};
  if (typeof raw !== "object" || raw === null) return props;
  const p = raw as Record<string, unknown>;
  if (typeof p.companyId === "number" && Number.isSafeInteger(p.companyId) && p.companyId > 0) props.companyId = p.companyId;
  return props;
}
