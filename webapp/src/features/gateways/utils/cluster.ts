// cluster groups the points that fall in one square cell of the map's pixel
// grid at the current zoom into one marker, so that 10,000 gateways draw as
// a few dozen markers; zooming in splits them. Only the points inside the
// padded view are grouped: the markers follow the view.
export interface Point {
  x: number;
  y: number;
}

export interface Cluster<T> {
  items: T[];
  lat: number;
  lng: number;
}

export function cluster<T extends { latitude: number; longitude: number }>(
  items: readonly T[],
  project: (lat: number, lng: number) => Point,
  inView: (lat: number, lng: number) => boolean,
  cell: number,
): Cluster<T>[] {
  const cells = new Map<string, T[]>();
  for (const it of items) {
    if (!inView(it.latitude, it.longitude)) continue;
    const p = project(it.latitude, it.longitude);
    const key = `${Math.floor(p.x / cell)}:${Math.floor(p.y / cell)}`;
    const list = cells.get(key);
    if (list) list.push(it);
    else cells.set(key, [it]);
  }
  const out: Cluster<T>[] = [];
  for (const list of cells.values()) {
    let lat = 0;
    let lng = 0;
    for (const it of list) {
      lat += it.latitude;
      lng += it.longitude;
    }
    out.push({ items: list, lat: lat / list.length, lng: lng / list.length });
  }
  return out;
}

// worstState is the state a cluster is coloured by: offline when any of
// its gateways is, else online when any is, else never heard.
export function worstState(states: readonly string[]): "online" | "offline" | "never" {
  if (states.includes("offline")) return "offline";
  if (states.includes("online")) return "online";
  return "never";
}
