// ModuleCard is one module in the grid: its title in the module's colours,
// the date-range picker of modules that draw a range, the widget, and in
// edit mode the handle to move it (drag, or arrow keys), its two size
// pickers and its menu (configure, copy, move, delete).
import { useId, useState, type CSSProperties, type DragEvent, type KeyboardEvent, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Menu, MenuItem, MenuTrigger, Separator } from "@/components/ui/menu";
import { Popover } from "@/components/ui/popover";
import { useIntl } from "react-intl";
import { DateRangePicker, type RangeDetail } from "@/components/date-range-picker/date-range-picker";
import { safeColor } from "@/features/dashboards/utils/format";
import { rangeOfOffset, type Range } from "@/features/dashboards/hooks/use-module-data";
import { midSpan, smallSpan } from "@/features/dashboards/utils/layout";
import { SelectField } from "@/features/dashboards/components/fields";
import { msg, sizeNames } from "@/features/dashboards/utils/messages";
import { alarmTypes, attrOn, rangedTypes, rangeSeconds, sizes, T, type DashModule, type Size } from "@/features/dashboards/utils/dashboard-model";
import { WidgetBoundary } from "@/features/dashboards/components/widgets/states";
import { AlarmBadge } from "@/features/dashboards/components/widgets/alarm-badge";
import { Widget } from "@/features/dashboards/components/widgets/widget";

export type CardAction = "configure" | "copy" | "earlier" | "later" | "delete";

export interface ModuleCardProps {
  module: DashModule;
  position: number;
  count: number;
  editing: boolean;
  dragging: boolean;
  dropTarget: boolean;
  onAction: (a: CardAction) => void;
  onResize: (patch: { sizeSmall?: Size; sizeMid?: Size }) => void;
  onMoveKey: (to: number) => void;
  onRange: (offsetSeconds: number) => void;
  save: (m: DashModule) => void;
  onDragStart: () => void;
  onDragEnd: () => void;
  onDragOver: () => void;
  onDrop: () => void;
}

export const dragType = "application/x-fieldhub-module";

