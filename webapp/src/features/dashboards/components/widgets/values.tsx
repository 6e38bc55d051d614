// The widgets of one current value: gauge (1), latest value (8), fill
// level indicator (17) and the tilt visualizer (16). They read GET
// .../tagdata/latest and take each new value as it arrives.
import type { CSSProperties, ReactNode } from "react";
import { useIntl, type IntlShape } from "react-intl";
import {
  decimals,
  fontSize,
  fraction,
  matchValue,
  parseFontStyle,
  parseValueMatch,
  safeColor,
  trendOf,
} from "@/features/dashboards/utils/format";
import { useLatest, useSeries } from "@/features/dashboards/hooks/use-module-data";
import { msg } from "@/features/dashboards/utils/messages";
import { attr, attrNum, attrOn, refsOf, type DashModule, type Latest } from "@/features/dashboards/utils/dashboard-model";
import { Empty, Loaded, type WidgetProps } from "@/features/dashboards/components/widgets/states";
import TimeChart from "@/features/dashboards/components/widgets/time-chart";

// formatValue formats v with the module's decimal_rounding.
export function formatValue(intl: IntlShape, m: DashModule, v: number): string {
  const d = decimals(m.attributes.decimal_rounding);
  return intl.formatNumber(v, d === null ? { maximumFractionDigits: 2 } : { maximumFractionDigits: d, minimumFractionDigits: d });
}

// withAffixes puts the module's prefix and sufix (or else the key's unit)
// around a formatted value.
export function withAffixes(m: DashModule, text: string, unit: string): string {
  const prefix = attr(m, "prefix");
  const sufix = attr(m, "sufix") || unit;
  return `${prefix ? `${prefix} ` : ""}${text}${sufix ? ` ${sufix}` : ""}`;
}

// pick is the latest value of the module's first series.
function pick(m: DashModule, list: readonly Latest[]): Latest | undefined {
  const ref = refsOf(m)[0];
  return ref ? list.find((l) => l.deveui === ref.deveui && l.key === ref.key) : undefined;
}

// shown is what a value widget displays and in which colour: value_match
// may give a colour and a text; else the module's value colour.
function shown(intl: IntlShape, m: DashModule, l: Latest): { text: string; color: string } {
  const rules = parseValueMatch(attr(m, "value_match"));
  const raw = l.value !== null ? formatValue(intl, m, l.value) : (l.text ?? "");
  const hit = matchValue(rules, l.value, l.text ?? (l.value !== null ? String(l.value) : ""));
  const text = hit?.text ? hit.text : withAffixes(m, raw, l.value !== null ? l.unit : "");
  return { text, color: hit?.color || safeColor(m.valueColor) };
}

function Updated({ time }: { time: number | null }): ReactNode {
  const intl = useIntl();
  if (time === null) return null;
  return (
    <span className="fh-dash-value__time">
      {intl.formatMessage(msg.wUpdated, { time: intl.formatDate(new Date(time), { dateStyle: "short", timeStyle: "short" }) })}
    </span>
  );
}

export function LatestWidget(props: WidgetProps): ReactNode {
  const { module: m } = props;
  const intl = useIntl();
  const load = useLatest(m);
  if (refsOf(m).length === 0) return <Empty message={msg.wNotSet} />;
  const style: CSSProperties = { ...parseFontStyle(attr(m, "font_style_large")) };
  const size = fontSize(attr(m, "font_size"));
  if (size) style.fontSize = size;
  // The sparkline loads beside the value, not after it.
  return (
    <>
      <Loaded load={load}>
        {(list) => {
          const l = pick(m, list);
          if (!l || (l.value === null && l.text === null)) return <Empty message={msg.wNoValue} />;
          const { text, color } = shown(intl, m, l);
          const trend = attrOn(m, "hide_trend_icon") ? null : trendOf(l.value, l.previous);
          return (
            <div className={`fh-dash-value${attrOn(m, "horizontel_single_title") ? " fh-dash-value--row" : ""}`}>
              {!attrOn(m, "so_hide_node_info") && (l.name || l.label) ? (
                <span className="fh-dash-value__node">{[l.name, l.label || l.key].filter(Boolean).join(" · ")}</span>
              ) : null}
              <span className="fh-dash-value__main">
                <output className="fh-dash-value__number" style={{ ...style, color: color || undefined }} data-value={l.value ?? l.text ?? ""}>
                  {text}
                </output>
                {trend ? (
                  <span
                    className={`mdi fh-dash-value__trend fh-dash-value__trend--${trend} ${trend === "up" ? "mdi-trending-up" : trend === "down" ? "mdi-trending-down" : "mdi-trending-neutral"}`}
                    role="img"
                    aria-label={intl.formatMessage(trend === "up" ? msg.trendUp : trend === "down" ? msg.trendDown : msg.trendFlat)}
                  />
                ) : null}
              </span>
              <Updated time={l.time} />
            </div>
          );
        }}
      </Loaded>
      {attrOn(m, "so_single_sparkline") ? <Sparkline {...props} /> : null}
    </>
  );
}

