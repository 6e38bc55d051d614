// mount renders the date-range picker into its island element; see
// DateRangePickerProps for the props and RangeDetail for the event.
import { createRoot } from "react-dom/client";
import { Intl } from "@/lib/i18n";
import {
  DateRangePicker,
  type DateRangePickerProps,
  type RangeDetail,
} from "@/components/date-range-picker/date-range-picker";
import { isPreset } from "@/components/date-range-picker/range";

export function mount(el: HTMLElement, props: unknown): void {
  const onRangeChange = (detail: RangeDetail): void => {
    el.dispatchEvent(new CustomEvent<RangeDetail>("fieldhub:range", { detail, bubbles: true }));
  };
  try {
    createRoot(el).render(
      <Intl>
        <DateRangePicker {...readProps(props)} onRangeChange={onRangeChange} />
      </Intl>,
    );
  } catch (err) {
    console.error("date-range-picker: mount failed", err);
  }
}

// readProps keeps the props that have the right type and drops the others,
// so that bad props fall back to the defaults.
function readProps(raw: unknown): DateRangePickerProps {
  const props: DateRangePickerProps = {};
  if (typeof raw !== "object" || raw === null) return props;
  const p = raw as Record<string, unknown>;
  if (typeof p.name === "string" && p.name !== "") props.name = p.name;
  if (isPreset(p.preset)) props.preset = p.preset;
  if (typeof p.from === "string") props.from = p.from;
  if (typeof p.to === "string") props.to = p.to;
  // Only a path on this origin: the call carries the session cookie.
  if (typeof p.saveTo === "string" && /^\/(?![/\\])/.test(p.saveTo)) props.saveTo = p.saveTo;
  return props;
}
