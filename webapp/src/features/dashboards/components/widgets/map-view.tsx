// MapView is the Leaflet part of the map module, a chunk of its own. Tiles
// come from the installation's tile URL ({type} in it is replaced by the
// module's map type); without one, or when the tile server cannot be
// reached, the markers still stand on a plain background. While editing,
// panning and zooming store the view as the module's map centre and zoom.
import { useEffect, useRef, type ReactNode } from "react";
import * as L from "leaflet";
import "leaflet/dist/leaflet.css";
import type { DashModule } from "@/features/dashboards/utils/dashboard-model";
import type { MapMarker } from "@/features/dashboards/components/widgets/map";

export interface MapViewProps {
  module: DashModule;
  markers: MapMarker[];
  labels: boolean;
  icon: string;
  tileUrl: string;
  editing: boolean;
  save: (m: DashModule) => void;
  label: string;
}

// The view when neither the module nor its nodes give one: Stockholm.
const fallbackCenter: L.LatLngExpression = [59.3293, 18.0686];

function markerElement(mk: MapMarker, labels: boolean, icon: string): HTMLElement {
  const el = document.createElement("span");
  if (labels) {
    el.className = "fh-dash-maplabel";
    const name = document.createElement("span");
    name.className = "fh-dash-maplabel__name";
    name.textContent = mk.name;
    const value = document.createElement("strong");
    value.className = "fh-dash-maplabel__value";
    value.textContent = mk.text || "–";
    el.append(name, value);
  } else {
    const safeIcon = /^mdi-[a-z0-9-]+$/.test(icon) ? icon : "mdi-map-marker";
    el.className = `fh-dash-pin mdi ${safeIcon}`;
  }
  return el;
}

export default function MapView(props: MapViewProps): ReactNode {
  const { module: m, markers, labels, icon, tileUrl, editing, save, label } = props;
  const box = useRef<HTMLDivElement | null>(null);
  const map = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  const tiles = useRef<L.TileLayer | null>(null);
  const latest = useRef({ m, editing, save });
  latest.current = { m, editing, save };
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // The map is made once; later renders move markers and tiles.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const s = latest.current.m.settings;
    const center: L.LatLngExpression = s.mapCenter
      ? [s.mapCenter.lat, s.mapCenter.lng]
      : markers.length > 0
        ? [markers.reduce((a, k) => a + k.lat, 0) / markers.length, markers.reduce((a, k) => a + k.lng, 0) / markers.length]
        : fallbackCenter;
    const created = L.map(el, { center, zoom: s.mapZoom, attributionControl: true, zoomControl: true });
    // Without a stored view the map frames its nodes (docs/decisions.md);
    // the zoom setting then only bounds how far in it goes.
    if (!s.mapCenter && markers.length > 1) {
      created.fitBounds(L.latLngBounds(markers.map((k) => [k.lat, k.lng] as L.LatLngTuple)), { padding: [40, 40], maxZoom: 18 });
    }
    map.current = created;
    layer.current = L.layerGroup().addTo(created);
    created.on("moveend", () => {
      const { m: mod, editing: ed, save: store } = latest.current;
      if (!ed) return;
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        const c = created.getCenter();
        const zoom = created.getZoom();
        const round = (v: number): number => Math.round(v * 1e5) / 1e5;
        const prev = mod.settings;
        if (prev.mapZoom === zoom && prev.mapCenter?.lat === round(c.lat) && prev.mapCenter.lng === round(c.lng)) return;
        store({ ...mod, settings: { ...prev, mapZoom: zoom, mapCenter: { lat: round(c.lat), lng: round(c.lng) } } });
      }, 800);
    });
    // The card may change size after the map was made (the grid settles).
    const ro = new ResizeObserver(() => created.invalidateSize());
    ro.observe(el);
    return () => {
      clearTimeout(timer.current);
      ro.disconnect();
      created.remove();
      map.current = null;
    };
    // Made once per mount; the effects below follow the props.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const mp = map.current;
    if (!mp) return;
    tiles.current?.remove();
    tiles.current = null;
    if (tileUrl) {
      tiles.current = L.tileLayer(tileUrl.replaceAll("{type}", m.settings.mapType), {
        maxZoom: 19,
        attribution: "",
        crossOrigin: true,
      }).addTo(mp);
    }
  }, [tileUrl, m.settings.mapType]);

  // Markers are redrawn when what they show changes, not on every render
  // (an open popup would close).
  const signature = JSON.stringify(markers);
  useEffect(() => {
    const group = layer.current;
    if (!group) return;
    group.clearLayers();
    for (const mk of markers) {
      const el = markerElement(mk, labels, icon);
      const divIcon = L.divIcon({
        html: el,
        className: labels ? "fh-dash-maplabel__wrap" : "fh-dash-pin__wrap",
        iconSize: labels ? undefined : [32, 32],
        iconAnchor: labels ? [0, 0] : [16, 30],
      });
      const marker = L.marker([mk.lat, mk.lng], { icon: divIcon, title: mk.text ? `${mk.name}: ${mk.text}` : mk.name, alt: mk.name, keyboard: true });
      const popup = document.createElement("div");
      const strong = document.createElement("strong");
      strong.textContent = mk.name;
      popup.append(strong);
      if (mk.text) popup.append(document.createElement("br"), document.createTextNode(mk.text));
      const eui = document.createElement("div");
      eui.className = "fh-dash-node__eui";
      eui.textContent = mk.deveui;
      popup.append(eui);
      marker.bindPopup(popup);
      marker.addTo(group);
    }
    // signature stands for markers.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signature, labels, icon]);

  return <div ref={box} className="fh-dash-map__canvas" role="region" aria-label={label} data-markers={markers.length} />;
}
