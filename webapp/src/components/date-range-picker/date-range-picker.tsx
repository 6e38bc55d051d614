// DateRangePicker is a button showing the chosen range that opens a popover
// with the preset ranges and a range calendar.
import { useId, useState, type ReactNode } from "react";
import { I18nProvider, type DateValue, type RangeValue } from "react-aria-components";
import { Button } from "@/components/ui/button";
import { Dialog, DialogTrigger } from "@/components/ui/dialog";
import { Heading } from "@/components/ui/heading";
import { Popover } from "@/components/ui/popover";
import { CalendarCell, CalendarGrid, RangeCalendar } from "@/components/ui/range-calendar";
import { ToggleButton } from "@/components/ui/toggle-button";
import { getLocalTimeZone, toZoned, today, type ZonedDateTime } from "@internationalized/date";
import { defineMessages, useIntl, type IntlShape, type NoMessageValues } from "react-intl";
import { api } from "@/lib/api";
import { toast } from "@/lib/toast";
import {
  adjustCustomRange,
  dayOf,
  initialRange,
  isWholeDays,
  offsetMs,
  presetRange,
  presets,
  type Preset,
  type Range,
} from "@/components/date-range-picker/range";
import "@/components/date-range-picker/date-range-picker.css";

// RangeDetail is the detail of the "fieldhub:range" event.
export interface RangeDetail {
  from: string;
  to: string;
  preset: Preset | null;
  offsetMs: number;
}

// DateRangePickerProps are the island's props after validation.
export interface DateRangePickerProps {
  name?: string;
  preset?: Preset;
  from?: string;
  to?: string;
  saveTo?: string;
  onRangeChange?: (detail: RangeDetail) => void;
}

const messages = defineMessages<{
  button: { range: string };
  dialog: NoMessageValues;
  presets: NoMessageValues;
  calendar: NoMessageValues;
  calendarHint: NoMessageValues;
  saveFailed: NoMessageValues;
}>({
  button: { id: "picker.button", defaultMessage: "Date range: {range}" },
  dialog: { id: "picker.dialog", defaultMessage: "Choose a date range" },
  presets: { id: "picker.presets", defaultMessage: "Quick ranges" },
  calendar: { id: "picker.calendar", defaultMessage: "Custom range" },
  calendarHint: { id: "picker.calendar.hint", defaultMessage: "Pick the first and the last day" },
  saveFailed: { id: "picker.saveFailed", defaultMessage: "The default range could not be saved" },
});

const presetMessages = defineMessages<Record<Preset, NoMessageValues>>({
  "1h": { id: "picker.preset.1h", defaultMessage: "Last hour" },
  "5h": { id: "picker.preset.5h", defaultMessage: "Last 5 hours" },
  "24h": { id: "picker.preset.24h", defaultMessage: "Last 24 hours" },
  "7d": { id: "picker.preset.7d", defaultMessage: "Last 7 days" },
  "30d": { id: "picker.preset.30d", defaultMessage: "Last 30 days" },
});

