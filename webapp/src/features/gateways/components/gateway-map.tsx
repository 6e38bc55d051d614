// GatewayMap draws the gateways on a Leaflet map as markers coloured by
// state, clustered by a pixel grid (utils/cluster.ts) and redrawn when the
// view moves. A cluster zooms in when chosen (click or Enter); a single
// gateway shows its name and figures. Managers may drag a single marker to
// move the gateway (onMove). Tiles come from the installation's tile URL
// (FIELDHUB_MAP_TILE_URL); without one the markers stand on a plain
// background.
import { useEffect, useRef, type ReactNode } from "react";
import * as L from "leaflet";
import "leaflet/dist/leaflet.css";
import { useIntl } from "react-intl";
import { stateLabel, type Gateway } from "@/features/gateways/utils/model";
import { cluster, worstState } from "@/features/gateways/utils/cluster";

export interface GatewayMapProps {
  gateways: Gateway[];
  tileUrl: string;
  canManage: boolean;
  onMove: (g: Gateway, lat: number, lng: number) => void;
  // mapRef receives the map, for the one-click add's position (its centre).
  mapRef: { current: L.Map | null };
}

const fallbackCenter: L.LatLngTuple = [59.3293, 18.0686];
const cellPx = 56;

export function GatewayMap({ gateways, tileUrl, canManage, onMove, mapRef }: GatewayMapProps): ReactNode {
  const intl = useIntl();
  const box = useRef<HTMLDivElement | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  const latest = useRef({ gateways, canManage, onMove, intl });
  latest.current = { gateways, canManage, onMove, intl };
  const framed = useRef(false);

  // draw puts the clusters of the current view on the map.
  const draw = useRef<() => void>(() => undefined);
  draw.current = () => {
    const map = mapRef.current;
    const group = layer.current;
    if (!map || !group) return;
    const { gateways: gws, canManage: manage, onMove: move, intl: t } = latest.current;
    group.clearLayers();
    const zoom = map.getZoom();
    const view = map.getBounds().pad(0.25);
    const clusters = cluster(
      gws,
      (lat, lng) => map.project([lat, lng], zoom),
      (lat, lng) => view.contains([lat, lng]),
      cellPx,
    );
    for (const c of clusters) {
      if (c.items.length === 1 && c.items[0]) {
        const g = c.items[0];
        const state = t.formatMessage({ id: stateLabel[g.state] ?? "gateways.state.never" });
        const icon = L.divIcon({ className: "fh-gw-pin__wrap", html: `<span class="fh-gw-pin fh-gw--${g.state}"></span>`, iconSize: [22, 22], iconAnchor: [11, 11] });
        const marker = L.marker([g.latitude, g.longitude], { icon, title: `${g.name} (${state})`, alt: `${g.name} (${state})`, keyboard: true, draggable: manage });
        const popup = document.createElement("div");
        const strong = document.createElement("strong");
        strong.textContent = g.name;
        const eui = document.createElement("div");
        eui.textContent = g.macAddress;
        const st = document.createElement("div");
        st.textContent = state;
        popup.append(strong, eui, st);
        marker.bindPopup(popup);
        marker.on("dragend", () => {
          const p = marker.getLatLng();
          move(g, Math.round(p.lat * 1e6) / 1e6, Math.round(p.lng * 1e6) / 1e6);
        });
        marker.addTo(group);
        continue;
      }
      const state = worstState(c.items.map((g) => g.state));
      const label = t.formatMessage({ id: "gateways.map.cluster" }, { count: c.items.length });
      const icon = L.divIcon({
        className: "fh-gw-cluster__wrap",
        html: `<span class="fh-gw-cluster fh-gw--${state}">${c.items.length}</span>`,
        iconSize: [36, 36],
        iconAnchor: [18, 18],
      });
      const marker = L.marker([c.lat, c.lng], { icon, title: label, alt: label, keyboard: true });
      const bounds = L.latLngBounds(c.items.map((g) => [g.latitude, g.longitude] as L.LatLngTuple));
      marker.on("click", () => {
        if (bounds.getNorthEast().equals(bounds.getSouthWest())) map.setView(bounds.getCenter(), Math.min(map.getZoom() + 3, 19));
        else map.fitBounds(bounds, { padding: [30, 30] });
      });
      marker.addTo(group);
    }
    box.current?.setAttribute("data-markers", String(clusters.length));
    box.current?.setAttribute("data-gateways", String(gws.length));
  };

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const map = L.map(el, { center: fallbackCenter, zoom: 5, zoomControl: true, attributionControl: true });
    mapRef.current = map;
    layer.current = L.layerGroup().addTo(map);
    map.on("moveend", () => draw.current());
    const ro = new ResizeObserver(() => map.invalidateSize());
    ro.observe(el);
    return () => {
      ro.disconnect();
      map.remove();
      mapRef.current = null;
    };
  }, [mapRef]);

  useEffect(() => {
    const map = mapRef.current;
    if (!map || !tileUrl) return;
    const tiles = L.tileLayer(tileUrl, { maxZoom: 19, crossOrigin: true }).addTo(map);
    return () => {
      tiles.remove();
    };
  }, [tileUrl, mapRef]);

  // The first list frames the gateways; later lists keep the view.
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    if (!framed.current && gateways.length > 0) {
      framed.current = true;
      if (gateways.length === 1 && gateways[0]) map.setView([gateways[0].latitude, gateways[0].longitude], 13);
      else map.fitBounds(L.latLngBounds(gateways.map((g) => [g.latitude, g.longitude] as L.LatLngTuple)), { padding: [40, 40], maxZoom: 18 });
      return; // moveend draws
    }
    draw.current();
  }, [gateways, mapRef]);

  return (
    <div className="fh-gw-map">
      <div ref={box} className="fh-gw-map__canvas" role="region" aria-label={intl.formatMessage({ id: "gateways.map.label" })} data-markers="0" />
      {tileUrl ? null : <p className="muted">{intl.formatMessage({ id: "gateways.map.noTiles" })}</p>}
      <ul className="fh-gw-legend" aria-label={intl.formatMessage({ id: "gateways.col.state" })}>
        {(["online", "offline", "never"] as const).map((s) => (
          <li key={s}>
            <span className={`fh-gw-pin fh-gw--${s}`} aria-hidden="true" /> {intl.formatMessage({ id: stateLabel[s] ?? "gateways.state.never" })}
          </li>
        ))}
      </ul>
    </div>
  );
}
