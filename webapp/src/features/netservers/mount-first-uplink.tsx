// mount renders the first uplink's status into its island element on the
// application page, over the server's own drawing of it; see
// FirstUplinkProps for the props.
import { createRoot } from "react-dom/client";
import { Intl } from "@/lib/i18n";
import { FirstUplink } from "@/features/netservers/components/first-uplink";
import { readProps } from "@/features/netservers/utils/first-uplink";

export function mount(el: HTMLElement, props: unknown): void {
  const p = readProps(props);
  if (!p) {
    console.error("first-uplink: props need a positive integer applicationId", props);
    return;
  }
  try {
    createRoot(el).render(
      <Intl>
        <FirstUplink {...p} />
      </Intl>,
    );
  } catch (err) {
    console.error("first-uplink: mount failed", err);
  }
}
