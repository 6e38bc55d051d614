// The widgets that are not time series: text (2), image (3), company info
// (5), iframe (6), weather forecast (7), node info card (13) and node
// overview (15).
import { Fragment, type CSSProperties, type ReactNode } from "react";
import { useIntl, type IntlShape } from "react-intl";
import { compassPoint, fontSize, parseFontStyle, safeHttpUrl, weatherIcon } from "@/features/dashboards/utils/format";
import { useInfo, useNow, useSource, useWeather } from "@/features/dashboards/hooks/use-module-data";
import { msg } from "@/features/dashboards/utils/messages";
import { batteryIcon, batteryText } from "@/features/dashboards/utils/battery";
import { attr, attrNum, attrOn, keysOf, type DashModule, type NodeInfo } from "@/features/dashboards/utils/dashboard-model";
import { Empty, Loaded, type WidgetProps } from "@/features/dashboards/components/widgets/states";

// maxHeight reads the maxheight attribute (pixels, 40-2000).
function maxHeight(m: DashModule): number | undefined {
  const h = attrNum(m, "maxheight");
  return h !== null && h >= 40 && h <= 2000 ? h : undefined;
}

// TextWidget shows the module's content as plain text: paragraphs split at
// blank lines, line breaks kept. React escapes it, so no markup in the
// content ever reaches the page as HTML.
export function TextWidget({ module: m }: WidgetProps): ReactNode {
  const style: CSSProperties = { ...parseFontStyle(attr(m, "font_style_large")), maxHeight: maxHeight(m) };
  const size = fontSize(attr(m, "font_size"));
  if (size) style.fontSize = size;
  if (m.valueColor) style.color = m.valueColor;
  const paragraphs = m.content.split(/\n\s*\n/).filter((p) => p.trim() !== "");
  if (paragraphs.length === 0) return <Empty message={msg.wNotSet} />;
  return (
    <div className="fh-dash-text" style={style}>
      {paragraphs.map((p, i) => (
        <p key={i}>
          {p.split("\n").map((line, j) => (
            <Fragment key={j}>
              {j > 0 ? <br /> : null}
              {line}
            </Fragment>
          ))}
        </p>
      ))}
    </div>
  );
}

export function ImageWidget({ module: m }: WidgetProps): ReactNode {
  const source = useSource();
  const url = source.imageUrl(m);
  if (!url) return <Empty message={msg.wNoImage} />;
  return (
    <div className="fh-dash-image">
      {/* The card's heading already names the picture: an alt text repeating
          it would be read twice (WCAG technique H2). */}
      <img src={url} alt={m.title ? "" : attr(m, "icon")} style={{ maxHeight: maxHeight(m) }} loading="lazy" />
    </div>
  );
}

// IframeWidget embeds another page, sandboxed: scripts and forms may run,
// but a page of this portal's own origin never gets allow-same-origin, which
// would let it reach the session.
export function IframeWidget({ module: m }: WidgetProps): ReactNode {
  const intl = useIntl();
  const url = safeHttpUrl(m.url);
  if (!url) return <Empty message={msg.iframeNoUrl} />;
  const sameOrigin = url.origin === location.origin;
  const sandbox = ["allow-scripts", "allow-forms", "allow-popups", ...(sameOrigin ? [] : ["allow-same-origin"])].join(" ");
  return (
    <iframe
      className="fh-dash-iframe"
      src={url.href}
      title={m.title || intl.formatMessage({ id: "dashboards.type.6", defaultMessage: "Web page (iframe)" })}
      sandbox={sandbox}
      referrerPolicy="no-referrer"
      loading="lazy"
      style={{ height: maxHeight(m) ?? 320 }}
    />
  );
}

export function CompanyWidget({ module: m }: WidgetProps): ReactNode {
  const intl = useIntl();
  const load = useInfo(m);
  return (
    <Loaded load={load}>
      {(info) => {
        const c = info.company;
        if (!c) return <Empty message={msg.wNoValue} />;
        const rows: [string, ReactNode][] = [
          [intl.formatMessage(msg.companyOrg), c.orgNumber],
          [intl.formatMessage(msg.companyAddress), c.postalAdress],
          [intl.formatMessage(msg.companyPhone), c.contactPhonenumber ? <a href={`tel:${c.contactPhonenumber.replace(/[^\d+]/g, "")}`}>{c.contactPhonenumber}</a> : ""],
          [intl.formatMessage(msg.companyEmail), c.invoiceAdress ? <a href={`mailto:${c.invoiceAdress}`}>{c.invoiceAdress}</a> : ""],
        ];
        return (
          <div className="fh-dash-company">
            {c.image ? <img className="fh-dash-company__logo" src={c.image} alt={intl.formatMessage(msg.companyLogo, { name: c.name })} /> : null}
            <strong className="fh-dash-company__name">{c.name}</strong>
            <dl className="fh-dash-details">
              {rows
                .filter(([, v]) => v !== "")
                .map(([k, v]) => (
                  <div key={k}>
                    <dt>{k}</dt>
                    <dd>{v}</dd>
                  </div>
                ))}
            </dl>
          </div>
        );
      }}
    </Loaded>
  );
}

