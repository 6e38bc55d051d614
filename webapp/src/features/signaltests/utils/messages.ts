// The feature's messages (webapp/locales, keys signaltests.*), and the
// common error message every failure shows (SPEC.md section 8).
import { defineMessages, type NoMessageValues } from "react-intl";

export const msg = defineMessages<{
  loading: NoMessageValues;
  retry: NoMessageValues;
  cancel: NoMessageValues;
  startTitle: NoMessageValues;
  startNode: NoMessageValues;
  startChooseNode: NoMessageValues;
  startNoNodes: NoMessageValues;
  startDescription: NoMessageValues;
  startLatitudeKey: NoMessageValues;
  startLongitudeKey: NoMessageValues;
  startKeysHint: NoMessageValues;
  startSubmit: NoMessageValues;
  startNodeRequired: NoMessageValues;
  listTitle: NoMessageValues;
  listEmpty: NoMessageValues;
  colNode: NoMessageValues;
  colDescription: NoMessageValues;
  colState: NoMessageValues;
  colStart: NoMessageValues;
  colEnd: NoMessageValues;
  colPoints: NoMessageValues;
  colAvgRssi: NoMessageValues;
  colAvgSnr: NoMessageValues;
  colActions: NoMessageValues;
  stateActive: NoMessageValues;
  stateCompleted: NoMessageValues;
  open: NoMessageValues;
  openLabel: { name: string };
  delete: NoMessageValues;
  deleteLabel: { name: string };
  deleteTitle: NoMessageValues;
  deleteText: { count: number; name: string };
  created: NoMessageValues;
  deleted: NoMessageValues;
  completed: NoMessageValues;
  errorActive: NoMessageValues;
  errorEnded: NoMessageValues;
  peekMap: NoMessageValues;
  peekLegend: NoMessageValues;
  qualityGood: NoMessageValues;
  qualityFair: NoMessageValues;
  qualityPoor: NoMessageValues;
  qualityNone: NoMessageValues;
  qualityGoodRule: NoMessageValues;
  qualityFairRule: NoMessageValues;
  qualityPoorRule: NoMessageValues;
  qualityNoneRule: NoMessageValues;
  peekSummary: NoMessageValues;
  peekKeys: NoMessageValues;
  peekDetected: NoMessageValues;
  peekComplete: NoMessageValues;
  peekCompleteTitle: NoMessageValues;
  peekCompleteText: NoMessageValues;
  peekExport: NoMessageValues;
  peekLive: NoMessageValues;
  peekWaiting: NoMessageValues;
  peekNoPoints: NoMessageValues;
  peekNoPosition: NoMessageValues;
  peekNoPositions: NoMessageValues;
  peekPoints: NoMessageValues;
  peekColN: NoMessageValues;
  peekColTime: NoMessageValues;
  peekColPosition: NoMessageValues;
  peekColQuality: NoMessageValues;
  peekColRssi: NoMessageValues;
  peekColSnr: NoMessageValues;
  peekColSf: NoMessageValues;
  peekColFcnt: NoMessageValues;
  peekColGateways: NoMessageValues;
  peekShow: NoMessageValues;
  peekShowLabel: { n: number };
  peekPointTitle: { n: number; quality: string };
  peekGateway: { name: string };
  peekBest: NoMessageValues;
  peekPollFailed: NoMessageValues;
  generic: NoMessageValues;
}>({
  loading: { id: "signaltests.loading", defaultMessage: "Loading field tests…" },
  retry: { id: "signaltests.retry", defaultMessage: "Retry" },
  cancel: { id: "signaltests.cancel", defaultMessage: "Cancel" },
  startTitle: { id: "signaltests.start.title", defaultMessage: "Start a test" },
  startNode: { id: "signaltests.start.node", defaultMessage: "Node" },
  startChooseNode: { id: "signaltests.start.chooseNode", defaultMessage: "Choose a node" },
  startNoNodes: { id: "signaltests.start.noNodes", defaultMessage: "The company has no nodes yet: add one under Nodes first." },
  startDescription: { id: "signaltests.start.description", defaultMessage: "Description" },
  startLatitudeKey: { id: "signaltests.start.latitudeKey", defaultMessage: "Latitude key" },
  startLongitudeKey: { id: "signaltests.start.longitudeKey", defaultMessage: "Longitude key" },
  startKeysHint: { id: "signaltests.start.keysHint", defaultMessage: "Leave empty to detect latitude, lat or gps.latitude and longitude, lng or lon in each uplink." },
  startSubmit: { id: "signaltests.start.submit", defaultMessage: "Start test" },
  startNodeRequired: { id: "signaltests.start.nodeRequired", defaultMessage: "Choose a node." },
  listTitle: { id: "signaltests.list.title", defaultMessage: "Tests" },
  listEmpty: { id: "signaltests.list.empty", defaultMessage: "No field tests yet. Start one above." },
  colNode: { id: "signaltests.col.node", defaultMessage: "Node" },
  colDescription: { id: "signaltests.col.description", defaultMessage: "Description" },
  colState: { id: "signaltests.col.state", defaultMessage: "State" },
  colStart: { id: "signaltests.col.start", defaultMessage: "Started" },
  colEnd: { id: "signaltests.col.end", defaultMessage: "Completed" },
  colPoints: { id: "signaltests.col.points", defaultMessage: "Points" },
  colAvgRssi: { id: "signaltests.col.avgRssi", defaultMessage: "Average RSSI" },
  colAvgSnr: { id: "signaltests.col.avgSnr", defaultMessage: "Average SNR" },
  colActions: { id: "signaltests.col.actions", defaultMessage: "Actions" },
  stateActive: { id: "signaltests.state.active", defaultMessage: "Active" },
  stateCompleted: { id: "signaltests.state.completed", defaultMessage: "Completed" },
  open: { id: "signaltests.open", defaultMessage: "Open" },
  openLabel: { id: "signaltests.openLabel", defaultMessage: "Open the test of {name}" },
  delete: { id: "signaltests.delete", defaultMessage: "Delete" },
  deleteLabel: { id: "signaltests.deleteLabel", defaultMessage: "Delete the test of {name}" },
  deleteTitle: { id: "signaltests.delete.title", defaultMessage: "Delete the field test?" },
  deleteText: { id: "signaltests.delete.text", defaultMessage: "The test of {name} and its {count} points are deleted for good." },
  created: { id: "signaltests.created", defaultMessage: "Field test created" },
  deleted: { id: "signaltests.deleted", defaultMessage: "Field test deleted" },
  completed: { id: "signaltests.completed", defaultMessage: "Field test completed" },
  errorActive: { id: "signaltests.error.active", defaultMessage: "This node already has an active field test: complete it before starting another." },
  errorEnded: { id: "signaltests.error.ended", defaultMessage: "The field test has already been completed." },
  peekMap: { id: "signaltests.peek.map", defaultMessage: "Map of the test's points" },
  peekLegend: { id: "signaltests.peek.legend", defaultMessage: "Signal quality" },
  qualityGood: { id: "signaltests.quality.good", defaultMessage: "Good" },
  qualityFair: { id: "signaltests.quality.fair", defaultMessage: "Fair" },
  qualityPoor: { id: "signaltests.quality.poor", defaultMessage: "Poor" },
  qualityNone: { id: "signaltests.quality.none", defaultMessage: "No signal" },
  qualityGoodRule: { id: "signaltests.quality.goodRule", defaultMessage: "RSSI ≥ −100 dBm and SNR ≥ 0 dB" },
  qualityFairRule: { id: "signaltests.quality.fairRule", defaultMessage: "RSSI ≥ −115 dBm and SNR ≥ −7.5 dB" },
  qualityPoorRule: { id: "signaltests.quality.poorRule", defaultMessage: "RSSI below −115 dBm or SNR below −7.5 dB" },
  qualityNoneRule: { id: "signaltests.quality.noneRule", defaultMessage: "the uplink named no gateway signal" },
  peekSummary: { id: "signaltests.peek.summary", defaultMessage: "Summary" },
  peekKeys: { id: "signaltests.peek.keys", defaultMessage: "Position keys" },
  peekDetected: { id: "signaltests.peek.detected", defaultMessage: "detected in each uplink" },
  peekComplete: { id: "signaltests.peek.complete", defaultMessage: "Complete test" },
  peekCompleteTitle: { id: "signaltests.peek.complete.title", defaultMessage: "Complete the field test?" },
  peekCompleteText: { id: "signaltests.peek.complete.text", defaultMessage: "The node's uplinks stop adding points. A completed test cannot be resumed." },
  peekExport: { id: "signaltests.peek.export", defaultMessage: "Export CSV" },
  peekLive: { id: "signaltests.peek.live", defaultMessage: "Live: each uplink of the node adds a point here without reloading." },
  peekWaiting: { id: "signaltests.peek.waiting", defaultMessage: "No points yet. Each uplink of the node adds one." },
  peekNoPoints: { id: "signaltests.peek.noPoints", defaultMessage: "The test collected no points." },
  peekNoPosition: { id: "signaltests.peek.noPosition", defaultMessage: "No position" },
  peekNoPositions: { id: "signaltests.peek.noPositions", defaultMessage: "No point has a position yet: check the position keys." },
  peekPoints: { id: "signaltests.peek.points", defaultMessage: "Points" },
  peekColN: { id: "signaltests.peek.col.n", defaultMessage: "#" },
  peekColTime: { id: "signaltests.peek.col.time", defaultMessage: "Time" },
  peekColPosition: { id: "signaltests.peek.col.position", defaultMessage: "Position" },
  peekColQuality: { id: "signaltests.peek.col.quality", defaultMessage: "Quality" },
  peekColRssi: { id: "signaltests.peek.col.rssi", defaultMessage: "RSSI (dBm)" },
  peekColSnr: { id: "signaltests.peek.col.snr", defaultMessage: "SNR (dB)" },
  peekColSf: { id: "signaltests.peek.col.sf", defaultMessage: "SF" },
  peekColFcnt: { id: "signaltests.peek.col.fcnt", defaultMessage: "FCnt" },
  peekColGateways: { id: "signaltests.peek.col.gateways", defaultMessage: "Gateways that heard it" },
  peekShow: { id: "signaltests.peek.show", defaultMessage: "Show" },
  peekShowLabel: { id: "signaltests.peek.showLabel", defaultMessage: "Show point {n} on the map" },
  peekPointTitle: { id: "signaltests.peek.pointTitle", defaultMessage: "Point {n}: {quality}" },
  peekGateway: { id: "signaltests.peek.gateway", defaultMessage: "Gateway {name}" },
  peekBest: { id: "signaltests.peek.best", defaultMessage: "best" },
  peekPollFailed: { id: "signaltests.peek.pollFailed", defaultMessage: "The live view could not be refreshed; it tries again." },
  generic: { id: "error.generic", defaultMessage: "An error occured, try again later" },
});

// known are the keys a refused call may answer with (lib/api-error.ts).
export const known = ["signaltests.error.active", "signaltests.error.ended", "validation.max255", "error.notFound"] as const;
