// MapWidget (type 4) shows the module's nodes on a map: as pins, or as
// text labels with the latest value of tagkey (attribute target "labels";
// docs/decisions.md), pins drawn with the mdi icon of attribute icon.
// Leaflet lives in its own chunk (map-view.tsx), fetched only when a map
// module is on the dashboard.
import { Suspense, lazy, useContext, type ReactNode } from "react";
import { useIntl } from "react-intl";
import { BoardContext, useInfo, useLatest } from "@/features/dashboards/hooks/use-module-data";
import { msg } from "@/features/dashboards/utils/messages";
import { attr, keysOf, refsOf, type Latest } from "@/features/dashboards/utils/dashboard-model";
import { Loaded, Loading, type WidgetProps } from "@/features/dashboards/components/widgets/states";
import { formatValue, withAffixes } from "@/features/dashboards/components/widgets/values";

// The chunk is asked for as soon as a map module renders, while its data
// is still on the way, not after.
let mapChunk: Promise<typeof import("@/features/dashboards/components/widgets/map-view")> | undefined;
export const loadMapView = (): Promise<typeof import("@/features/dashboards/components/widgets/map-view")> =>
  (mapChunk ??= import("@/features/dashboards/components/widgets/map-view"));
const MapView = lazy(loadMapView);

export interface MapMarker {
  deveui: string;
  name: string;
  lat: number;
  lng: number;
  // text is the value shown in a label or a pin's popup ("" for none).
  text: string;
}

export function MapWidget(props: WidgetProps): ReactNode {
  const { module: m } = props;
  const intl = useIntl();
  const board = useContext(BoardContext);
  const key = keysOf(attr(m, "tagkey"))[0] ?? refsOf(m)[0]?.key ?? "";
  const info = useInfo(m, key || undefined);
  const latest = useLatest(m);
  const labels = attr(m, "target") === "labels";
  void loadMapView();
  const chosen = new Set(refsOf(m).map((r) => r.deveui));
  if (m.tag) chosen.add(m.tag);
  return (
    <Loaded load={info}>
      {(data) => {
        const nodes = chosen.size > 0 ? data.nodes.filter((n) => chosen.has(n.deveui)) : data.nodes;
        const values: readonly Latest[] = latest.state === "done" ? latest.data : [];
        const markers: MapMarker[] = [];
        const missing: string[] = [];
        for (const n of nodes) {
          if (n.lat === null || n.long === null) {
            missing.push(n.name || n.deveui);
            continue;
          }
          const l = values.find((v) => v.deveui === n.deveui && (key === "" || v.key === key));
          let text = "";
          if (l && l.value !== null) text = withAffixes(m, formatValue(intl, m, l.value), l.unit);
          else if (l?.text) text = l.text;
          else if (n.latestValue !== null) text = typeof n.latestValue === "number" ? formatValue(intl, m, n.latestValue) : n.latestValue;
          markers.push({ deveui: n.deveui, name: n.name || n.deveui, lat: n.lat, lng: n.long, text });
        }
        return (
          <div className="fh-dash-map">
            <Suspense fallback={<Loading />}>
              <MapView
                module={m}
                markers={markers}
                labels={labels}
                icon={labels ? "" : attr(m, "icon")}
                tileUrl={board.tileUrl}
                editing={props.editing}
                save={props.save}
                label={intl.formatMessage(msg.mapLabel, { count: markers.length })}
              />
            </Suspense>
            {markers.length === 0 ? <p className="fh-dash-map__note">{intl.formatMessage(msg.mapNoNodes)}</p> : null}
            {missing.length > 0 ? <p className="fh-dash-map__note">{intl.formatMessage(msg.mapNoPosition, { names: missing.join(", ") })}</p> : null}
            <ul className="sr-only">
              {markers.map((mk) => (
                <li key={mk.deveui}>{mk.text ? `${mk.name}: ${mk.text}` : mk.name}</li>
              ))}
            </ul>
          </div>
        );
      }}
    </Loaded>
  );
}