// age is a relative time ("5 minutes ago") in the page's language.
export function age(intl: IntlShape, t: number | null, now: number): string {
  if (t === null) return intl.formatMessage(msg.wNever);
  const s = Math.round((t - now) / 1000);
  const abs = Math.abs(s);
  if (abs < 60) return intl.formatRelativeTime(0, "second", { numeric: "auto" });
  if (abs < 3600) return intl.formatRelativeTime(Math.trunc(s / 60), "minute", { numeric: "auto" });
  if (abs < 86400) return intl.formatRelativeTime(Math.trunc(s / 3600), "hour", { numeric: "auto" });
  return intl.formatRelativeTime(Math.trunc(s / 86400), "day", { numeric: "auto" });
}

function signal(intl: IntlShape, n: NodeInfo): string {
  const parts: string[] = [];
  if (n.rssi !== null) parts.push(`${intl.formatNumber(n.rssi, { maximumFractionDigits: 0 })} dBm`);
  if (n.snr !== null) parts.push(`SNR ${intl.formatNumber(n.snr, { maximumFractionDigits: 1 })} dB`);
  return parts.join(", ") || "–";
}

const latestText = (intl: IntlShape, v: NodeInfo["latestValue"]): string =>
  v === null ? "–" : typeof v === "number" ? intl.formatNumber(v, { maximumFractionDigits: 2 }) : v;

export function NodeInfoWidget({ module: m }: WidgetProps): ReactNode {
  const intl = useIntl();
  const now = useNow();
  const load = useInfo(m, keysOf(attr(m, "tagkey"))[0]);
  if (!m.tag) return <Empty message={msg.wNotSet} />;
  return (
    <Loaded load={load}>
      {(info) => {
        const n = info.nodes.find((x) => x.deveui === m.tag) ?? info.nodes[0];
        if (!n) return <Empty message={msg.wNoValue} />;
        return (
          <div className="fh-dash-node">
            <div className="fh-dash-node__head">
              <span className={`fh-dash-dot${n.activeData ? " fh-dash-dot--on" : ""}`} aria-hidden="true" />
              <span>
                <strong>{n.name || n.deveui}</strong>
                <span className="fh-dash-node__eui">{n.deveui}</span>
              </span>
              <span className="fh-dash-pill">{intl.formatMessage(n.activeData ? msg.nodeActive : msg.nodeInactive)}</span>
            </div>
            <dl className="fh-dash-details">
              <div>
                <dt>{intl.formatMessage(msg.nodeLastSeen)}</dt>
                <dd data-field="lastSeen">{age(intl, n.latestTime, now)}</dd>
              </div>
              <div>
                <dt>{intl.formatMessage(msg.nodeLatest)}</dt>
                <dd>{latestText(intl, n.latestValue)}</dd>
              </div>
              <div>
                <dt>{intl.formatMessage(msg.nodeBattery)}</dt>
                <dd>
                  <span className={`mdi ${batteryIcon(n)}`} aria-hidden="true" /> {batteryText(intl, n)}
                </dd>
              </div>
              <div>
                <dt>{intl.formatMessage(msg.nodeSignal)}</dt>
                <dd>{signal(intl, n)}</dd>
              </div>
              <div>
                <dt>{intl.formatMessage(msg.nodeDataPoints)}</dt>
                <dd>{n.dataPoints24h === null ? "–" : intl.formatNumber(n.dataPoints24h)}</dd>
              </div>
              {!attrOn(m, "so_hide_node_info") && n.lat !== null && n.long !== null ? (
                <div>
                  <dt>{intl.formatMessage(msg.nodePosition)}</dt>
                  <dd>
                    {intl.formatNumber(n.lat, { maximumFractionDigits: 5 })}, {intl.formatNumber(n.long, { maximumFractionDigits: 5 })}
                  </dd>
                </div>
              ) : null}
            </dl>
          </div>
        );
      }}
    </Loaded>
  );
}

