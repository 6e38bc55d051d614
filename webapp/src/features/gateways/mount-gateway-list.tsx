// mount renders /gateways' list, map and unknown gateways into the island
// element; see ListProps for the props.
import { createRoot } from "react-dom/client";
import { Intl } from "@/lib/i18n";
import { GatewayList } from "@/features/gateways/components/gateway-list";
import { readListProps } from "@/features/gateways/utils/model";
import "@/features/gateways/components/gateways.css";

export function mount(el: HTMLElement, props: unknown): void {
  const p = readListProps(props);
  if (!p) {
    console.error("gateway-list: props need a positive companyId", props);
    return;
  }
  createRoot(el).render(
    <Intl>
      <GatewayList {...p} />
    </Intl>,
  );
}
