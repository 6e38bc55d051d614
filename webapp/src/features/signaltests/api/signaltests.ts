// The signal tests' JSON routes (docs/api/signaltests.md) and the node
// list the start form chooses from.
import { api } from "@/lib/api";

export interface Reception {
  gatewayId: string;
  rssi: number | null;
  snr: number | null;
  name?: string;
  lat?: number | null;
  lng?: number | null;
}

export interface Point {
  id: number;
  rssi: number | null;
  snr: number | null;
  lat: number | null;
  lng: number | null;
  gatewayId: string;
  spreadingFactor: number;
  fCnt: number;
  receptions: Reception[];
  createdAt: string;
}

export interface SignalTest {
  testId: number;
  companyId: number;
  tagId: number;
  deveui: string;
  tagName: string;
  description: string;
  latitudeKey: string;
  longitudeKey: string;
  start: string;
  end: string | null;
  active: boolean;
  averageSnr: number | null;
  averageRssi: number | null;
  pointCount: number;
}

export interface Peek extends SignalTest {
  points: Point[];
  cursor: number;
}

export interface Node {
  id: number;
  name: string;
  deveui: string;
}

export interface StartRequest {
  description: string;
  latitudeKey: string;
  longitudeKey: string;
}

export const listTests = (companyId: number): Promise<SignalTest[]> => api<SignalTest[]>("GET", `/api/signaltest/${companyId}`);

export const startTest = (companyId: number, deveui: string, body: StartRequest): Promise<SignalTest> =>
  api<SignalTest>("POST", `/api/signaltest/${companyId}/${encodeURIComponent(deveui)}`, body);

export const peekTest = (testId: number, after: number): Promise<Peek> =>
  api<Peek>("GET", `/api/signaltest/peek/${testId}${after > 0 ? `?after=${after}` : ""}`);

export const endTest = (testId: number): Promise<SignalTest> => api<SignalTest>("PUT", `/api/signaltest/end/${testId}`);

export const deleteTest = (testId: number): Promise<null> => api<null>("DELETE", `/api/signaltest/${testId}`);

// nodeKeys are the keys a node's uplinks have stored, offered for the
// position keys.
export const nodeKeys = (tagId: number): Promise<{ key: string }[]> => api<{ key: string }[]>("GET", `/api/tag/${tagId}/keys`);

export const companyNodes = (companyId: number): Promise<Node[]> => api<Node[]>("GET", `/api/tag/company/${companyId}`);
