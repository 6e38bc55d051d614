// PointsMap draws a test's points on a Leaflet map (the library and tile
// address of the dashboards' map modules), each a dot coloured by its
// signal quality and numbered as in the table; the gateways with a known
// position as their own markers, and, for the point whose popup is open,
// lines to the gateways that heard it. Without a tile address (or when
// the tile server cannot be reached) the points stand on a plain
// background. The map frames the points until the viewer moves it.
import { useEffect, useRef, type ReactNode } from "react";
import * as L from "leaflet";
import "leaflet/dist/leaflet.css";
import type { Point } from "@/features/signaltests/api/signaltests";
import type { Quality } from "@/features/signaltests/utils/quality";

export interface MapPoint {
  n: number;
  point: Point & { lat: number; lng: number };
  quality: Quality;
  title: string;
  // popup is the point's details as text lines.
  popup: string[];
}

export interface PointsMapProps {
  points: MapPoint[];
  tileUrl: string;
  label: string;
  gatewayLabel: (name: string) => string;
  // selected is the point to show (the table's Show button), with a
  // counter so that showing the same point twice works.
  selected: { id: number; seq: number } | null;
}

function dot(p: MapPoint): HTMLElement {
  const el = document.createElement("span");
  el.className = `fh-st-dot fh-st-dot--${p.quality}`;
  el.textContent = String(p.n);
  return el;
}

function gatewayIcon(): L.DivIcon {
  const el = document.createElement("span");
  el.className = "fh-st-gw mdi mdi-router-wireless";
  return L.divIcon({ html: el, className: "fh-st-gw__wrap", iconSize: [26, 26], iconAnchor: [13, 13] });
}

function popupOf(p: MapPoint): HTMLElement {
  const box = document.createElement("div");
  const title = document.createElement("strong");
  title.textContent = p.title;
  box.append(title);
  for (const line of p.popup) {
    const div = document.createElement("div");
    div.textContent = line;
    box.append(div);
  }
  return box;
}

export default function PointsMap({ points, tileUrl, label, gatewayLabel, selected }: PointsMapProps): ReactNode {
  const box = useRef<HTMLDivElement | null>(null);
  const map = useRef<L.Map | null>(null);
  const layers = useRef<{ points: L.LayerGroup; gateways: L.LayerGroup; links: L.LayerGroup } | null>(null);
  const markers = useRef(new Map<number, L.Marker>());
  const moved = useRef(false);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const created = L.map(el, { center: [59.3293, 18.0686], zoom: 13, attributionControl: true, zoomControl: true });
    if (tileUrl) {
      const osm = /openstreetmap\.org/.test(tileUrl);
      L.tileLayer(tileUrl.replaceAll("{type}", "roadmap"), {
        maxZoom: 19,
        crossOrigin: true,
        attribution: osm ? '© <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>' : "",
      }).addTo(created);
    }
    layers.current = {
      links: L.layerGroup().addTo(created),
      gateways: L.layerGroup().addTo(created),
      points: L.layerGroup().addTo(created),
    };
    // Once the viewer pans or zooms, new points no longer reframe the map.
    created.on("dragstart", () => (moved.current = true));
    el.addEventListener("wheel", () => (moved.current = true), { passive: true });
    map.current = created;
    const ro = new ResizeObserver(() => created.invalidateSize());
    ro.observe(el);
    return () => {
      ro.disconnect();
      created.remove();
      map.current = null;
    };
  }, [tileUrl]);

  // Points are redrawn when they change, not on every render (an open
  // popup would close).
  const signature = points.map((p) => `${p.point.id}:${p.quality}`).join(",");
  useEffect(() => {
    const mp = map.current;
    const ls = layers.current;
    if (!mp || !ls) return;
    ls.points.clearLayers();
    ls.gateways.clearLayers();
    markers.current.clear();
    const gateways = new Map<string, { lat: number; lng: number; name: string }>();
    for (const p of points) {
      const icon = L.divIcon({ html: dot(p), className: "fh-st-dot__wrap", iconSize: [24, 24], iconAnchor: [12, 12] });
      const marker = L.marker([p.point.lat, p.point.lng], { icon, title: p.title, alt: p.title, keyboard: true });
      marker.bindPopup(popupOf(p));
      marker.on("popupopen", () => {
        ls.links.clearLayers();
        for (const r of p.point.receptions) {
          if (typeof r.lat === "number" && typeof r.lng === "number") {
            L.polyline(
              [
                [p.point.lat, p.point.lng],
                [r.lat, r.lng],
              ],
              { className: `fh-st-link fh-st-link--${p.quality}`, weight: 2, dashArray: "4 4" },
            ).addTo(ls.links);
          }
        }
      });
      marker.on("popupclose", () => ls.links.clearLayers());
      marker.addTo(ls.points);
      markers.current.set(p.point.id, marker);
      for (const r of p.point.receptions) {
        if (typeof r.lat === "number" && typeof r.lng === "number") gateways.set(r.gatewayId, { lat: r.lat, lng: r.lng, name: r.name || r.gatewayId });
      }
    }
    for (const g of gateways.values()) {
      const title = gatewayLabel(g.name);
      L.marker([g.lat, g.lng], { icon: gatewayIcon(), title, alt: title, keyboard: false }).bindTooltip(title).addTo(ls.gateways);
    }
    if (!moved.current && points.length > 0) {
      const bounds = L.latLngBounds(points.map((p) => [p.point.lat, p.point.lng] as L.LatLngTuple));
      if (points.length === 1) mp.setView(bounds.getCenter(), 16);
      else mp.fitBounds(bounds, { padding: [30, 30], maxZoom: 18 });
    }
    // signature stands for points.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signature, gatewayLabel]);

  useEffect(() => {
    if (!selected) return;
    const marker = markers.current.get(selected.id);
    const mp = map.current;
    if (!marker || !mp) return;
    moved.current = true;
    mp.setView(marker.getLatLng(), Math.max(mp.getZoom(), 16));
    marker.openPopup();
    box.current?.scrollIntoView({ block: "nearest" });
  }, [selected]);

  return <div ref={box} className="fh-st-map" role="region" aria-label={label} data-points={points.length} />;
}
