// mount renders the form of /gateways/create into the island element; see
// CreateProps for the props.
import { createRoot } from "react-dom/client";
import { Intl } from "@/lib/i18n";
import { GatewayCreate } from "@/features/gateways/components/gateway-create";
import { readCreateProps } from "@/features/gateways/utils/model";
import "@/features/gateways/components/gateways.css";

export function mount(el: HTMLElement, props: unknown): void {
  const p = readCreateProps(props);
  if (!p) {
    console.error("gateway-create: props need a positive companyId", props);
    return;
  }
  createRoot(el).render(
    <Intl>
      <GatewayCreate {...p} />
    </Intl>,
  );
}
