// TestPeek is /signaltest/peek/{id}: a test's live view. While the test is
// active it polls GET /api/signaltest/peek/{id}?after={cursor} every few
// seconds (not while its tab is hidden), so that each uplink's point appears on the map and in the table
// without a reload (one call a poll, whichever instance stored the
// uplink); the summary shows the averages the server computed from the
// points. "Complete test" ends it after a confirmation; the points export
// as CSV.
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useIntl, type IntlShape } from "react-intl";
import { endTest, peekTest, type Peek, type Point } from "@/features/signaltests/api/signaltests";
import { ConfirmDialog } from "@/features/signaltests/components/confirm-dialog";
import type { MapPoint } from "@/features/signaltests/components/points-map";
import { csvName, download, pointsCsv } from "@/features/signaltests/utils/csv";
import { exact, position, signal, when } from "@/features/signaltests/utils/format";
import { known, msg } from "@/features/signaltests/utils/messages";
import { qualityOf, QUALITIES, type Quality } from "@/features/signaltests/utils/quality";
import { serverMessage, translator } from "@/lib/api-error";
import { toast } from "@/lib/toast";
import "@/features/signaltests/components/signaltests.css";

const PointsMap = lazy(() => import("@/features/signaltests/components/points-map"));

// pollMs is how often an active test asks for new points.
export const pollMs = 3000;

const qualityMsg = { good: msg.qualityGood, fair: msg.qualityFair, poor: msg.qualityPoor, none: msg.qualityNone } as const;
const ruleMsg = { good: msg.qualityGoodRule, fair: msg.qualityFairRule, poor: msg.qualityPoorRule, none: msg.qualityNoneRule } as const;

type Load = { state: "loading" } | { state: "failed" } | { state: "ready"; test: Peek };

// gatewaysText names the gateways that heard a point, the best first, with
// their signal.
function gatewaysText(intl: IntlShape, p: Point): string {
  return [...p.receptions]
    .sort((a, b) => (a.gatewayId === p.gatewayId ? -1 : b.gatewayId === p.gatewayId ? 1 : 0))
    .map((r) => {
      const best = r.gatewayId === p.gatewayId && p.receptions.length > 1 ? ` (${intl.formatMessage(msg.peekBest)})` : "";
      return `${r.name || r.gatewayId}${best}: ${exact(intl, r.rssi)} dBm, ${exact(intl, r.snr)} dB`;
    })
    .join("; ");
}

