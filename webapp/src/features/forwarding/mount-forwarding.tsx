// mount renders the forwarding targets of an application into the island
// element of the application page, over the server's own list; see
// ForwardingProps for the props.
import { createRoot } from "react-dom/client";
import { Intl } from "@/lib/i18n";
import { Forwarding } from "@/features/forwarding/components/forwarding";
import { readProps } from "@/features/forwarding/utils/model";
import "@/features/forwarding/components/forwarding.css";

export function mount(el: HTMLElement, props: unknown): void {
  const p = readProps(props);
  if (!p) {
    console.error("forwarding: props need a positive integer applicationId", props);
    return;
  }
  createRoot(el).render(
    <Intl>
      <Forwarding {...p} />
    </Intl>,
  );
}