export function DateRangePicker(props: DateRangePickerProps): ReactNode {
  const { name, saveTo, onRangeChange } = props;
  const intl = useIntl();
  // The days of the calendar are those of the page's time zone.
  const zone = intl.timeZone ?? getLocalTimeZone();
  const [range, setRange] = useState<Range>(() => initialRange(props.preset, props.from, props.to, new Date()));
  const [isOpen, setOpen] = useState(false);
  const presetsLabel = useId();
  const calendarHint = useId();

  function change(next: Range): void {
    setRange(next);
    setOpen(false);
    onRangeChange?.({
      from: next.from.toISOString(),
      to: next.to.toISOString(),
      preset: next.preset,
      offsetMs: offsetMs(next, new Date()),
    });
  }

  function choosePreset(preset: Preset): void {
    change(presetRange(preset, new Date()));
    if (saveTo) {
      api("POST", saveTo, { defaultRange: preset }).catch(() => toast("error", intl.formatMessage(messages.saveFailed)));
    }
  }

  function chooseDays(value: RangeValue<DateValue> | null): void {
    if (value) change(adjustCustomRange(value.start, value.end, zone));
  }

  const label = rangeLabel(intl, range, zone);
  return (
    <I18nProvider locale={intl.locale}>
      <div className="fh-range-picker">
        <DialogTrigger isOpen={isOpen} onOpenChange={setOpen}>
          <Button className="fh-range-picker__button" aria-label={intl.formatMessage(messages.button, { range: label })}>
            <span className="mdi mdi-calendar-range" aria-hidden="true" />
            <span className="fh-range-picker__label">{label}</span>
            <span className="mdi mdi-menu-down" aria-hidden="true" />
          </Button>
          <Popover className="fh-range-picker__popover" placement="bottom start">
            <Dialog className="fh-range-picker__dialog" aria-label={intl.formatMessage(messages.dialog)}>
              <div className="fh-range-picker__presets" role="group" aria-labelledby={presetsLabel}>
                <div className="fh-range-picker__caption" id={presetsLabel}>
                  {intl.formatMessage(messages.presets)}
                </div>
                {presets.map((preset) => (
                  <ToggleButton
                    key={preset}
                    className="fh-range-picker__preset"
                    isSelected={range.preset === preset}
                    autoFocus={range.preset === preset}
                    onChange={() => choosePreset(preset)}
                  >
                    {intl.formatMessage(presetMessages[preset])}
                  </ToggleButton>
                ))}
              </div>
              <RangeCalendar
                className="fh-range-picker__calendar"
                aria-label={intl.formatMessage(messages.calendar)}
                aria-describedby={calendarHint}
                autoFocus={range.preset === null}
                value={{ start: midnight(range.from, zone), end: midnight(range.to, zone) }}
                defaultFocusedValue={dayOf(range.to, zone)}
                maxValue={today(zone)}
                onChange={chooseDays}
              >
                <div className="fh-range-picker__caption" id={calendarHint}>
                  {intl.formatMessage(messages.calendarHint)}
                </div>
                <header className="fh-range-picker__month">
                  <Button slot="previous" className="fh-range-picker__nav">
                    <span className="mdi mdi-chevron-left" aria-hidden="true" />
                  </Button>
                  <Heading className="fh-range-picker__heading" />
                  <Button slot="next" className="fh-range-picker__nav">
                    <span className="mdi mdi-chevron-right" aria-hidden="true" />
                  </Button>
                </header>
                <CalendarGrid className="fh-range-picker__grid" weekdayStyle="short">
                  {(date) => <CalendarCell className="fh-range-picker__cell" date={date} />}
                </CalendarGrid>
              </RangeCalendar>
            </Dialog>
          </Popover>
        </DialogTrigger>
        {name ? (
          <>
            <input type="hidden" name={`${name}From`} value={range.from.toISOString()} />
            <input type="hidden" name={`${name}To`} value={range.to.toISOString()} />
            <input type="hidden" name={`${name}Preset`} value={range.preset ?? ""} />
          </>
        ) : null}
      </div>
    </I18nProvider>
  );
}

// midnight is the start of d's day in timeZone. The calendar takes its
// time zone from a zoned value and otherwise uses the browser's, which would
// mark the browser's today rather than the page's.
function midnight(d: Date, timeZone: string): ZonedDateTime {
  return toZoned(dayOf(d, timeZone), timeZone);
}

// rangeLabel is the button's text: the preset's name, or the days of a
// custom range (with the times when it does not cover whole days).
function rangeLabel(intl: IntlShape, range: Range, zone: string): string {
  if (range.preset) return intl.formatMessage(presetMessages[range.preset]);
  return intl.formatDateTimeRange(
    range.from,
    range.to,
    isWholeDays(range, zone) ? { dateStyle: "medium" } : { dateStyle: "medium", timeStyle: "short" },
  );
}