export function TestPeek({ testId, tileUrl }: { testId: number; tileUrl: string }): ReactNode {
  const intl = useIntl();
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [pollFailed, setPollFailed] = useState(false);
  const [completing, setCompleting] = useState(false);
  const [selected, setSelected] = useState<{ id: number; seq: number } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const first = useCallback(() => {
    setLoad({ state: "loading" });
    peekTest(testId, 0)
      .then((test) => setLoad({ state: "ready", test }))
      .catch(() => {
        setLoad({ state: "failed" });
        toast("error", intl.formatMessage(msg.generic));
      });
  }, [testId, intl]);
  useEffect(first, [first]);

  // The poll: the points after the cursor join those shown; the test's
  // own fields (averages, state) are replaced.
  const active = load.state === "ready" && load.test.active;
  const cursor = load.state === "ready" ? load.test.cursor : 0;
  useEffect(() => {
    if (!active) return;
    // A page in a hidden tab (a phone in a pocket on the walk) asks again
    // only once it is shown: the points wait on the server.
    let onShow: (() => void) | undefined;
    const poll = (): void => {
      if (document.hidden) {
        const shown = (): void => {
          if (document.hidden) return;
          document.removeEventListener("visibilitychange", shown);
          poll();
        };
        onShow = shown;
        document.addEventListener("visibilitychange", shown);
        return;
      }
      peekTest(testId, cursor)
        .then((next) => {
          setPollFailed(false);
          setLoad((l) => {
            // An answer that a completion overtook changes nothing; the
            // points already shown are not added twice.
            if (l.state !== "ready" || !l.test.active) return l;
            const last = l.test.points.at(-1)?.id ?? 0;
            const points = [...l.test.points, ...next.points.filter((p) => p.id > last)];
            return { state: "ready", test: { ...next, points, cursor: Math.max(next.cursor, l.test.cursor) } };
          });
        })
        .catch(() => {
          setPollFailed(true);
          // The same cursor again: the effect runs when the state changes.
          setLoad((l) => (l.state === "ready" ? { state: "ready", test: { ...l.test } } : l));
        });
    };
    timer.current = setTimeout(poll, pollMs);
    return () => {
      clearTimeout(timer.current);
      if (onShow) document.removeEventListener("visibilitychange", onShow);
    };
  }, [active, cursor, testId, load]);

  const complete = async (): Promise<void> => {
    try {
      await endTest(testId);
      const test = await peekTest(testId, 0);
      setLoad({ state: "ready", test });
      toast("success", intl.formatMessage(msg.completed));
    } catch (err) {
      const text = serverMessage(err, translator(intl, known), (s) => s === 409);
      toast("error", text ?? intl.formatMessage(msg.generic));
      first();
    }
  };

  const gatewayLabel = useCallback((name: string) => intl.formatMessage(msg.peekGateway, { name }), [intl]);
  const test = load.state === "ready" ? load.test : null;
  const rows = useMemo(
    () => (test?.points ?? []).map((p, i) => ({ n: i + 1, point: p, quality: qualityOf(p.rssi, p.snr) as Quality })),
    [test?.points],
  );
  const mapPoints = useMemo<MapPoint[]>(
    () =>
      rows
        .filter((r): r is { n: number; point: Point & { lat: number; lng: number }; quality: Quality } => r.point.lat !== null && r.point.lng !== null)
        .map((r) => ({
          ...r,
          title: intl.formatMessage(msg.peekPointTitle, { n: r.n, quality: intl.formatMessage(qualityMsg[r.quality]) }),
          popup: [
            when(intl, r.point.createdAt),
            `RSSI ${exact(intl, r.point.rssi)} dBm, SNR ${exact(intl, r.point.snr)} dB${r.point.spreadingFactor ? `, SF${r.point.spreadingFactor}` : ""}`,
            gatewaysText(intl, r.point),
          ].filter((l) => l !== ""),
        })),
    [rows, intl],
  );

  if (load.state === "loading") {
    return (
      <p className="muted" role="status">
        {intl.formatMessage(msg.loading)}
      </p>
    );
  }
  if (load.state === "failed" || !test) {
    return (
      <div className="form-error" role="alert">
        <p>{intl.formatMessage(msg.generic)}</p>
        <button type="button" className="button small" onClick={first}>
          {intl.formatMessage(msg.retry)}
        </button>
      </div>
    );
  }

  const keys = test.latitudeKey || test.longitudeKey ? `${test.latitudeKey || "latitude"}, ${test.longitudeKey || "longitude"}` : intl.formatMessage(msg.peekDetected);
  return (
    <div className="fh-st fh-st-peek" data-active={test.active}>
      <div className="fh-st-peek__bar">
        <span className={`pill fh-st-state fh-st-state--${test.active ? "active" : "completed"}`}>
          {intl.formatMessage(test.active ? msg.stateActive : msg.stateCompleted)}
        </span>
        {test.active ? (
          <span className="muted fh-st-live" role="status">
            <span className="mdi mdi-access-point" aria-hidden="true" /> {intl.formatMessage(pollFailed ? msg.peekPollFailed : msg.peekLive)}
          </span>
        ) : null}
        <span className="fh-st-peek__actions">
          <button type="button" className="button secondary" onClick={() => download(csvName(test), pointsCsv(test.points))} disabled={test.points.length === 0}>
            <span className="mdi mdi-download" aria-hidden="true" /> {intl.formatMessage(msg.peekExport)}
          </button>
          {test.active ? (
            <button type="button" className="button" onClick={() => setCompleting(true)}>
              <span className="mdi mdi-flag-checkered" aria-hidden="true" /> {intl.formatMessage(msg.peekComplete)}
            </button>
          ) : null}
        </span>
      </div>

      <section>
        <h2 id="fh-st-summary" className="sr-only">
          {intl.formatMessage(msg.peekSummary)}
        </h2>
        <dl className="fh-st-summary">
          <div>
            <dt>{intl.formatMessage(msg.colStart)}</dt>
            <dd>{when(intl, test.start)}</dd>
          </div>
          <div>
            <dt>{intl.formatMessage(msg.colEnd)}</dt>
            <dd>{when(intl, test.end)}</dd>
          </div>
          <div>
            <dt>{intl.formatMessage(msg.colPoints)}</dt>
            <dd data-summary="points">{intl.formatNumber(test.pointCount)}</dd>
          </div>
          <div>
            <dt>{intl.formatMessage(msg.colAvgRssi)}</dt>
            <dd data-summary="rssi">{signal(intl, test.averageRssi, "dBm")}</dd>
          </div>
          <div>
            <dt>{intl.formatMessage(msg.colAvgSnr)}</dt>
            <dd data-summary="snr">{signal(intl, test.averageSnr, "dB")}</dd>
          </div>
          <div>
            <dt>{intl.formatMessage(msg.peekKeys)}</dt>
            <dd>{keys}</dd>
          </div>
        </dl>
      </section>

      <div className="fh-st-peek__map">
        {mapPoints.length > 0 ? (
          <Suspense
            fallback={
              <p className="muted" role="status">
                {intl.formatMessage(msg.loading)}
              </p>
            }
          >
            <PointsMap points={mapPoints} tileUrl={tileUrl} label={intl.formatMessage(msg.peekMap)} gatewayLabel={gatewayLabel} selected={selected} />
          </Suspense>
        ) : (
          <p className="empty fh-st-map fh-st-map--empty">
            {test.points.length === 0 ? intl.formatMessage(test.active ? msg.peekWaiting : msg.peekNoPoints) : intl.formatMessage(msg.peekNoPositions)}
          </p>
        )}
        <section className="fh-st-legend" aria-labelledby="fh-st-legend">
          <h2 id="fh-st-legend">{intl.formatMessage(msg.peekLegend)}</h2>
          <ul>
            {QUALITIES.map((q) => (
              <li key={q}>
                <span className={`fh-st-swatch fh-st-dot--${q}`} aria-hidden="true" />
                <strong>{intl.formatMessage(qualityMsg[q])}</strong>: {intl.formatMessage(ruleMsg[q])}
              </li>
            ))}
          </ul>
        </section>
      </div>

      <section>
        <h2 id="fh-st-points">{intl.formatMessage(msg.peekPoints)}</h2>
        {rows.length === 0 ? (
          <p className="empty">{intl.formatMessage(test.active ? msg.peekWaiting : msg.peekNoPoints)}</p>
        ) : (
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="fh-st-points">
            <table className="list fh-st-points">
              <thead>
                <tr>
                  <th scope="col" className="num">{intl.formatMessage(msg.peekColN)}</th>
                  <th scope="col">{intl.formatMessage(msg.peekColTime)}</th>
                  <th scope="col">{intl.formatMessage(msg.peekColPosition)}</th>
                  <th scope="col">{intl.formatMessage(msg.peekColQuality)}</th>
                  <th scope="col" className="num">{intl.formatMessage(msg.peekColRssi)}</th>
                  <th scope="col" className="num">{intl.formatMessage(msg.peekColSnr)}</th>
                  <th scope="col" className="num">{intl.formatMessage(msg.peekColSf)}</th>
                  <th scope="col" className="num">{intl.formatMessage(msg.peekColFcnt)}</th>
                  <th scope="col">{intl.formatMessage(msg.peekColGateways)}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map(({ n, point: p, quality }) => (
                  <tr key={p.id} data-point-id={p.id}>
                    <td className="num">{n}</td>
                    <td>{when(intl, p.createdAt)}</td>
                    <td>
                      {p.lat !== null && p.lng !== null ? (
                        <button
                          type="button"
                          className="link fh-st-show"
                          onClick={() => setSelected((s) => ({ id: p.id, seq: (s?.seq ?? 0) + 1 }))}
                        >
                          <span className="sr-only">{intl.formatMessage(msg.peekShowLabel, { n })}: </span>
                          {position(intl, p.lat, p.lng)}
                        </button>
                      ) : (
                        <span className="muted">{intl.formatMessage(msg.peekNoPosition)}</span>
                      )}
                    </td>
                    <td className="fh-st-quality">
                      <span className={`fh-st-swatch fh-st-dot--${quality}`} aria-hidden="true" /> {intl.formatMessage(qualityMsg[quality])}
                    </td>
                    <td className="num" data-col="rssi">{exact(intl, p.rssi)}</td>
                    <td className="num" data-col="snr">{exact(intl, p.snr)}</td>
                    <td className="num">{p.spreadingFactor || "–"}</td>
                    <td className="num">{p.fCnt}</td>
                    <td className="fh-st-gateways">{gatewaysText(intl, p) || "–"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {completing ? (
        <ConfirmDialog
          title={intl.formatMessage(msg.peekCompleteTitle)}
          text={intl.formatMessage(msg.peekCompleteText)}
          confirm={intl.formatMessage(msg.peekComplete)}
          onClose={() => setCompleting(false)}
          onConfirm={complete}
        />
      ) : null}
    </div>
  );
}
