// ShareDialog manages the public links of a dashboard: anyone with a link
// sees the dashboard read-only until the link expires. Admins create links
// with an expiry, copy them ("Copied link to clipboard" / "Could not copy
// link {link}") and delete them.
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions, DialogHeading } from "@/components/ui/dialog";
import { Modal } from "@/components/ui/modal";
import { useIntl } from "react-intl";
import { api } from "@/lib/api";
import { SelectField } from "@/features/dashboards/components/fields";
import { defineMessages } from "@/features/dashboards/utils/messages";
import { toast } from "@/lib/toast";

const sh = defineMessages({
  open: { id: "dashboards.share.open", defaultMessage: "Share" },
  title: { id: "dashboards.share.title", defaultMessage: "Public links" },
  intro: { id: "dashboards.share.intro", defaultMessage: "Anyone with a link sees this dashboard, read-only, until the link expires." },
  validFor: { id: "dashboards.share.validFor", defaultMessage: "Valid for" },
  day: { id: "dashboards.share.day", defaultMessage: "1 day" },
  week: { id: "dashboards.share.week", defaultMessage: "7 days" },
  month: { id: "dashboards.share.month", defaultMessage: "30 days" },
  year: { id: "dashboards.share.year", defaultMessage: "1 year" },
  create: { id: "dashboards.share.create", defaultMessage: "Create a link" },
  none: { id: "dashboards.share.none", defaultMessage: "This dashboard has no public links yet." },
  until: { id: "dashboards.share.until", defaultMessage: "Valid until {date}" },
  expired: { id: "dashboards.share.expired", defaultMessage: "Expired {date}" },
  copy: { id: "dashboards.share.copy", defaultMessage: "Copy link" },
  copied: { id: "dashboards.share.copied", defaultMessage: "Copied link to clipboard" },
  copyFailed: { id: "dashboards.share.copyFailed", defaultMessage: "Could not copy link {link}" },
  remove: { id: "dashboards.share.remove", defaultMessage: "Delete link" },
  removed: { id: "dashboards.share.removed", defaultMessage: "The link has been deleted" },
  failed: { id: "dashboards.share.failed", defaultMessage: "The public links could not be loaded" },
  close: { id: "dashboards.share.close", defaultMessage: "Close" },
  link: { id: "dashboards.share.link", defaultMessage: "Public link {n}" },
});

const lifetimes: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 };

export interface PublicLink {
  id: number;
  dashboardId: number;
  host: string;
  expiresAt: number;
  active: boolean;
  token: string;
}

// linkOf is the address a public link opens.
export const linkOf = (p: PublicLink): string => `${(p.host || location.origin).replace(/\/+$/, "")}/public/${p.token}`;

function readLinks(raw: unknown, dashboardId: number): PublicLink[] {
  if (!Array.isArray(raw)) return [];
  const out: PublicLink[] = [];
  for (const r of raw as Record<string, unknown>[]) {
    if (typeof r?.id !== "number" || r.dashboardId !== dashboardId || typeof r.token !== "string") continue;
    const expires = typeof r.expiresAt === "string" ? Date.parse(r.expiresAt) : NaN;
    out.push({ id: r.id, dashboardId, host: typeof r.host === "string" ? r.host : "", expiresAt: Number.isNaN(expires) ? 0 : expires, active: r.active === true, token: r.token });
  }
  return out;
}

// copyLink puts link on the clipboard and says whether it worked.
export async function copyLink(link: string, say: (ok: boolean) => void): Promise<void> {
  try {
    await navigator.clipboard.writeText(link);
    say(true);
  } catch {
    say(false);
  }
}

