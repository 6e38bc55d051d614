// FunctionButtonWidget draws a function button (type 12) by its kind: a
// SCRIPT button runs its script after a confirmation and shows what it
// returned; a VALUEINPUT button writes the value typed into it to its
// node's key; a DASHBOARD button opens another dashboard; a DOWNLINK button
// queues its downlink on its node after a confirmation. The kinds that act
// on the company's scripts and nodes are disabled, with the reason, for
// those whose role may not; a public page draws none of them (the server
// leaves them out, and this draws a note if one came anyway).
import { useContext, useId, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions, DialogHeading } from "@/components/ui/dialog";
import { Modal } from "@/components/ui/modal";
import { useIntl } from "react-intl";
import { serverMessage, translator } from "@/lib/api-error";
import { SelectField, TextInput } from "@/features/dashboards/components/fields";
import { BoardContext, useLatest, useSource } from "@/features/dashboards/hooks/use-module-data";
import { dashboardErrorIds, queueDownlink, tagIdOf, writeValue } from "@/features/dashboards/api/source";
import { defaultIcons, downlinkOf, iconPattern, inputTypeOf, Kind, kindOf, needsRights, typedValue, type KindNumber } from "@/features/dashboards/utils/function-button";
import { fb } from "@/features/dashboards/utils/function-messages";
import { msg } from "@/features/dashboards/utils/messages";
import type { WidgetProps } from "@/features/dashboards/components/widgets/states";
import type { DashModule } from "@/features/dashboards/utils/dashboard-model";

type Outcome = { state: "idle" } | { state: "busy" } | { state: "done"; text: string } | { state: "failed"; text: string };

export function FunctionButtonWidget({ module: m }: WidgetProps): ReactNode {
  const intl = useIntl();
  const source = useSource();
  const board = useContext(BoardContext);
  const kind = kindOf(m);
  if (source.isPublic) return <p className="fh-dash-fn__note">{intl.formatMessage(fb.publicNote)}</p>;
  if (kind === null) return <p className="fh-dash-fn__note">{intl.formatMessage(msg.wNotSet)}</p>;
  const allowed = !needsRights(kind) || board.canRun;
  if (kind === Kind.dashboard) return <DashboardLink module={m} />;
  if (kind === Kind.valueInput) return <ValueInput module={m} allowed={allowed} />;
  return <ActionButton module={m} kind={kind} allowed={allowed} />;
}

function Icon({ module: m, kind }: { module: DashModule; kind: KindNumber }): ReactNode {
  const icon = m.attributes.icon && iconPattern.test(m.attributes.icon) ? m.attributes.icon : defaultIcons[kind];
  return <span className={`mdi ${icon}`} aria-hidden="true" />;
}

// label is the button's text: the module's content, else the kind's verb.
function useLabel(m: DashModule, kind: KindNumber): string {
  const intl = useIntl();
  const verbs = { [Kind.script]: fb.runScript, [Kind.valueInput]: fb.setValue, [Kind.dashboard]: fb.openDashboard, [Kind.downlink]: fb.sendDownlink };
  return m.content.trim() || intl.formatMessage(verbs[kind]);
}

function DashboardLink({ module: m }: { module: DashModule }): ReactNode {
  const label = useLabel(m, Kind.dashboard);
  return (
    <div className="fh-dash-fn">
      <a className="fh-dash-button fh-dash-fn__button" href={`/dashboard/${encodeURIComponent(m.attributes.dashboard_id ?? "")}`}>
        <Icon module={m} kind={Kind.dashboard} /> {label}
      </a>
    </div>
  );
}

// Denied is the reason a button is disabled for this role.
function Denied({ id, kind }: { id: string; kind: KindNumber }): ReactNode {
  const intl = useIntl();
  const reason = kind === Kind.script ? fb.deniedScript : kind === Kind.valueInput ? fb.deniedValue : fb.deniedDownlink;
  return (
    <p id={id} className="fh-dash-fn__note">
      {intl.formatMessage(reason)}
    </p>
  );
}

// Result says what the press did. Both regions stay in the page, so that a
// screen reader announces each new text in them.
function Result({ outcome }: { outcome: Outcome }): ReactNode {
  const failed = outcome.state === "failed";
  const text = outcome.state === "done" || failed ? outcome.text : "";
  return (
    <div className="fh-dash-fn__results">
      <p className="fh-dash-fn__result" role="status">
        {failed ? "" : text}
      </p>
      <p className="fh-dash-fn__result fh-dash-fn__result--error" role="alert">
        {failed ? text : ""}
      </p>
    </div>
  );
}

// useFailure turns a refused call into its message in the page's language.
function useFailure(): (err: unknown) => string {
  const intl = useIntl();
  return (err) => serverMessage(err, translator(intl, dashboardErrorIds), () => true) ?? intl.formatMessage(fb.failed);
}

