// Forwarding lists the forwarding targets of an application with their
// delivery state and last errors, and lets those who manage the company
// add, change, switch, test and delete them (modules/forwarding's routes).
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { useIntl } from "react-intl";
import { api } from "@/lib/api";
import { serverMessage, translator } from "@/lib/api-error";
import { toast } from "@/lib/toast";
import { dateTimeWithZone, pageTimeZone } from "@/lib/i18n";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions, DialogHeading } from "@/components/ui/dialog";
import { Modal } from "@/components/ui/modal";
import { TargetForm } from "@/features/forwarding/components/target-form";
import { kindLabels, knownErrors, type ForwardingProps, type Target, type TestResult } from "@/features/forwarding/utils/model";

type List = { state: "loading" } | { state: "error" } | { state: "ready"; targets: Target[] };
type Editing = { target: Target | null } | null;

export function Forwarding({ applicationId }: ForwardingProps): ReactNode {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>): string => intl.formatMessage({ id }, values);
  const translate = translator(intl, knownErrors);
  const [list, setList] = useState<List>({ state: "loading" });
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Target | null>(null);
  const [tests, setTests] = useState<Record<number, TestResult | "sending">>({});

  const load = useCallback(async (): Promise<void> => {
    try {
      setList({ state: "ready", targets: await api<Target[]>("GET", `/api/applications/${applicationId}/forwarding`) });
    } catch {
      setList({ state: "error" });
    }
  }, [applicationId]);

  // The state follows the deliveries: read again every few seconds.
  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), 5000);
    return () => clearInterval(timer);
  }, [load]);

  const when = (iso: string): string => new globalThis.Intl.DateTimeFormat(intl.locale, { ...dateTimeWithZone, timeZone: pageTimeZone() }).format(new Date(iso));

  const fail = (err: unknown): void => toast("error", serverMessage(err, translate) ?? t("error.generic"));

  const toggle = async (target: Target, enabled: boolean): Promise<void> => {
    try {
      await api("PUT", `/api/forwarding/${target.id}`, { enabled });
      await load();
    } catch (err) {
      fail(err);
    }
  };

  const test = async (target: Target): Promise<void> => {
    setTests((s) => ({ ...s, [target.id]: "sending" }));
    try {
      const r = await api<TestResult>("POST", `/api/forwarding/${target.id}/test`);
      setTests((s) => ({ ...s, [target.id]: r }));
    } catch (err) {
      setTests((s) => ({ ...s, [target.id]: { ok: false, message: serverMessage(err, translate) ?? t("error.generic") } }));
    }
  };

  const remove = async (target: Target): Promise<void> => {
    try {
      await api("DELETE", `/api/forwarding/${target.id}`);
      await load();
    } catch (err) {
      fail(err);
    }
  };

  if (list.state === "loading") {
    return (
      <p className="muted" role="status">
        {t("page.application.forwarding.title")}…
      </p>
    );
  }
  if (list.state === "error") {
    return (
      <p role="alert" className="error">
        {t("page.application.forwarding.loadFailed")}
      </p>
    );
  }
  return (
    <div data-ready="true">
      {list.targets.length === 0 ? <p className="empty">{t("page.application.forwarding.none")}</p> : null}
      <ul className="fh-fwd-list">
        {list.targets.map((target) => {
          const result = tests[target.id];
          return (
            <li key={target.id} className="fh-fwd-target" data-target={target.name}>
              <div className="fh-fwd-target__head">
                <h3 className="fh-fwd-target__name">{target.name}</h3>
                <span className="muted">{t(kindLabels[target.kind])}</span>
                <label className="fh-fwd-switch">
                  <input
                    type="checkbox"
                    role="switch"
                    checked={target.enabled}
                    aria-label={t("page.application.forwarding.enable", { name: target.name })}
                    onChange={(e) => void toggle(target, e.target.checked)}
                  />
                  <span aria-hidden="true">{target.enabled ? t("page.application.forwarding.enabled") : t("page.application.forwarding.disabled")}</span>
                </label>
                <div className="fh-fwd-target__actions">
                  <Button className="button secondary" onPress={() => void test(target)} isDisabled={result === "sending"}>
                    {result === "sending" ? t("page.application.forwarding.testing") : t("page.application.forwarding.test")}
                  </Button>
                  <Button className="button secondary" onPress={() => setEditing({ target })}>
                    {t("page.application.forwarding.edit")}
                  </Button>
                  <Button className="button danger" onPress={() => setDeleting(target)}>
                    {t("page.application.forwarding.delete")}
                  </Button>
                </div>
              </div>
              <p className="mono fh-fwd-target__url">{target.kind === "mqtt" ? `${target.url} → ${target.topic}` : target.url}</p>
              {result && result !== "sending" ? (
                <p className="fh-fwd-test" role="status" data-ok={String(result.ok)}>
                  {result.ok
                    ? t("page.application.forwarding.testOk")
                    : t("page.application.forwarding.testFailed", { message: result.message ?? "" })}
                </p>
              ) : null}
              {target.disabledReason === "failures" && !target.enabled ? (
                <p className="error">{t("page.application.forwarding.disabledFailures", { failures: target.failures })}</p>
              ) : null}
              <dl className="fh-fwd-state">
                <div>
                  <dt>{t("page.application.forwarding.delivered")}</dt>
                  <dd data-field="delivered">{intl.formatNumber(target.delivered)}</dd>
                </div>
                <div>
                  <dt>{t("page.application.forwarding.queued")}</dt>
                  <dd data-field="queued">{intl.formatNumber(target.queued)}</dd>
                </div>
                <div>
                  <dt>{t("page.application.forwarding.lastSuccess")}</dt>
                  <dd data-field="lastSuccess">{target.lastSuccess ? when(target.lastSuccess) : t("page.application.forwarding.never")}</dd>
                </div>
              </dl>
              {target.lastErrors.length > 0 ? (
                <>
                  <h4>{t("page.application.forwarding.lastErrors")}</h4>
                  <ul className="fh-fwd-errors">
                    {target.lastErrors.map((e) => (
                      <li key={e.time + e.message}>
                        <time dateTime={e.time}>{when(e.time)}</time>: {e.message}
                      </li>
                    ))}
                  </ul>
                </>
              ) : null}
            </li>
          );
        })}
      </ul>
      <Button className="button" onPress={() => setEditing({ target: null })}>
        {t("page.application.forwarding.add")}
      </Button>
      {editing ? (
        <TargetForm
          applicationId={applicationId}
          target={editing.target}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void load();
          }}
        />
      ) : null}
      {deleting ? (
        <Modal overlayClassName="fh-fwd-overlay" className="fh-fwd-modal" isOpen isDismissable onOpenChange={(open) => !open && setDeleting(null)}>
          <Dialog className="fh-fwd-dialog" role="alertdialog">
            {({ close }) => (
              <>
                <DialogHeading className="fh-fwd-dialog__title">{t("page.application.forwarding.deleteTitle", { name: deleting.name })}</DialogHeading>
                <p>{t("page.application.forwarding.deleteBody", { queued: deleting.queued })}</p>
                <DialogActions className="fh-fwd-dialog__actions">
                  <Button className="button secondary" onPress={close} autoFocus>
                    {t("page.application.forwarding.cancel")}
                  </Button>
                  <Button
                    className="button danger"
                    onPress={() => {
                      const target = deleting;
                      close();
                      void remove(target);
                    }}
                  >
                    {t("page.application.forwarding.delete")}
                  </Button>
                </DialogActions>
              </>
            )}
          </Dialog>
        </Modal>
      ) : null}
    </div>
  );
}