export function NodeOverviewWidget({ module: m }: WidgetProps): ReactNode {
  const intl = useIntl();
  const now = useNow();
  const load = useInfo(m);
  return (
    <Loaded load={load}>
      {(info) => {
        if (info.nodes.length === 0) return <Empty message={msg.nodeNone} />;
        const active = info.nodes.filter((n) => n.activeData).length;
        return (
          <div className="fh-dash-overview">
            <p className="fh-dash-overview__count">{intl.formatMessage(msg.nodeCount, { active, count: info.nodes.length })}</p>
            <div className="fh-dash-table" tabIndex={0} role="region" aria-label={m.title || intl.formatMessage({ id: "dashboards.type.15", defaultMessage: "Node overview" })} style={{ maxHeight: maxHeight(m) ?? 360 }}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{intl.formatMessage(msg.nodeName)}</th>
                    <th scope="col">{intl.formatMessage(msg.nodeBattery)}</th>
                    <th scope="col">{intl.formatMessage(msg.nodeSignal)}</th>
                    <th scope="col">{intl.formatMessage(msg.nodeLastSeen)}</th>
                    <th scope="col" className="fh-dash-table__num">
                      {intl.formatMessage(msg.nodeDataPoints)}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {info.nodes.map((n) => (
                    <tr key={n.deveui} data-deveui={n.deveui}>
                      <th scope="row">
                        <span className={`fh-dash-dot${n.activeData ? " fh-dash-dot--on" : ""}`} role="img" aria-label={intl.formatMessage(n.activeData ? msg.nodeActive : msg.nodeInactive)} />{" "}
                        {n.name || n.deveui}
                        <span className="fh-dash-node__eui">{n.deveui}</span>
                      </th>
                      <td>
                        <span className={`mdi ${batteryIcon(n)}`} aria-hidden="true" /> {batteryText(intl, n)}
                      </td>
                      <td>{signal(intl, n)}</td>
                      <td>{age(intl, n.latestTime, now)}</td>
                      <td className="fh-dash-table__num">{n.dataPoints24h === null ? "–" : intl.formatNumber(n.dataPoints24h)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        );
      }}
    </Loaded>
  );
}

export function WeatherWidget({ module: m }: WidgetProps): ReactNode {
  const intl = useIntl();
  const load = useWeather(m);
  if (!m.tag && (attrNum(m, "weather_lat") === null || attrNum(m, "weather_lon") === null)) return <Empty message={msg.wNotSet} />;
  return (
    <Loaded load={load}>
      {(w) => {
        const now = Date.now() - 3600_000;
        const hours = w.hours.filter((h) => h.t >= now).slice(0, 24);
        if (hours.length === 0) return <Empty message={msg.weatherNoHours} />;
        const first = hours[0];
        const num = (v: number | null, d = 0): string => (v === null ? "–" : intl.formatNumber(v, { maximumFractionDigits: d }));
        const temp = (v: number | null): string => (v === null ? "–" : `${num(v)}°`);
        const describe = (h: (typeof hours)[number]): string =>
          intl.formatMessage(msg.weatherHour, {
            time: intl.formatTime(new Date(h.t), { hour: "2-digit", minute: "2-digit" }),
            temperature: `${num(h.temperature, 1)} °C`,
            rain: intl.formatMessage(msg.weatherRain, { amount: num(h.precipitation, 1) }),
            wind: intl.formatMessage(msg.weatherWind, { speed: num(h.windSpeed), direction: h.windDirection === null ? "–" : compassPoint(h.windDirection) }),
          });
        return (
          <div className="fh-dash-weather">
            {first ? (
              <div className="fh-dash-weather__now">
                <span className={`mdi ${weatherIcon(first.symbol)} fh-dash-weather__big`} aria-hidden="true" />
                <span className="fh-dash-weather__temp">{temp(first.temperature)}</span>
                <span className="fh-dash-weather__detail">
                  {intl.formatMessage(msg.weatherWind, { speed: num(first.windSpeed), direction: first.windDirection === null ? "–" : compassPoint(first.windDirection) })}
                  <br />
                  {intl.formatMessage(msg.weatherRain, { amount: num(first.precipitation, 1) })}
                </span>
              </div>
            ) : null}
            <ol className="fh-dash-weather__hours" tabIndex={0} aria-label={m.title || intl.formatMessage({ id: "dashboards.type.7", defaultMessage: "Weather forecast" })}>
              {hours.map((h) => (
                <li key={h.t} aria-label={describe(h)}>
                  <span className="fh-dash-weather__hour" aria-hidden="true">
                    {intl.formatTime(new Date(h.t), { hour: "2-digit" })}
                  </span>
                  <span className={`mdi ${weatherIcon(h.symbol)}`} aria-hidden="true" />
                  <span className="fh-dash-weather__t" aria-hidden="true">
                    {temp(h.temperature)}
                  </span>
                  <span className="fh-dash-weather__p" aria-hidden="true">
                    {h.precipitation ? `${num(h.precipitation, 1)} mm` : "\u00a0"}
                  </span>
                  <span className="fh-dash-weather__w" aria-hidden="true">
                    <span className="mdi mdi-navigation" style={{ transform: `rotate(${(h.windDirection ?? 0) + 180}deg)` }} />
                    {num(h.windSpeed)}
                  </span>
                </li>
              ))}
            </ol>
            <p className="fh-dash-weather__source">
              {intl.formatMessage(msg.weatherSource, {
                source: w.source || "–",
                time: w.updatedAt ? intl.formatTime(new Date(w.updatedAt), { hour: "2-digit", minute: "2-digit" }) : "–",
              })}
            </p>
          </div>
        );
      }}
    </Loaded>
  );
}