function Sparkline({ module: m, range }: WidgetProps): ReactNode {
  const intl = useIntl();
  const load = useSeries(m, range, { points: 200 });
  if (load.state !== "done") return null;
  const s = load.data.series[0];
  if (!s || s.points.length < 2) return null;
  return (
    <TimeChart
      moduleId={m.dashboardModuleId}
      series={[{ id: "spark", label: s.label || s.key, unit: s.unit, points: s.points, buckets: null }]}
      from={load.data.from || range.from}
      to={load.data.to || range.to}
      kind="line"
      height={48}
      minLine={null}
      maxLine={null}
      syncChart={false}
      syncY={false}
      zoomSlider={false}
      axisLabel=""
      decimals={null}
      label={intl.formatMessage(msg.chartLabel, { series: s.label || s.key })}
      compact
    />
  );
}

// Gauge bounds: the module's min and max, else 0 and 100.
const gaugeStart = -120;
const gaugeSweep = 240;

function arc(cx: number, cy: number, r: number, from: number, to: number): string {
  const p = (deg: number): [number, number] => {
    const rad = ((deg - 90) * Math.PI) / 180;
    return [cx + r * Math.cos(rad), cy + r * Math.sin(rad)];
  };
  const [x0, y0] = p(from);
  const [x1, y1] = p(to);
  return `M ${x0} ${y0} A ${r} ${r} 0 ${to - from > 180 ? 1 : 0} 1 ${x1} ${y1}`;
}

export function GaugeWidget({ module: m }: WidgetProps): ReactNode {
  const intl = useIntl();
  const load = useLatest(m);
  if (refsOf(m).length === 0) return <Empty message={msg.wNotSet} />;
  const min = m.min ?? 0;
  const max = m.max !== null && m.max > min ? m.max : min + 100;
  return (
    <Loaded load={load}>
      {(list) => {
        const l = pick(m, list);
        if (!l || l.value === null) return <Empty message={msg.wNoValue} />;
        const f = fraction(l.value, min, max) ?? 0;
        const { text, color } = shown(intl, m, l);
        const end = gaugeStart + gaugeSweep * f;
        return (
          <div className="fh-dash-gauge">
            <div
              role="meter"
              aria-valuemin={min}
              aria-valuemax={max}
              aria-valuenow={l.value}
              aria-valuetext={text}
              aria-label={intl.formatMessage(msg.gaugeLabel, { value: text, min: formatValue(intl, m, min), max: formatValue(intl, m, max) })}
            >
              <svg viewBox="0 0 200 170" className="fh-dash-gauge__svg" aria-hidden="true">
                <path d={arc(100, 100, 80, gaugeStart, gaugeStart + gaugeSweep)} className="fh-dash-gauge__track" />
                {f > 0 ? <path d={arc(100, 100, 80, gaugeStart, end)} className="fh-dash-gauge__fill" style={color ? { stroke: color } : undefined} /> : null}
                <text x="100" y="108" textAnchor="middle" className="fh-dash-gauge__value" style={color ? { fill: color } : undefined}>
                  {text}
                </text>
                <text x="38" y="160" textAnchor="middle" className="fh-dash-gauge__bound">
                  {formatValue(intl, m, min)}
                </text>
                <text x="162" y="160" textAnchor="middle" className="fh-dash-gauge__bound">
                  {formatValue(intl, m, max)}
                </text>
              </svg>
            </div>
            <span className="fh-dash-value__node">{[l.name, l.label || l.key].filter(Boolean).join(" · ")}</span>
            <Updated time={l.time} />
          </div>
        );
      }}
    </Loaded>
  );
}

