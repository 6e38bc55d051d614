// GatewayList is /gateways: the map, the list with state, last seen and
// signal figures (refreshed every 30 s), and the unknown gateways with a
// one-click "Add". Deleting asks first.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useIntl } from "react-intl";
import type * as L from "leaflet";
import { api } from "@/lib/api";
import { toast } from "@/lib/toast";
import { dateTimeWithZone, pageTimeZone } from "@/lib/i18n";
import { stateLabel, type Application, type Gateway, type ListProps, type UnknownGateway } from "@/features/gateways/utils/model";
import { GatewayMap } from "@/features/gateways/components/gateway-map";

const refreshMs = 30_000;
const pageSize = 100;

type Load = { state: "loading" } | { state: "error" } | { state: "ready"; gateways: Gateway[]; unknown: UnknownGateway[] };

export function GatewayList({ companyId, canManage, tileUrl, offlineSeconds }: ListProps): ReactNode {
  const intl = useIntl();
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [filter, setFilter] = useState("");
  const [shown, setShown] = useState(pageSize);
  const [confirm, setConfirm] = useState<Gateway | null>(null);
  const [busy, setBusy] = useState(false);
  const mapRef = useRef<L.Map | null>(null);
  const dialog = useRef<HTMLDialogElement | null>(null);
  const generic = intl.formatMessage({ id: "error.generic" });

  const refresh = useCallback(async (): Promise<void> => {
    try {
      const [gateways, unknown] = await Promise.all([
        api<Gateway[]>("GET", `/api/gateway/company/${companyId}`),
        api<UnknownGateway[]>("GET", `/api/gateway/company/${companyId}/unknown`),
      ]);
      setLoad({ state: "ready", gateways, unknown });
    } catch {
      // SPEC section 8: a failed gateway list shows no alert; the page says so.
      setLoad((l) => (l.state === "ready" ? l : { state: "error" }));
    }
  }, [companyId]);

  useEffect(() => {
    // The first load, then the refresh; the state is set when the answer arrives.
    const first = setTimeout(() => void refresh(), 0);
    const timer = setInterval(() => void refresh(), refreshMs);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [refresh]);

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (confirm && !d.open) d.showModal();
    if (!confirm && d.open) d.close();
  }, [confirm]);

  const remove = async (g: Gateway): Promise<void> => {
    setBusy(true);
    try {
      await api("DELETE", `/api/gateway/${g.id}`);
      toast("success", intl.formatMessage({ id: "gateways.deleted" }));
      setConfirm(null);
      await refresh();
    } catch {
      toast("error", generic);
    } finally {
      setBusy(false);
    }
  };

  const move = useCallback(
    (g: Gateway, lat: number, lng: number): void => {
      // SPEC section 8: a failed position update shows no alert; the list
      // reloads and the marker goes back.
      void api("PUT", `/api/gateway/${g.id}/pos`, { latitude: lat, longitude: lng }).finally(() => void refresh());
    },
    [refresh],
  );

  const add = async (u: UnknownGateway): Promise<void> => {
    setBusy(true);
    try {
      const apps = await api<Application[]>("GET", `/api/companies/${companyId}/applications`);
      const app = apps[0];
      if (!app) {
        toast("error", intl.formatMessage({ id: "gateways.unknown.noApplication" }));
        return;
      }
      const c = mapRef.current?.getCenter();
      await api("POST", `/api/gateway/${app.id}`, {
        name: intl.formatMessage({ id: "gateways.unknown.name" }, { eui: u.macAddress }),
        macAddress: u.macAddress,
        latitude: Math.round((c?.lat ?? 59.3293) * 1e6) / 1e6,
        longitude: Math.round((c?.lng ?? 18.0686) * 1e6) / 1e6,
      });
      toast("success", `${intl.formatMessage({ id: "gateways.created" })}. ${intl.formatMessage({ id: "gateways.unknown.placed" })}`);
      await refresh();
    } catch {
      toast("error", generic);
    } finally {
      setBusy(false);
    }
  };

  const gateways = load.state === "ready" ? load.gateways : null;
  const visible = useMemo(() => {
    if (!gateways) return [];
    const f = filter.trim().toLowerCase();
    return f ? gateways.filter((g) => g.name.toLowerCase().includes(f) || g.macAddress.toLowerCase().includes(f)) : gateways;
  }, [gateways, filter]);

  if (load.state === "loading") {
    return (
      <p className="muted" role="status">
        {intl.formatMessage({ id: "gateways.page.loading" })}
      </p>
    );
  }
  if (load.state === "error") {
    return (
      <div role="alert" className="fh-gw-error">
        <p>{intl.formatMessage({ id: "gateways.list.error" })}</p>
        <button type="button" className="button secondary" onClick={() => void refresh()}>
          {intl.formatMessage({ id: "gateways.list.retry" })}
        </button>
      </div>
    );
  }

  const when = (iso: string | null): ReactNode =>
    iso ? <time dateTime={iso}>{intl.formatDate(iso, { ...dateTimeWithZone, timeZone: pageTimeZone() })}</time> : intl.formatMessage({ id: "gateways.never" });
  const num = (v: number | null, unit: string): string => (v === null ? "–" : `${intl.formatNumber(v, { maximumFractionDigits: 1 })} ${unit}`);
  const stateBadge = (s: string): ReactNode => (
    <span className={`fh-gw-state fh-gw--${s}`}>
      <span className="fh-gw-pin" aria-hidden="true" /> {intl.formatMessage({ id: stateLabel[s] ?? "gateways.state.never" })}
    </span>
  );

  return (
    <div className="fh-gw" data-loaded="true">
      <GatewayMap gateways={load.gateways} tileUrl={tileUrl} canManage={canManage} onMove={move} mapRef={mapRef} />
      <p className="muted">{offlineSeconds % 60 === 0
          ? intl.formatMessage({ id: "gateways.offlineAfter" }, { minutes: offlineSeconds / 60 })
          : intl.formatMessage({ id: "gateways.offlineAfterSeconds" }, { seconds: offlineSeconds })}</p>
      {load.gateways.length === 0 ? (
        <p className="empty">{intl.formatMessage({ id: "gateways.list.empty" })}</p>
      ) : (
        <>
          <div className="field fh-gw-filter">
            <label htmlFor="gw-filter">{intl.formatMessage({ id: "gateways.list.filter" })}</label>
            <input id="gw-filter" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
          </div>
          <p className="muted" role="status">
            {intl.formatMessage({ id: "gateways.list.count" }, { shown: Math.min(shown, visible.length), total: visible.length })}
          </p>
          <div className="table-scroll" tabIndex={0} role="region" aria-label={intl.formatMessage({ id: "gateways.page.title" })}>
            <table className="list stacked fh-gw-table">
              <thead>
                <tr>
                  <th scope="col">{intl.formatMessage({ id: "gateways.col.name" })}</th>
                  <th scope="col">{intl.formatMessage({ id: "gateways.col.eui" })}</th>
                  <th scope="col">{intl.formatMessage({ id: "gateways.col.state" })}</th>
                  <th scope="col">{intl.formatMessage({ id: "gateways.col.lastSeen" })}</th>
                  <th scope="col">{intl.formatMessage({ id: "gateways.col.uplinks" })}</th>
                  <th scope="col">{intl.formatMessage({ id: "gateways.col.rssi" })}</th>
                  <th scope="col">{intl.formatMessage({ id: "gateways.col.snr" })}</th>
                  {canManage ? <th scope="col">{intl.formatMessage({ id: "gateways.col.actions" })}</th> : null}
                </tr>
              </thead>
              <tbody>
                {visible.slice(0, shown).map((g) => (
                  <tr key={g.id} data-eui={g.macAddress} data-state={g.state}>
                    <th scope="row">{g.name}</th>
                    <td className="mono">{g.macAddress}</td>
                    <td>{stateBadge(g.state)}</td>
                    <td>{when(g.lastSeen)}</td>
                    <td>{intl.formatNumber(g.uplinks24h)}</td>
                    <td>{num(g.medianRssi, "dBm")}</td>
                    <td>{num(g.medianSnr, "dB")}</td>
                    {canManage ? (
                      <td>
                        <button type="button" className="button small danger" onClick={() => setConfirm(g)} aria-label={`${intl.formatMessage({ id: "gateways.delete" })} ${g.name}`}>
                          {intl.formatMessage({ id: "gateways.delete" })}
                        </button>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {visible.length > shown ? (
            <button type="button" className="button secondary" onClick={() => setShown((n) => n + pageSize)}>
              {intl.formatMessage({ id: "gateways.list.more" })}
            </button>
          ) : null}
        </>
      )}
      <section className="fh-gw-unknown" aria-labelledby="gw-unknown-title">
        <h2 id="gw-unknown-title">{intl.formatMessage({ id: "gateways.unknown.title" })}</h2>
        <p className="muted">{intl.formatMessage({ id: "gateways.unknown.intro" })}</p>
        {load.unknown.length === 0 ? (
          <p className="empty">{intl.formatMessage({ id: "gateways.unknown.empty" })}</p>
        ) : (
          <table className="list stacked">
            <thead>
              <tr>
                <th scope="col">{intl.formatMessage({ id: "gateways.col.eui" })}</th>
                <th scope="col">{intl.formatMessage({ id: "gateways.col.lastSeen" })}</th>
                <th scope="col">{intl.formatMessage({ id: "gateways.col.uplinks" })}</th>
                <th scope="col">{intl.formatMessage({ id: "gateways.col.rssi" })}</th>
                <th scope="col">{intl.formatMessage({ id: "gateways.col.snr" })}</th>
                {canManage ? <th scope="col">{intl.formatMessage({ id: "gateways.col.actions" })}</th> : null}
              </tr>
            </thead>
            <tbody>
              {load.unknown.map((u) => (
                <tr key={u.macAddress} data-eui={u.macAddress}>
                  <th scope="row" className="mono">
                    {u.macAddress}
                  </th>
                  <td>{when(u.lastSeen)}</td>
                  <td>{intl.formatNumber(u.uplinks24h)}</td>
                  <td>{num(u.medianRssi, "dBm")}</td>
                  <td>{num(u.medianSnr, "dB")}</td>
                  {canManage ? (
                    <td>
                      <button type="button" className="button small" disabled={busy} onClick={() => void add(u)}
                        aria-label={intl.formatMessage({ id: "gateways.unknown.addLabel" }, { eui: u.macAddress })}>
                        {intl.formatMessage({ id: "gateways.unknown.add" })}
                      </button>{" "}
                      <a href={`/gateways/create?eui=${encodeURIComponent(u.macAddress)}`}
                        aria-label={intl.formatMessage({ id: "gateways.unknown.formLabel" }, { eui: u.macAddress })}>
                        {intl.formatMessage({ id: "gateways.unknown.form" })}
                      </a>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <dialog ref={dialog} className="card confirm fh-gw-dialog" aria-labelledby="gw-confirm" onClose={() => setConfirm(null)}>
        {confirm ? (
          <>
            <p id="gw-confirm">{intl.formatMessage({ id: "gateways.delete.confirm" }, { name: confirm.name })}</p>
            <div className="fh-gw-dialog__actions">
              <button type="button" className="button danger" disabled={busy} onClick={() => void remove(confirm)}>
                {intl.formatMessage({ id: "gateways.delete.yes" })}
              </button>
              <button type="button" className="button secondary" onClick={() => setConfirm(null)}>
                {intl.formatMessage({ id: "gateways.cancel" })}
              </button>
            </div>
          </>
        ) : null}
      </dialog>
    </div>
  );
}