export function ModuleCard(props: ModuleCardProps): ReactNode {
  const { module: m, position, count, editing, dragging, dropTarget, onAction, onResize, onMoveKey, onRange, save } = props;
  const intl = useIntl();
  const titleId = useId();
  const [range, setRange] = useState<Range>(() => rangeOfOffset(rangeSeconds(m), Date.now()));
  const title = m.title || intl.formatMessage(msg.untitled);
  const ranged = rangedTypes.has(m.type) || (m.type === T.latest && attrOn(m, "so_single_sparkline"));

  function onRangeChange(d: RangeDetail): void {
    const from = Date.parse(d.from);
    const to = Date.parse(d.to);
    setRange({ from, to, preset: d.preset, live: to >= Date.now() - 60_000 });
    onRange(Math.max(1, Math.round(d.offsetMs / 1000)));
  }

  function onHandleKey(e: KeyboardEvent<HTMLElement>): void {
    const to: Record<string, number> = {
      ArrowLeft: position - 1,
      ArrowUp: position - 1,
      ArrowRight: position + 1,
      ArrowDown: position + 1,
      Home: 0,
      End: count - 1,
    };
    const target = to[e.key];
    if (target === undefined) return;
    e.preventDefault();
    if (target >= 0 && target < count && target !== position) onMoveKey(target);
  }

  const style = {
    "--fh-span-small": smallSpan[m.sizeSmall],
    "--fh-span-mid": midSpan[m.sizeMid],
    background: safeColor(m.cardColor) || undefined,
  } as CSSProperties;

  const dropHandlers = editing
    ? {
        onDragOver: (e: DragEvent<HTMLElement>) => {
          if (!e.dataTransfer.types.includes(dragType)) return;
          e.preventDefault();
          e.dataTransfer.dropEffect = "move";
          props.onDragOver();
        },
        onDrop: (e: DragEvent<HTMLElement>) => {
          if (!e.dataTransfer.types.includes(dragType)) return;
          e.preventDefault();
          props.onDrop();
        },
      }
    : {};

  const sizeOptions = sizes.map((s) => ({ id: s, label: intl.formatMessage(sizeNames[s]) }));

  return (
    <li
      className={`fh-dash-card${editing ? " fh-dash-card--editing" : ""}${dragging ? " fh-dash-card--dragging" : ""}${dropTarget ? " fh-dash-card--target" : ""}`}
      style={style}
      data-module-id={m.dashboardModuleId}
      data-type={m.type}
      aria-labelledby={titleId}
      {...dropHandlers}
    >
      <header className="fh-dash-card__head">
        {editing ? (
          <span
            className="fh-dash-card__handle mdi mdi-drag"
            role="button"
            tabIndex={0}
            draggable
            aria-label={intl.formatMessage(msg.drag, { title })}
            aria-describedby={titleId}
            onKeyDown={onHandleKey}
            onDragStart={(e) => {
              e.dataTransfer.setData(dragType, String(m.dashboardModuleId));
              e.dataTransfer.effectAllowed = "move";
              const card = e.currentTarget.closest("li");
              if (card) e.dataTransfer.setDragImage(card, 24, 24);
              props.onDragStart();
            }}
            onDragEnd={props.onDragEnd}
          />
        ) : null}
        <h2 className="fh-dash-card__title" id={titleId} style={{ color: safeColor(m.titleColor) || undefined }}>
          {title}
        </h2>
        {ranged ? (
          <div className="fh-dash-card__range" role="group" aria-label={intl.formatMessage(msg.range, { title })}>
            <DateRangePicker preset={range.preset ?? undefined} from={new Date(range.from).toISOString()} to={new Date(range.to).toISOString()} onRangeChange={onRangeChange} />
          </div>
        ) : null}
        {editing ? (
          <MenuTrigger>
            <Button className="fh-dash-icon-button" aria-label={intl.formatMessage(msg.actions, { title })}>
              <span className="mdi mdi-dots-vertical" aria-hidden="true" />
            </Button>
            <Popover className="fh-dash-popover" placement="bottom end">
              <Menu className="fh-dash-menu" onAction={(k) => onAction(k as CardAction)} disabledKeys={[...(position === 0 ? ["earlier"] : []), ...(position === count - 1 ? ["later"] : [])]}>
                <MenuItem id="configure" className="fh-dash-menu__item">
                  <span className="mdi mdi-cog-outline" aria-hidden="true" /> {intl.formatMessage(msg.configure)}
                </MenuItem>
                <MenuItem id="copy" className="fh-dash-menu__item">
                  <span className="mdi mdi-content-copy" aria-hidden="true" /> {intl.formatMessage(msg.copy)}
                </MenuItem>
                <MenuItem id="earlier" className="fh-dash-menu__item">
                  <span className="mdi mdi-arrow-left" aria-hidden="true" /> {intl.formatMessage(msg.moveEarlier)}
                </MenuItem>
                <MenuItem id="later" className="fh-dash-menu__item">
                  <span className="mdi mdi-arrow-right" aria-hidden="true" /> {intl.formatMessage(msg.moveLater)}
                </MenuItem>
                <Separator className="fh-dash-menu__separator" />
                <MenuItem id="delete" className="fh-dash-menu__item fh-dash-menu__item--danger">
                  <span className="mdi mdi-delete-outline" aria-hidden="true" /> {intl.formatMessage(msg.remove)}
                </MenuItem>
              </Menu>
            </Popover>
          </MenuTrigger>
        ) : null}
      </header>
      {editing ? (
        <div className="fh-dash-card__sizes">
          <SelectField label={intl.formatMessage(msg.sizeSmall)} value={m.sizeSmall} options={sizeOptions} onChange={(v) => onResize({ sizeSmall: v as Size })} />
          <SelectField label={intl.formatMessage(msg.sizeMid)} value={m.sizeMid} options={sizeOptions} onChange={(v) => onResize({ sizeMid: v as Size })} />
        </div>
      ) : null}
      <div className="fh-dash-card__body" style={{ color: safeColor(m.valueColor) || undefined }}>
        {alarmTypes.has(m.type) && m.attributes.alarm_id ? (
          <WidgetBoundary>
            <AlarmBadge module={m} />
          </WidgetBoundary>
        ) : null}
        <WidgetBoundary>
          <Widget module={m} range={range} editing={editing} save={save} />
        </WidgetBoundary>
      </div>
    </li>
  );
}
