// ImageMapWidget (type 11) shows sensors on an uploaded floor plan, each
// with its latest value at its place (the positions attribute, x and y in
// 0..1 of the picture). While editing, the sensors are dragged into place,
// or moved with the arrow keys; the zoom (-1 fits the card, else a
// percentage) is stored in the module's settings.
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { useIntl } from "react-intl";
import { matchValue, parseValueMatch, safeColor } from "@/features/dashboards/utils/format";
import { useLatest, useSource } from "@/features/dashboards/hooks/use-module-data";
import { msg } from "@/features/dashboards/utils/messages";
import { attr, clamp01, parsePositions, type DashModule, type Position } from "@/features/dashboards/utils/dashboard-model";
import { Empty, type WidgetProps } from "@/features/dashboards/components/widgets/states";
import { formatValue, withAffixes } from "@/features/dashboards/components/widgets/values";

const zoomSteps = [50, 75, 100, 125, 150, 200, 300];

// withPositions is m with its sensors at ps; the series attribute follows,
// so that the latest-values route knows which keys to read.
export function withPositions(m: DashModule, ps: readonly Position[]): DashModule {
  const round = (v: number): number => Math.round(v * 1e4) / 1e4;
  const positions = ps.map((p) => ({ deveui: p.deveui, key: p.key, x: round(p.x), y: round(p.y) }));
  return {
    ...m,
    attributes: {
      ...m.attributes,
      positions: JSON.stringify(positions),
      series: JSON.stringify(positions.map(({ deveui, key }) => ({ deveui, key }))),
    },
  };
}

export function ImageMapWidget({ module: m, editing, save }: WidgetProps): ReactNode {
  const intl = useIntl();
  const source = useSource();
  const load = useLatest(m);
  const [positions, setPositions] = useState<Position[]>(() => parsePositions(attr(m, "positions")));
  const [drag, setDrag] = useState<number | null>(null);
  const plan = useRef<HTMLDivElement | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const positionsAttr = attr(m, "positions");
  useEffect(() => setPositions(parsePositions(positionsAttr)), [positionsAttr]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const url = source.imageUrl(m);
  if (!url) return <Empty message={msg.wNoImage} />;
  const zoom = m.settings.imageMapZoom;
  const rules = parseValueMatch(attr(m, "value_match"));
  const values = load.state === "done" ? load.data : [];

  function store(next: Position[], delay: number): void {
    setPositions(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => save(withPositions(m, next)), delay);
  }

  function setZoom(z: number): void {
    save({ ...m, settings: { ...m.settings, imageMapZoom: z } });
  }

  function placeAt(i: number, e: PointerEvent<HTMLElement>): Position[] | null {
    const r = plan.current?.getBoundingClientRect();
    const p = positions[i];
    if (!r || !p || r.width === 0 || r.height === 0) return null;
    const next = [...positions];
    next[i] = { ...p, x: clamp01((e.clientX - r.left) / r.width), y: clamp01((e.clientY - r.top) / r.height) };
    return next;
  }

  function onKey(i: number, e: KeyboardEvent<HTMLElement>): void {
    const p = positions[i];
    if (!editing || !p) return;
    const step = e.shiftKey ? 0.05 : 0.01;
    const d: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const move = d[e.key];
    if (!move) return;
    e.preventDefault();
    const next = [...positions];
    next[i] = { ...p, x: clamp01(p.x + move[0]), y: clamp01(p.y + move[1]) };
    store(next, 600);
  }

  const current = zoomSteps.indexOf(zoom);
  const stepZoom = (dir: 1 | -1): void => {
    const base = zoom === -1 ? 100 : zoom;
    const idx = current >= 0 ? current : zoomSteps.findIndex((s) => s >= base);
    const next = zoomSteps[Math.max(0, Math.min(zoomSteps.length - 1, (idx < 0 ? 2 : idx) + dir))] ?? 100;
    setZoom(next);
  };

  return (
    <div className="fh-dash-imagemap">
      <div className="fh-dash-imagemap__tools">
        <Button className="fh-dash-icon-button" aria-label={intl.formatMessage(msg.chartZoomOut)} onPress={() => stepZoom(-1)} isDisabled={zoom === zoomSteps[0]}>
          <span className="mdi mdi-magnify-minus-outline" aria-hidden="true" />
        </Button>
        <span className="fh-dash-imagemap__zoom" aria-live="polite">
          {zoom === -1 ? intl.formatMessage(msg.imageMapFit) : intl.formatNumber(zoom / 100, { style: "percent" })}
        </span>
        <Button className="fh-dash-icon-button" aria-label={intl.formatMessage(msg.chartZoomIn)} onPress={() => stepZoom(1)} isDisabled={zoom === zoomSteps[zoomSteps.length - 1]}>
          <span className="mdi mdi-magnify-plus-outline" aria-hidden="true" />
        </Button>
        <Button className="fh-dash-icon-button" aria-label={intl.formatMessage(msg.imageMapFit)} onPress={() => setZoom(-1)} isDisabled={zoom === -1}>
          <span className="mdi mdi-fit-to-page-outline" aria-hidden="true" />
        </Button>
        {editing ? <span className="fh-dash-imagemap__hint">{intl.formatMessage(msg.imageMapHint)}</span> : null}
      </div>
      <div className="fh-dash-imagemap__scroll">
        <div ref={plan} className="fh-dash-imagemap__plan" style={zoom === -1 ? { width: "100%" } : { width: `${zoom}%` }}>
          {/* The card's heading names the plan; the sensors on it are read one by one. */}
          <img src={url} alt="" draggable={false} />
          {positions.map((p, i) => {
            const l = values.find((v) => v.deveui === p.deveui && v.key === p.key);
            const raw = l?.value != null ? formatValue(intl, m, l.value) : (l?.text ?? "–");
            const hit = l ? matchValue(rules, l.value, l.text ?? String(l.value ?? "")) : null;
            const text = hit?.text || (l?.value != null ? withAffixes(m, raw, l.unit) : raw);
            const name = l ? [l.name, l.label || l.key].filter(Boolean).join(" · ") : `${p.deveui} · ${p.key}`;
            const color = hit?.color || safeColor(m.valueColor);
            return (
              <span
                key={`${p.deveui}|${p.key}|${i}`}
                className={`fh-dash-sensor${editing ? " fh-dash-sensor--movable" : ""}${drag === i ? " fh-dash-sensor--dragging" : ""}`}
                style={{ left: `${p.x * 100}%`, top: `${p.y * 100}%`, borderColor: color || undefined }}
                tabIndex={0}
                role={editing ? "button" : "note"}
                aria-label={intl.formatMessage(msg.imageMapSensor, { name, value: text })}
                aria-roledescription={editing ? intl.formatMessage(msg.imageMapHint) : undefined}
                title={name}
                data-deveui={p.deveui}
                data-key={p.key}
                onKeyDown={(e) => onKey(i, e)}
                onPointerDown={(e) => {
                  if (!editing) return;
                  e.currentTarget.setPointerCapture(e.pointerId);
                  setDrag(i);
                }}
                onPointerMove={(e) => {
                  if (drag !== i) return;
                  const next = placeAt(i, e);
                  if (next) setPositions(next);
                }}
                onPointerUp={(e) => {
                  if (drag !== i) return;
                  setDrag(null);
                  const next = placeAt(i, e);
                  if (next) store(next, 0);
                }}
              >
                <span className="fh-dash-sensor__value" style={color ? { color } : undefined}>
                  {text}
                </span>
                <span className="fh-dash-sensor__name">{l?.label || p.key}</span>
              </span>
            );
          })}
        </div>
      </div>
    </div>
  );
}