export function FillLevelWidget({ module: m }: WidgetProps): ReactNode {
  const intl = useIntl();
  const load = useLatest(m);
  if (refsOf(m).length === 0) return <Empty message={msg.wNotSet} />;
  const min = attrNum(m, "min_value") ?? 0;
  const maxRaw = attrNum(m, "max_value");
  const max = maxRaw !== null && maxRaw > min ? maxRaw : min + 100;
  return (
    <Loaded load={load}>
      {(list) => {
        const l = pick(m, list);
        if (!l || l.value === null) return <Empty message={msg.wNoValue} />;
        const f = fraction(l.value, min, max) ?? 0;
        const { text, color } = shown(intl, m, l);
        const percent = intl.formatNumber(f, { style: "percent", maximumFractionDigits: 0 });
        const tankH = 150;
        const levelH = tankH * f;
        return (
          <div className="fh-dash-fill">
            <div
              role="meter"
              aria-valuemin={min}
              aria-valuemax={max}
              aria-valuenow={l.value}
              aria-valuetext={intl.formatMessage(msg.fillLabel, { percent, value: text })}
              aria-label={m.title || intl.formatMessage(msg.fillLabel, { percent, value: text })}
            >
              <svg viewBox="0 0 120 180" className="fh-dash-fill__svg" aria-hidden="true">
                <defs>
                  <clipPath id={`tank-${m.dashboardModuleId}`}>
                    <rect x="12" y="15" width="96" height={tankH} rx="14" />
                  </clipPath>
                </defs>
                <rect x="12" y="15" width="96" height={tankH} rx="14" className="fh-dash-fill__tank" />
                <g clipPath={`url(#tank-${m.dashboardModuleId})`}>
                  <rect x="12" y={15 + tankH - levelH} width="96" height={levelH} className="fh-dash-fill__level" style={color ? { fill: color } : undefined} />
                  <path
                    d={`M12 ${15 + tankH - levelH} q12 -6 24 0 t24 0 t24 0 t24 0 v6 h-96 z`}
                    className="fh-dash-fill__wave"
                    style={color ? { fill: color } : undefined}
                  />
                </g>
                <rect x="12" y="15" width="96" height={tankH} rx="14" className="fh-dash-fill__outline" />
                {[0.25, 0.5, 0.75].map((s) => (
                  <line key={s} x1="12" x2="24" y1={15 + tankH * (1 - s)} y2={15 + tankH * (1 - s)} className="fh-dash-fill__tick" />
                ))}
                <text x="60" y={15 + tankH / 2 + 8} textAnchor="middle" className="fh-dash-fill__percent">
                  {percent}
                </text>
              </svg>
            </div>
            <span className="fh-dash-fill__value">{text}</span>
            <Updated time={l.time} />
          </div>
        );
      }}
    </Loaded>
  );
}

export function TiltWidget({ module: m }: WidgetProps): ReactNode {
  const intl = useIntl();
  const load = useLatest(m);
  const kx = attr(m, "tagkey_x");
  const ky = attr(m, "tagkey_y");
  if (!m.tag || !kx || !ky) return <Empty message={msg.wNotSet} />;
  const maxX = attrNum(m, "tagkey_x_max");
  const maxY = attrNum(m, "tagkey_y_max");
  return (
    <Loaded load={load}>
      {(list) => {
        const x = list.find((l) => l.deveui === m.tag && l.key === kx);
        const y = list.find((l) => l.deveui === m.tag && l.key === ky);
        if (x?.value == null && y?.value == null) return <Empty message={msg.wNoValue} />;
        const ax = x?.value ?? 0;
        const ay = y?.value ?? 0;
        const deg = (v: number): string => `${formatValue(intl, m, v)}°`;
        const overX = maxX !== null && Math.abs(ax) > maxX;
        const overY = maxY !== null && Math.abs(ay) > maxY;
        // The bubble of the level: 90° reaches the rim.
        const bx = Math.max(-1, Math.min(1, ay / 90)) * 40;
        const by = Math.max(-1, Math.min(1, ax / 90)) * 40;
        const time = Math.max(x?.time ?? 0, y?.time ?? 0);
        return (
          <div className="fh-dash-tilt" role="img" aria-label={intl.formatMessage(msg.tiltLabel, { x: deg(ax), y: deg(ay) })}>
            <div className="fh-dash-tilt__views" aria-hidden="true">
              <div className="fh-dash-tilt__stage">
                <div className="fh-dash-tilt__cube" style={{ transform: `rotateX(${-ax}deg) rotateZ(${ay}deg)` }} data-x={ax} data-y={ay}>
                  {["front", "back", "left", "right", "top", "bottom"].map((f) => (
                    <span key={f} className={`fh-dash-tilt__face fh-dash-tilt__face--${f}`} />
                  ))}
                </div>
              </div>
              <svg viewBox="-50 -50 100 100" className="fh-dash-tilt__level">
                <circle r="46" className="fh-dash-tilt__ring" />
                <circle r="23" className="fh-dash-tilt__ring fh-dash-tilt__ring--inner" />
                <line x1="-46" x2="46" y1="0" y2="0" className="fh-dash-tilt__axis" />
                <line y1="-46" y2="46" x1="0" x2="0" className="fh-dash-tilt__axis" />
                <circle cx={bx} cy={by} r="7" className={`fh-dash-tilt__bubble${overX || overY ? " fh-dash-tilt__bubble--over" : ""}`} />
              </svg>
            </div>
            <dl className="fh-dash-tilt__readout">
              <div className={overX ? "fh-dash-tilt--over" : undefined}>
                <dt>X</dt>
                <dd>
                  {deg(ax)}
                  {overX ? <span className="fh-dash-tilt__warn"> {intl.formatMessage(msg.tiltOver)}</span> : null}
                </dd>
              </div>
              <div className={overY ? "fh-dash-tilt--over" : undefined}>
                <dt>Y</dt>
                <dd>
                  {deg(ay)}
                  {overY ? <span className="fh-dash-tilt__warn"> {intl.formatMessage(msg.tiltOver)}</span> : null}
                </dd>
              </div>
            </dl>
            <Updated time={time || null} />
          </div>
        );
      }}
    </Loaded>
  );
}
