// TestList is /signaltest: the start form and the company's tests with
// their state, start, points and averages; a test opens its live page, and
// is deleted after a confirmation.
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { useIntl } from "react-intl";
import { deleteTest, listTests, type SignalTest } from "@/features/signaltests/api/signaltests";
import { ConfirmDialog } from "@/features/signaltests/components/confirm-dialog";
import { StartForm } from "@/features/signaltests/components/start-form";
import { signal, when } from "@/features/signaltests/utils/format";
import { msg } from "@/features/signaltests/utils/messages";
import { toast } from "@/lib/toast";
import "@/features/signaltests/components/signaltests.css";

type Load = { state: "loading" } | { state: "failed" } | { state: "ready"; tests: SignalTest[] };

export function TestList({ companyId }: { companyId: number }): ReactNode {
  const intl = useIntl();
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [deleting, setDeleting] = useState<SignalTest | null>(null);

  const refresh = useCallback(() => {
    setLoad({ state: "loading" });
    listTests(companyId)
      .then((tests) => setLoad({ state: "ready", tests }))
      .catch(() => {
        setLoad({ state: "failed" });
        toast("error", intl.formatMessage(msg.generic));
      });
  }, [companyId, intl]);

  useEffect(refresh, [refresh]);

  const remove = async (t: SignalTest): Promise<void> => {
    try {
      await deleteTest(t.testId);
      toast("success", intl.formatMessage(msg.deleted));
      setLoad((l) => (l.state === "ready" ? { state: "ready", tests: l.tests.filter((x) => x.testId !== t.testId) } : l));
      // The row and its button are gone: the focus goes to the list.
      setTimeout(() => document.getElementById("fh-st-list-title")?.focus(), 0);
    } catch {
      toast("error", intl.formatMessage(msg.generic));
    }
  };

  return (
    <div className="fh-st">
      <StartForm companyId={companyId} />
      <section>
        <h2 id="fh-st-list-title" tabIndex={-1}>{intl.formatMessage(msg.listTitle)}</h2>
        {load.state === "loading" ? (
          <p className="muted" role="status">
            {intl.formatMessage(msg.loading)}
          </p>
        ) : load.state === "failed" ? (
          <div className="form-error" role="alert">
            <p>{intl.formatMessage(msg.generic)}</p>
            <button type="button" className="button small" onClick={refresh}>
              {intl.formatMessage(msg.retry)}
            </button>
          </div>
        ) : load.tests.length === 0 ? (
          <p className="empty">{intl.formatMessage(msg.listEmpty)}</p>
        ) : (
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="fh-st-list-title">
            <table className="list fh-st-tests">
              <thead>
                <tr>
                  <th scope="col">{intl.formatMessage(msg.colNode)}</th>
                  <th scope="col">{intl.formatMessage(msg.colDescription)}</th>
                  <th scope="col">{intl.formatMessage(msg.colState)}</th>
                  <th scope="col">{intl.formatMessage(msg.colStart)}</th>
                  <th scope="col">{intl.formatMessage(msg.colEnd)}</th>
                  <th scope="col" className="num">{intl.formatMessage(msg.colPoints)}</th>
                  <th scope="col" className="num">{intl.formatMessage(msg.colAvgRssi)}</th>
                  <th scope="col" className="num">{intl.formatMessage(msg.colAvgSnr)}</th>
                  <th scope="col">{intl.formatMessage(msg.colActions)}</th>
                </tr>
              </thead>
              <tbody>
                {load.tests.map((t) => (
                  <tr key={t.testId} data-test-id={t.testId}>
                    <td>
                      {t.tagName}
                      <div className="muted fh-st-eui">{t.deveui}</div>
                    </td>
                    <td>{t.description || "–"}</td>
                    <td>
                      <span className={`pill fh-st-state fh-st-state--${t.active ? "active" : "completed"}`}>
                        {intl.formatMessage(t.active ? msg.stateActive : msg.stateCompleted)}
                      </span>
                    </td>
                    <td>{when(intl, t.start)}</td>
                    <td>{when(intl, t.end)}</td>
                    <td className="num">{intl.formatNumber(t.pointCount)}</td>
                    <td className="num">{signal(intl, t.averageRssi, "dBm")}</td>
                    <td className="num">{signal(intl, t.averageSnr, "dB")}</td>
                    <td className="row-actions">
                      <a className="button small secondary" href={`/signaltest/peek/${t.testId}`} aria-label={intl.formatMessage(msg.openLabel, { name: t.tagName })}>
                        {intl.formatMessage(msg.open)}
                      </a>{" "}
                      <button type="button" className="button small danger" onClick={() => setDeleting(t)} aria-label={intl.formatMessage(msg.deleteLabel, { name: t.tagName })}>
                        {intl.formatMessage(msg.delete)}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {deleting ? (
        <ConfirmDialog
          title={intl.formatMessage(msg.deleteTitle)}
          text={intl.formatMessage(msg.deleteText, { name: deleting.tagName, count: deleting.pointCount })}
          confirm={intl.formatMessage(msg.delete)}
          danger
          onClose={() => setDeleting(null)}
          onConfirm={() => remove(deleting)}
        />
      ) : null}
    </div>
  );
}