export function ShareDialog({ companyId, dashboardId, onClose }: { companyId: number; dashboardId: number; onClose: () => void }): ReactNode {
  const intl = useIntl();
  const f = intl.formatMessage;
  const [links, setLinks] = useState<PublicLink[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [life, setLife] = useState("week");
  const [busy, setBusy] = useState(false);

  const reload = useCallback(() => {
    api<unknown>("GET", `/api/dashboards/public/company/${companyId}`).then(
      (raw) => {
        setLinks(readLinks(raw, dashboardId));
        setFailed(false);
      },
      () => setFailed(true),
    );
  }, [companyId, dashboardId]);
  useEffect(reload, [reload]);

  async function create(): Promise<void> {
    setBusy(true);
    try {
      const expires = Date.now() + (lifetimes[life] ?? 7) * 24 * 3600_000;
      await api("POST", `/api/dashboards/public/${companyId}/${dashboardId}/${expires}`);
      reload();
    } catch {
      toast("error", f({ id: "dashboards.board.saveFailed", defaultMessage: "The changes could not be saved" }));
    } finally {
      setBusy(false);
    }
  }

  async function remove(p: PublicLink): Promise<void> {
    try {
      await api("DELETE", `/api/dashboards/public/${p.id}`);
      toast("success", f(sh.removed));
      reload();
    } catch {
      toast("error", f({ id: "dashboards.board.saveFailed", defaultMessage: "The changes could not be saved" }));
    }
  }

  return (
    <Modal overlayClassName="fh-dash-overlay" className="fh-dash-modal fh-dash-modal--small" isOpen isDismissable onOpenChange={(open) => !open && onClose()}>
      <Dialog className="fh-dash-dialog">
        {({ close }) => (
          <>
            <DialogHeading className="fh-dash-dialog__title">
              {f(sh.title)}
            </DialogHeading>
            <p className="fh-dash-share__intro">{f(sh.intro)}</p>
            <div className="fh-dash-form__row fh-dash-share__new">
              <SelectField
                label={f(sh.validFor)}
                value={life}
                options={Object.keys(lifetimes).map((k) => ({ id: k, label: f(sh[k as "day"]) }))}
                onChange={setLife}
              />
              <Button className="fh-dash-button" onPress={() => void create()} isDisabled={busy}>
                <span className="mdi mdi-link-plus" aria-hidden="true" /> {f(sh.create)}
              </Button>
            </div>
            {failed ? (
              <p className="fh-dash-form__error" role="alert">
                {f(sh.failed)}
              </p>
            ) : links === null ? null : links.length === 0 ? (
              <p className="fh-dash-share__none">{f(sh.none)}</p>
            ) : (
              <ul className="fh-dash-share__list">
                {links.map((p, i) => {
                  const link = linkOf(p);
                  const date = intl.formatDate(new Date(p.expiresAt), { dateStyle: "medium", timeStyle: "short" });
                  return (
                    <li key={p.id} className={p.active ? undefined : "fh-dash-share--expired"} data-link-id={p.id}>
                      <input className="fh-dash-field__input fh-dash-share__url" readOnly value={link} aria-label={f(sh.link, { n: i + 1 })} onFocus={(e) => e.currentTarget.select()} />
                      <span className="fh-dash-share__when">{f(p.active ? sh.until : sh.expired, { date })}</span>
                      <span className="fh-dash-share__actions">
                        <Button
                          className="fh-dash-button fh-dash-button--quiet fh-dash-button--small"
                          onPress={() => void copyLink(link, (ok) => toast(ok ? "success" : "error", ok ? f(sh.copied) : f(sh.copyFailed, { link })))}
                        >
                          <span className="mdi mdi-content-copy" aria-hidden="true" /> {f(sh.copy)}
                        </Button>
                        <Button className="fh-dash-button fh-dash-button--quiet fh-dash-button--small" onPress={() => void remove(p)} aria-label={`${f(sh.remove)} ${i + 1}`}>
                          <span className="mdi mdi-delete-outline" aria-hidden="true" /> {f(sh.remove)}
                        </Button>
                      </span>
                    </li>
                  );
                })}
              </ul>
            )}
            <DialogActions className="fh-dash-dialog__actions">
              <Button className="fh-dash-button fh-dash-button--quiet" onPress={close}>
                {f(sh.close)}
              </Button>
            </DialogActions>
          </>
        )}
      </Dialog>
    </Modal>
  );
}

export const shareMessages = sh;
