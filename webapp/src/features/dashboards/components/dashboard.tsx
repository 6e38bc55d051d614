// DashboardBoard is the dashboard page's island (/dashboard/{id} and
// /public/{id}): the modules in a responsive grid, each drawn by its widget
// and kept current from the live feed (signed in) or by polling (public).
// Admins and CompanyAdmins get an edit mode to add, configure, move,
// resize, copy and delete modules; layout changes are saved together with
// PUT /api/dashboards/modules/multiple.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { I18nProvider } from "react-aria-components";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions, DialogHeading } from "@/components/ui/dialog";
import { Modal } from "@/components/ui/modal";
import { useIntl } from "react-intl";
import { ApiError } from "@/lib/api";
import { ModuleCard, type CardAction } from "@/features/dashboards/components/module-card";
import { ModuleEditor } from "@/features/dashboards/components/module-editor";
import { SwitchField } from "@/features/dashboards/components/fields";
import { BoardContext, SourceContext } from "@/features/dashboards/hooks/use-module-data";
import { changed, move, reindex } from "@/features/dashboards/utils/layout";
import { LiveContext, LiveHub, publicPollMs } from "@/features/dashboards/hooks/use-live";
import { msg } from "@/features/dashboards/utils/messages";
import { latestTypes, refsOf, T, type DashModule, type Dashboard, type Size } from "@/features/dashboards/utils/dashboard-model";
import { loadMapView } from "@/features/dashboards/components/widgets/map";
import { Source, type Loaded } from "@/features/dashboards/api/source";
import { ShareDialog, shareMessages } from "@/features/dashboards/components/share-dialog";
import { ChartSync, SyncContext } from "@/features/dashboards/hooks/use-chart-sync";
import "@/features/dashboards/components/dashboard.css";
import { toast } from "@/lib/toast";
import { takeEditRequest } from "@/features/dashboards/utils/edit-request";

export interface DashboardProps {
  dashboardId: number;
  companyId: number;
  canEdit: boolean;
  // canRun: the viewer may press the function buttons that act (see Board).
  canRun: boolean;
  publicToken: string;
  tileUrl: string;
  // timeZone is the IANA zone trend buckets of days and weeks follow.
  timeZone: string;
  name: string;
}

type State = { state: "loading" } | { state: "error"; gone: boolean } | { state: "done"; loaded: Loaded };

