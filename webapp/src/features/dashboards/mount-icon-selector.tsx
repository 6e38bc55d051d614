// mount renders the icon selector into its island element; see
// IconSelectorProps for the props. Choosing an icon dispatches the bubbling
// event "fieldhub:icon" with detail {icon} on the element.
import { createRoot } from "react-dom/client";
import { Intl } from "@/lib/i18n";
import { IconSelector, type IconSelectorProps } from "@/features/dashboards/components/icon-selector";
import { isIconName } from "@/features/dashboards/utils/category-tree";

// IconDetail is the detail of the "fieldhub:icon" event.
export interface IconDetail {
  icon: string;
}

export function mount(el: HTMLElement, props: unknown): void {
  const onIconChange = (icon: string): void => {
    el.dispatchEvent(new CustomEvent<IconDetail>("fieldhub:icon", { detail: { icon }, bubbles: true }));
  };
  try {
    createRoot(el).render(
      <Intl>
        <IconSelector {...readProps(props)} onIconChange={onIconChange} />
      </Intl>,
    );
  } catch (err) {
    console.error("icon-selector: mount failed", err);
  }
}

// readProps keeps the props that have the right type and drops the others,
// so that bad props fall back to the defaults.
function readProps(raw: unknown): IconSelectorProps {
  const props: IconSelectorProps = {};
  if (typeof raw !== "object" || raw === null) return props;
  const p = raw as Record<string, unknown>;
  if (typeof p.name === "string" && p.name !== "") props.name = p.name;
  if (isIconName(p.value)) props.value = p.value;
  if (typeof p.label === "string" && p.label !== "") props.label = p.label;
  return props;
}
