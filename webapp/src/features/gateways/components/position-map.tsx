// PositionMap is the create form's map: a click places the gateway's
// marker there, and the marker can be dragged; onPlace receives the new
// position (rounded to 6 decimals, about 10 cm). A position typed into the
// form moves the marker.
import { useEffect, useRef, type ReactNode } from "react";
import * as L from "leaflet";
import "leaflet/dist/leaflet.css";
import { useIntl } from "react-intl";

export interface PositionMapProps {
  lat: number | null;
  lng: number | null;
  tileUrl: string;
  onPlace: (lat: number, lng: number) => void;
}

const fallbackCenter: L.LatLngTuple = [59.3293, 18.0686];
const round = (v: number): number => Math.round(v * 1e6) / 1e6;

export function PositionMap({ lat, lng, tileUrl, onPlace }: PositionMapProps): ReactNode {
  const intl = useIntl();
  const box = useRef<HTMLDivElement | null>(null);
  const map = useRef<L.Map | null>(null);
  const marker = useRef<L.Marker | null>(null);
  const place = useRef(onPlace);
  place.current = onPlace;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const m = L.map(el, { center: fallbackCenter, zoom: 5 });
    map.current = m;
    m.on("click", (e: L.LeafletMouseEvent) => place.current(round(e.latlng.lat), round(e.latlng.lng)));
    const ro = new ResizeObserver(() => m.invalidateSize());
    ro.observe(el);
    return () => {
      ro.disconnect();
      m.remove();
      map.current = null;
      marker.current = null;
    };
  }, []);

  useEffect(() => {
    const m = map.current;
    if (!m || !tileUrl) return;
    const tiles = L.tileLayer(tileUrl, { maxZoom: 19, crossOrigin: true }).addTo(m);
    return () => {
      tiles.remove();
    };
  }, [tileUrl]);

  useEffect(() => {
    const m = map.current;
    if (!m) return;
    if (lat === null || lng === null || Math.abs(lat) > 90 || Math.abs(lng) > 180) {
      marker.current?.remove();
      marker.current = null;
      return;
    }
    if (!marker.current) {
      const icon = L.divIcon({ className: "fh-gw-pin__wrap", html: '<span class="fh-gw-pin fh-gw--new"></span>', iconSize: [22, 22], iconAnchor: [11, 11] });
      const label = intl.formatMessage({ id: "gateways.form.mapLabel" });
      const mk = L.marker([lat, lng], { icon, draggable: true, keyboard: true, title: label, alt: label }).addTo(m);
      mk.on("dragend", () => {
        const p = mk.getLatLng();
        place.current(round(p.lat), round(p.lng));
      });
      marker.current = mk;
      if (!m.getBounds().contains([lat, lng])) m.setView([lat, lng], Math.max(m.getZoom(), 13));
    } else {
      marker.current.setLatLng([lat, lng]);
    }
  }, [lat, lng, intl]);

  return (
    <div
      ref={box}
      className="fh-gw-map__canvas fh-gw-map__canvas--form"
      role="region"
      aria-label={intl.formatMessage({ id: "gateways.form.mapLabel" })}
      data-placed={lat !== null && lng !== null ? "true" : "false"}
    />
  );
}
