// The points of a test as CSV (RFC 4180: comma separated, CRLF line ends,
// quoted when a field holds a comma, quote or line end), one row a point,
// numbers with a dot whatever the page's language so that spreadsheets and
// scripts read them alike.
import type { Point, SignalTest } from "@/features/signaltests/api/signaltests";

export const CSV_HEADER = ["point", "time", "latitude", "longitude", "rssi", "snr", "gateway", "spreadingFactor", "fCnt", "gateways"];

function field(v: string | number | null): string {
  if (v === null) return "";
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

// gatewaysText lists every gateway's hearing as id rssi/snr, separated by
// semicolons.
function gatewaysText(p: Point): string {
  return p.receptions.map((r) => `${r.gatewayId} ${r.rssi ?? ""}/${r.snr ?? ""}`).join("; ");
}

export function pointsCsv(points: Point[]): string {
  const rows = [CSV_HEADER.join(",")];
  points.forEach((p, i) => {
    rows.push(
      [i + 1, p.createdAt, p.lat, p.lng, p.rssi, p.snr, p.gatewayId, p.spreadingFactor || null, p.fCnt, gatewaysText(p)]
        .map(field)
        .join(","),
    );
  });
  return rows.join("\r\n") + "\r\n";
}

// csvName is the download's file name: the node's DevEUI, the test's id
// and its start date.
export function csvName(t: SignalTest): string {
  return `signaltest-${t.testId}-${t.deveui}-${t.start.slice(0, 10)}.csv`;
}

// download has the browser save text as a file.
export function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