// ActionButton is a SCRIPT or DOWNLINK button: confirm, then act.
function ActionButton({ module: m, kind, allowed }: { module: DashModule; kind: KindNumber; allowed: boolean }): ReactNode {
  const intl = useIntl();
  const source = useSource();
  const board = useContext(BoardContext);
  const failure = useFailure();
  const deniedId = useId();
  const label = useLabel(m, kind);
  const [asking, setAsking] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>({ state: "idle" });
  const title = m.title || intl.formatMessage(msg.untitled);

  async function act(): Promise<void> {
    setOutcome({ state: "busy" });
    try {
      if (kind === Kind.script) {
        const run = await source.press(m);
        setOutcome(
          run.error
            ? { state: "failed", text: intl.formatMessage(fb.scriptFailed, { error: run.error }) }
            : { state: "done", text: intl.formatMessage(fb.scriptResult, { result: run.result || "—" }) },
        );
        return;
      }
      const tagId = await tagIdOf(board.companyId, m.tag);
      if (tagId === null) throw new Error("no node");
      await queueDownlink(tagId, downlinkOf(m));
      setOutcome({ state: "done", text: intl.formatMessage(fb.downlinkQueued) });
    } catch (err) {
      setOutcome({ state: "failed", text: failure(err) });
    }
  }

  return (
    <div className="fh-dash-fn">
      <Button
        className="fh-dash-button fh-dash-fn__button"
        isDisabled={!allowed || outcome.state === "busy"}
        aria-describedby={allowed ? undefined : deniedId}
        onPress={() => setAsking(true)}
      >
        <Icon module={m} kind={kind} /> {outcome.state === "busy" ? intl.formatMessage(fb.working) : label}
      </Button>
      {allowed ? <Result outcome={outcome} /> : <Denied id={deniedId} kind={kind} />}
      {asking ? (
        <Modal overlayClassName="fh-dash-overlay" className="fh-dash-modal fh-dash-modal--small" isOpen isDismissable onOpenChange={(open) => !open && setAsking(false)}>
          <Dialog className="fh-dash-dialog" role="alertdialog">
            {({ close }) => (
              <>
                <DialogHeading className="fh-dash-dialog__title">
                  {intl.formatMessage(kind === Kind.script ? fb.confirmScriptTitle : fb.confirmDownlinkTitle)}
                </DialogHeading>
                <p>{intl.formatMessage(kind === Kind.script ? fb.confirmScript : fb.confirmDownlink, { title })}</p>
                <DialogActions className="fh-dash-dialog__actions">
                  <Button className="fh-dash-button fh-dash-button--quiet" onPress={close} autoFocus>
                    {intl.formatMessage(msg.cancel)}
                  </Button>
                  <Button
                    className="fh-dash-button"
                    onPress={() => {
                      close();
                      void act();
                    }}
                  >
                    {label}
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

// ValueInput is a VALUEINPUT button: the key's latest value, a field of the
// button's value type and the button that writes it.
function ValueInput({ module: m, allowed }: { module: DashModule; allowed: boolean }): ReactNode {
  const intl = useIntl();
  const board = useContext(BoardContext);
  const failure = useFailure();
  const deniedId = useId();
  const label = useLabel(m, Kind.valueInput);
  const type = inputTypeOf(m);
  const key = (m.attributes.tagkey ?? "").trim();
  const latest = useLatest(m);
  const [text, setText] = useState(type === "bool" ? "true" : "");
  const [invalid, setInvalid] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>({ state: "idle" });
  const now = latest.state === "done" ? latest.data.find((l) => l.key === key) : undefined;
  const shown = now ? (now.text ?? (now.value === null ? null : String(now.value))) : null;
  const lo = m.attributes.min_value ?? "";
  const hi = m.attributes.max_value ?? "";
  const fieldLabel = intl.formatMessage(fb.newValue, { key: now?.label || key });

  async function submit(): Promise<void> {
    const value = typedValue(m, text);
    setInvalid(value === null);
    if (value === null) return;
    setOutcome({ state: "busy" });
    try {
      const tagId = await tagIdOf(board.companyId, m.tag);
      if (tagId === null) throw new Error("no node");
      await writeValue(tagId, key, value);
      setOutcome({ state: "done", text: intl.formatMessage(fb.valueSaved, { value: String(value) }) });
    } catch (err) {
      setOutcome({ state: "failed", text: failure(err) });
    }
  }

  const badValue =
    type === "number" ? (lo !== "" || hi !== "" ? intl.formatMessage(fb.badRange, { min: lo || "−∞", max: hi || "∞" }) : intl.formatMessage(fb.badNumber)) : intl.formatMessage(fb.badText);
  return (
    <form
      className="fh-dash-fn fh-dash-fn--input"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (allowed) void submit();
      }}
    >
      <p className="fh-dash-fn__now">{shown === null ? intl.formatMessage(fb.noValue) : intl.formatMessage(fb.currentValue, { value: `${shown}${now?.unit ? ` ${now.unit}` : ""}` })}</p>
      {allowed ? (
        type === "bool" ? (
          <SelectField
            label={fieldLabel}
            value={text}
            options={[
              { id: "true", label: intl.formatMessage(fb.on) },
              { id: "false", label: intl.formatMessage(fb.off) },
            ]}
            onChange={setText}
          />
        ) : (
          <TextInput label={fieldLabel} value={text} onChange={setText} inputMode={type === "number" ? "decimal" : "text"} error={invalid ? badValue : null} />
        )
      ) : null}
      <Button className="fh-dash-button fh-dash-fn__button" type="submit" isDisabled={!allowed || outcome.state === "busy"} aria-describedby={allowed ? undefined : deniedId}>
        <Icon module={m} kind={Kind.valueInput} /> {outcome.state === "busy" ? intl.formatMessage(fb.working) : label}
      </Button>
      {allowed ? <Result outcome={outcome} /> : <Denied id={deniedId} kind={Kind.valueInput} />}
    </form>
  );
}
