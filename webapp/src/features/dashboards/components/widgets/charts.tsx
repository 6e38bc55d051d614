// The time-series widgets: chart (0), multi-chart (10), trend chart (14)
// and raw table (9). They read GET .../tagdata over the module's range and
// grow as live values arrive.
import type { ReactNode } from "react";
import { useIntl } from "react-intl";
import { decimals } from "@/features/dashboards/utils/format";
import { useSeries } from "@/features/dashboards/hooks/use-module-data";
import { msg } from "@/features/dashboards/utils/messages";
import {
  attr,
  attrNum,
  attrOn,
  chartKinds,
  refsOf,
  resolutions,
  T,
  type ChartKind,
  type DashModule,
  type Resolution,
  type Series,
} from "@/features/dashboards/utils/dashboard-model";
import { Empty, Loaded, type WidgetProps } from "@/features/dashboards/components/widgets/states";
import TimeChart, { type ChartSeries } from "@/features/dashboards/components/widgets/time-chart";

// chartHeight is a chart's plot height: maxheight when set (120-800 px).
export function chartHeight(m: DashModule, fallback = 240): number {
  const h = attrNum(m, "maxheight");
  return h !== null && h >= 120 && h <= 800 ? h : fallback;
}

export const chartKindOf = (m: DashModule): ChartKind => {
  const k = attr(m, "so_chart_type");
  return chartKinds.includes(k as ChartKind) ? (k as ChartKind) : "line";
};

export const resolutionOf = (m: DashModule): Resolution => {
  const r = attr(m, "resolution");
  return resolutions.includes(r as Resolution) ? (r as Resolution) : "auto";
};

// seriesLabel names a series: its key's label, with the node's name when the
// module draws several nodes.
export function seriesLabel(s: Series, manyNodes: boolean): string {
  const key = s.label || s.key;
  return manyNodes && s.name ? `${s.name} – ${key}` : key;
}

function toChartSeries(list: Series[], m: DashModule): ChartSeries[] {
  const many = new Set(list.map((s) => s.deveui)).size > 1 || m.type === T.multiChart;
  return list.map((s) => ({
    id: `${s.deveui}|${s.key}`,
    label: seriesLabel(s, many),
    unit: s.unit,
    points: s.points,
    buckets: s.buckets,
  }));
}

export function ChartWidget({ module: m, range }: WidgetProps): ReactNode {
  const intl = useIntl();
  const trend = m.type === T.trend;
  const load = useSeries(m, range, trend ? { resolution: resolutionOf(m) } : { points: 600 });
  if (refsOf(m).length === 0) return <Empty message={msg.wNotSet} />;
  return (
    <Loaded load={load}>
      {(data) => {
        const drawable = data.series.filter((s) => (s.buckets ? s.buckets.length > 0 : s.points.length > 0));
        if (drawable.length === 0) {
          const texts = data.series.some((s) => s.texts.length > 0);
          return <Empty message={texts ? msg.wTextOnly : msg.wNoData} />;
        }
        const series = toChartSeries(drawable, m);
        return (
          <TimeChart
            moduleId={m.dashboardModuleId}
            series={series}
            from={data.from || range.from}
            to={data.to || range.to}
            kind={trend ? "line" : chartKindOf(m)}
            height={chartHeight(m)}
            minLine={m.min}
            maxLine={m.max}
            syncChart={m.sync_chart}
            syncY={attrOn(m, "sync_y")}
            zoomSlider={attrOn(m, "zoom_slider")}
            axisLabel={attr(m, "axis_label")}
            decimals={decimals(m.attributes.decimal_rounding)}
            label={intl.formatMessage(msg.chartLabel, { series: series.map((s) => s.label).join(", ") })}
          />
        );
      }}
    </Loaded>
  );
}

// TableWidget lists the values of the module's keys by time, newest first:
// one row per time, one column per key.
export function TableWidget({ module: m, range }: WidgetProps): ReactNode {
  const intl = useIntl();
  const load = useSeries(m, range, { points: 1000 });
  if (refsOf(m).length === 0) return <Empty message={msg.wNotSet} />;
  const places = decimals(m.attributes.decimal_rounding);
  return (
    <Loaded load={load}>
      {(data) => {
        const cols = data.series;
        const rows = new Map<number, Map<number, string>>();
        cols.forEach((s, i) => {
          for (const p of s.points) {
            const row = rows.get(p.t) ?? new Map<number, string>();
            row.set(i, intl.formatNumber(p.v, { maximumFractionDigits: places ?? 3, minimumFractionDigits: places ?? 0 }));
            rows.set(p.t, row);
          }
          for (const p of s.texts) {
            const row = rows.get(p.t) ?? new Map<number, string>();
            row.set(i, p.s);
            rows.set(p.t, row);
          }
        });
        if (rows.size === 0) return <Empty />;
        const times = [...rows.keys()].sort((a, b) => b - a).slice(0, 500);
        const many = new Set(cols.map((s) => s.deveui)).size > 1;
        const names = cols.map((s) => seriesLabel(s, many));
        return (
          <div className="fh-dash-table" tabIndex={0} role="region" aria-label={intl.formatMessage(msg.tableCaption, { series: names.join(", ") })} style={{ maxHeight: chartHeight(m, 320) }}>
            <table>
              <caption className="sr-only">{intl.formatMessage(msg.tableCaption, { series: names.join(", ") })}</caption>
              <thead>
                <tr>
                  <th scope="col">{intl.formatMessage(msg.tableTime)}</th>
                  {cols.map((s, i) => (
                    <th scope="col" key={`${s.deveui}|${s.key}`} className="fh-dash-table__num">
                      {names[i]}
                      {s.unit ? ` (${s.unit})` : ""}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {times.map((t) => (
                  <tr key={t}>
                    <th scope="row">{intl.formatDate(new Date(t), { dateStyle: "short", timeStyle: "long" })}</th>
                    {cols.map((s, i) => (
                      <td key={`${s.deveui}|${s.key}`} className="fh-dash-table__num">
                        {rows.get(t)?.get(i) ?? ""}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      }}
    </Loaded>
  );
}