// whenIdle runs f when the browser is next idle (at most 1.5 s on), and
// returns what cancels it.
function whenIdle(f: () => void): () => void {
  if (typeof requestIdleCallback === "function") {
    const id = requestIdleCallback(f, { timeout: 1500 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(f, 500);
  return () => clearTimeout(id);
}

export function DashboardBoard(props: DashboardProps): ReactNode {
  const { dashboardId, publicToken, tileUrl } = props;
  const intl = useIntl();
  const source = useMemo(() => new Source(dashboardId, publicToken, props.timeZone), [dashboardId, publicToken, props.timeZone]);
  const hub = useMemo(() => new LiveHub(), []);
  const sync = useMemo(() => new ChartSync(), []);
  const [state, setState] = useState<State>({ state: "loading" });
  const [modules, setModules] = useState<DashModule[]>([]);
  const [attempt, setAttempt] = useState(0);
  const canEdit = props.canEdit && !source.isPublic;
  const [editing, setEditing] = useState(() => takeEditRequest() && canEdit);
  const [editor, setEditor] = useState<{ module: DashModule | null } | null>(null);
  const [removing, setRemoving] = useState<DashModule | null>(null);
  const [sharing, setSharing] = useState(false);
  const [dragId, setDragId] = useState<number | null>(null);
  const [overId, setOverId] = useState<number | null>(null);
  const [announce, setAnnounce] = useState("");
  const modulesRef = useRef(modules);
  modulesRef.current = modules;

  useEffect(() => {
    let live = true;
    setState({ state: "loading" });
    source.load().then(
      (loaded) => {
        if (!live) return;
        // Leaflet's chunk is asked for before the modules' data calls take
        // the browser's connections.
        if (loaded.modules.some((m) => m.type === T.map)) void loadMapView();
        setModules(loaded.modules);
        setState({ state: "done", loaded });
      },
      (err: unknown) => {
        if (live) setState({ state: "error", gone: err instanceof ApiError && (err.status === 404 || err.status === 403) });
      },
    );
    return () => {
      live = false;
    };
  }, [source, attempt]);

  const companyId = state.state === "done" ? state.loaded.dashboard.companyId || props.companyId : props.companyId;

  // Live values: the event feed when signed in; polling when public.
  useEffect(() => {
    if (state.state !== "done") return;
    if (!source.isPublic) {
      // The feed (its node list, then the socket) starts once the modules'
      // own calls are under way, so that it does not hold them up; values
      // of the moment in between are in what those calls answer.
      const cancel = whenIdle(() => hub.follow(companyId || undefined));
      return () => {
        cancel();
        hub.stop();
      };
    }
    let first = true;
    const poll = (): void => {
      const ms = modulesRef.current.filter((m) => latestTypes.has(m.type) || refsOf(m).length > 0);
      const isFirst = first;
      first = false;
      void Promise.allSettled(ms.map((m) => source.latest(m))).then((all) => {
        for (const r of all) if (r.status === "fulfilled") hub.offerLatest(r.value, isFirst);
      });
    };
    poll();
    const timer = setInterval(poll, publicPollMs);
    return () => clearInterval(timer);
  }, [state.state, source, hub, companyId]);

  // replace puts saved modules in place of their older versions.
  const replace = useCallback((saved: readonly DashModule[]) => {
    const byId = new Map(saved.map((m) => [m.dashboardModuleId, m]));
    setModules((ms) => ms.map((m) => byId.get(m.dashboardModuleId) ?? m));
  }, []);

  // saveLayout shows next at once and stores what changed; on failure the
  // layout goes back to what it was.
  const saveLayout = useCallback(
    (next: DashModule[]) => {
      const prev = modulesRef.current;
      const diff = changed(prev, next);
      setModules(next);
      if (diff.length === 0) return;
      source.saveLayout(diff).then(replace, () => {
        setModules(prev);
        toast("error", intl.formatMessage(msg.saveFailed));
      });
    },
    [source, replace, intl],
  );

  // saveModule keeps a change a widget or the range picker made; it is
  // stored only when persist is true (the caller may write).
  const saveModule = useCallback(
    (m: DashModule, persist: boolean) => {
      setModules((ms) => ms.map((x) => (x.dashboardModuleId === m.dashboardModuleId ? m : x)));
      if (!persist) return;
      source.update(m).catch(() => toast("error", intl.formatMessage(msg.saveFailed)));
    },
    [source, intl],
  );

  function moveTo(from: number, to: number, focus: boolean): void {
    const ms = modulesRef.current;
    const item = ms[from];
    if (!item) return;
    saveLayout(move(ms, from, to));
    setAnnounce(intl.formatMessage(msg.moved, { title: item.title || intl.formatMessage(msg.untitled), position: to + 1, count: ms.length }));
    if (focus) {
      requestAnimationFrame(() => {
        document.querySelector<HTMLElement>(`[data-module-id="${item.dashboardModuleId}"] .fh-dash-card__handle`)?.focus();
      });
    }
  }

  function onAction(m: DashModule, i: number, a: CardAction): void {
    const title = m.title || intl.formatMessage(msg.untitled);
    switch (a) {
      case "configure":
        setEditor({ module: m });
        break;
      case "copy":
        source.copy(m).then(
          (c) => {
            setModules((ms) => {
              const list = [...ms];
              list.splice(i + 1, 0, c);
              return reindex(list);
            });
            toast("success", intl.formatMessage(msg.copied, { title }));
          },
          () => toast("error", intl.formatMessage(msg.saveFailed)),
        );
        break;
      case "earlier":
        moveTo(i, i - 1, false);
        break;
      case "later":
        moveTo(i, i + 1, false);
        break;
      case "delete":
        setRemoving(m);
        break;
    }
  }

  function resize(i: number, patch: { sizeSmall?: Size; sizeMid?: Size }): void {
    const ms = modulesRef.current;
    saveLayout(ms.map((m, j) => (j === i ? { ...m, ...patch } : m)));
  }

  async function confirmRemove(m: DashModule): Promise<void> {
    try {
      await source.remove(m);
      setModules((ms) => reindex(ms.filter((x) => x.dashboardModuleId !== m.dashboardModuleId)));
      toast("success", intl.formatMessage(msg.deleted, { title: m.title || intl.formatMessage(msg.untitled) }));
    } catch {
      toast("error", intl.formatMessage(msg.saveFailed));
    }
  }

  if (state.state === "loading") {
    return (
      <div className="fh-dash fh-dash--loading" role="status" aria-busy="true">
        <span className="mdi mdi-loading mdi-spin" aria-hidden="true" /> {intl.formatMessage(msg.loading)}
      </div>
    );
  }
  if (state.state === "error") {
    return (
      <div className="fh-dash-state fh-dash-state--error fh-dash-state--page" role="alert">
        <span>{intl.formatMessage(state.gone ? (source.isPublic ? msg.gone : msg.loadFailed) : msg.loadFailed)}</span>
        {!state.gone ? (
          <Button className="fh-dash-button fh-dash-button--small" onPress={() => setAttempt((n) => n + 1)}>
            {intl.formatMessage(msg.retry)}
          </Button>
        ) : null}
      </div>
    );
  }

  const dashboard: Dashboard = state.loaded.dashboard;
  const expiresAt = state.loaded.expiresAt;
  return (
    <I18nProvider locale={intl.locale}>
      <SourceContext.Provider value={source}>
        <BoardContext.Provider value={{ companyId, tileUrl, canRun: props.canRun && !source.isPublic }}>
          <LiveContext.Provider value={hub}>
            <SyncContext.Provider value={sync}>
              <div className="fh-dash" data-editing={editing} data-public={source.isPublic}>
                <div className="fh-dash__bar">
                  <p className="fh-dash__name" aria-hidden="true">
                    {dashboard.name || props.name}
                  </p>
                  {source.isPublic ? (
                    <p className="fh-dash__note">
                      <span className="mdi mdi-eye-outline" aria-hidden="true" />{" "}
                      {intl.formatMessage(msg.publicNote, {
                        company: state.loaded.companyName || dashboard.name,
                        date: expiresAt ? intl.formatDate(new Date(expiresAt), { dateStyle: "medium", timeStyle: "short" }) : "–",
                      })}
                    </p>
                  ) : null}
                  <p className="fh-dash__status">
                    <span className={`mdi ${source.isPublic ? "mdi-timer-sync-outline" : "mdi-access-point"}`} aria-hidden="true" />{" "}
                    {intl.formatMessage(source.isPublic ? msg.statusPolling : msg.statusLive)}
                  </p>
                  {canEdit ? (
                    <div className="fh-dash__tools">
                      <Button className="fh-dash-button fh-dash-button--quiet" onPress={() => setSharing(true)}>
                        <span className="mdi mdi-share-variant-outline" aria-hidden="true" /> {intl.formatMessage(shareMessages.open)}
                      </Button>
                      <SwitchField label={intl.formatMessage(msg.editMode)} value={editing} onChange={setEditing} />
                      {editing ? (
                        <Button className="fh-dash-button" onPress={() => setEditor({ module: null })}>
                          <span className="mdi mdi-plus" aria-hidden="true" /> {intl.formatMessage(msg.add)}
                        </Button>
                      ) : null}
                    </div>
                  ) : null}
                </div>
                {modules.length === 0 ? (
                  <div className="fh-dash-state fh-dash-state--page" role="status">
                    {intl.formatMessage(msg.empty)} {canEdit ? intl.formatMessage(msg.emptyEdit) : null}
                    {canEdit && !editing ? (
                      <Button
                        className="fh-dash-button"
                        onPress={() => {
                          setEditing(true);
                          setEditor({ module: null });
                        }}
                      >
                        <span className="mdi mdi-plus" aria-hidden="true" /> {intl.formatMessage(msg.add)}
                      </Button>
                    ) : null}
                  </div>
                ) : (
                  <div className="fh-dash__gridbox">
                    <ol className="fh-dash__grid" aria-label={intl.formatMessage(msg.modules, { name: dashboard.name })}>
                      {modules.map((m, i) => (
                        <ModuleCard
                          key={m.dashboardModuleId}
                          module={m}
                          position={i}
                          count={modules.length}
                          editing={editing}
                          dragging={dragId === m.dashboardModuleId}
                          dropTarget={overId === m.dashboardModuleId && dragId !== m.dashboardModuleId}
                          onAction={(a) => onAction(m, i, a)}
                          onResize={(patch) => resize(i, patch)}
                          onMoveKey={(to) => moveTo(i, to, true)}
                          onRange={(seconds) => saveModule({ ...m, settings: { ...m.settings, timeOffset: seconds } }, canEdit)}
                          save={(next) => saveModule(next, canEdit && editing)}
                          onDragStart={() => setDragId(m.dashboardModuleId)}
                          onDragEnd={() => {
                            setDragId(null);
                            setOverId(null);
                          }}
                          onDragOver={() => setOverId(m.dashboardModuleId)}
                          onDrop={() => {
                            const from = modulesRef.current.findIndex((x) => x.dashboardModuleId === dragId);
                            setDragId(null);
                            setOverId(null);
                            if (from >= 0 && from !== i) moveTo(from, i, false);
                          }}
                        />
                      ))}
                    </ol>
                  </div>
                )}
                <p className="sr-only" aria-live="polite">
                  {announce}
                </p>
              </div>
              {editor ? (
                <ModuleEditor
                  module={editor.module}
                  nextIndex={modules.length}
                  dashboardId={dashboard.dashboardId}
                  companyId={companyId}
                  source={source}
                  onClose={() => setEditor(null)}
                  onSaved={(saved, created) => {
                    const title = saved.title || intl.formatMessage(msg.untitled);
                    if (created) {
                      setModules((ms) => [...ms, saved]);
                      toast("success", intl.formatMessage(msg.created, { title }));
                    } else {
                      replace([saved]);
                      toast("success", intl.formatMessage(msg.updated, { title }));
                    }
                  }}
                />
              ) : null}
              {sharing ? <ShareDialog companyId={companyId} dashboardId={dashboard.dashboardId} onClose={() => setSharing(false)} /> : null}
              {removing ? <RemoveDialog module={removing} onClose={() => setRemoving(null)} onConfirm={confirmRemove} /> : null}
            </SyncContext.Provider>
          </LiveContext.Provider>
        </BoardContext.Provider>
      </SourceContext.Provider>
    </I18nProvider>
  );
}

function RemoveDialog({ module: m, onClose, onConfirm }: { module: DashModule; onClose: () => void; onConfirm: (m: DashModule) => Promise<void> }): ReactNode {
  const intl = useIntl();
  const [busy, setBusy] = useState(false);
  return (
    <Modal overlayClassName="fh-dash-overlay" className="fh-dash-modal fh-dash-modal--small" isOpen isDismissable={!busy} onOpenChange={(open) => !open && onClose()}>
      <Dialog className="fh-dash-dialog" role="alertdialog">
        {({ close }) => (
          <>
            <DialogHeading className="fh-dash-dialog__title">
              {intl.formatMessage(msg.removeTitle)}
            </DialogHeading>
            <p>{intl.formatMessage(msg.removeText, { title: m.title || intl.formatMessage(msg.untitled) })}</p>
            <DialogActions className="fh-dash-dialog__actions">
              <Button className="fh-dash-button fh-dash-button--quiet" onPress={close} autoFocus isDisabled={busy}>
                {intl.formatMessage(msg.cancel)}
              </Button>
              <Button
                className="fh-dash-button fh-dash-button--danger"
                isDisabled={busy}
                onPress={() => {
                  setBusy(true);
                  void onConfirm(m).finally(() => {
                    setBusy(false);
                    close();
                  });
                }}
              >
                {intl.formatMessage(msg.remove)}
              </Button>
            </DialogActions>
          </>
        )}
      </Dialog>
    </Modal>
  );
}
