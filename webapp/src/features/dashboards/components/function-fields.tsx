// FunctionFields are the settings of a function button (type 12) in the
// module settings dialog: what it does, then what that kind needs (its
// script; its node, key and value type; its dashboard; its node and
// downlink), and its text and icon.
import { useEffect, useState, type ReactNode } from "react";
import { useIntl } from "react-intl";
import { serverMessage, translator } from "@/lib/api-error";
import { ComboField, SelectField, SwitchField, TextInput, type Option } from "@/features/dashboards/components/fields";
import { dashboardErrorIds, loadDashboards, loadScripts, type DashboardOption, type NodeOption, type ScriptOption } from "@/features/dashboards/api/source";
import { inputTypeOf, inputTypes, Kind, kindOf, kinds, payloadTypes, problems, type KindNumber } from "@/features/dashboards/utils/function-button";
import { fb } from "@/features/dashboards/utils/function-messages";
import { defineMessages } from "@/features/dashboards/utils/messages";
import type { DashModule } from "@/features/dashboards/utils/dashboard-model";

type Format = ReturnType<typeof useIntl>["formatMessage"];
type Errors = Record<string, string>;

// The editor's own words for what other modules also choose.
const shared = defineMessages({
  node: { id: "dashboards.edit.node", defaultMessage: "Node" },
  key: { id: "dashboards.edit.key", defaultMessage: "Key" },
  noNodes: { id: "dashboards.edit.noNodes", defaultMessage: "No node matches" },
  min: { id: "dashboards.edit.min", defaultMessage: "Minimum" },
  max: { id: "dashboards.edit.max", defaultMessage: "Maximum" },
});

const kindNames = { [Kind.script]: fb.kindScript, [Kind.valueInput]: fb.kindValue, [Kind.dashboard]: fb.kindDashboard, [Kind.downlink]: fb.kindDownlink };
const inputNames = { number: fb.inputNumber, text: fb.inputText, bool: fb.inputBool };

// functionErrors are the messages of what a function button's settings
// lack, by field.
export function functionErrors(d: DashModule, f: Format, required: string): Errors {
  const words = { required, port: f(fb.badPort), hex: f(fb.badHex), json: f(fb.badJson), key: f(fb.badKey), icon: f(fb.iconHint) };
  const out: Errors = {};
  for (const [field, why] of Object.entries(problems(d))) out[field] = words[why];
  return out;
}

// useOptions loads a list for a select once, keeping a refusal's message.
function useOptions<T>(load: () => Promise<T[]>, deps: readonly unknown[]): { list: T[] | null; failed: string } {
  const intl = useIntl();
  const [list, setList] = useState<T[] | null>(null);
  const [failed, setFailed] = useState("");
  useEffect(() => {
    let live = true;
    load().then(
      (l) => live && setList(l),
      (err: unknown) => live && setFailed(serverMessage(err, translator(intl, dashboardErrorIds), () => true) ?? ""),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return { list, failed };
}

// withChosen keeps a chosen id that the list no longer has choosable.
function withChosen(options: Option[], chosen: string): Option[] {
  return chosen && !options.some((o) => o.id === chosen) ? [...options, { id: chosen, label: `#${chosen}` }] : options;
}

export interface FunctionFieldsProps {
  draft: DashModule;
  setDraft: (d: DashModule) => void;
  errors: Errors;
  nodes: NodeOption[] | null;
  keys: Option[];
  companyId: number;
}

export function FunctionFields(props: FunctionFieldsProps): ReactNode {
  const { draft: d, setDraft, errors, nodes, keys, companyId } = props;
  const intl = useIntl();
  const f = intl.formatMessage;
  const a = d.attributes;
  const kind = kindOf(d);
  const setAttrs = (patch: Record<string, string>): void => {
    const attributes = { ...d.attributes };
    for (const [k, v] of Object.entries(patch)) {
      if (v === "") delete attributes[k];
      else attributes[k] = v;
    }
    setDraft({ ...d, attributes });
  };
  const nodeOptions = (nodes ?? []).map((n) => ({ id: n.deveui, label: n.name ? `${n.name} (${n.deveui})` : n.deveui }));
  const nodeField = (
    <ComboField label={f(shared.node)} value={d.tag} options={nodeOptions} onChange={(v) => setDraft({ ...d, tag: v.toUpperCase() })} error={errors.tag} emptyText={f(shared.noNodes)} />
  );
  // A kind starts with the value type or payload type its select shows.
  const chooseKind = (v: string): void => {
    const k = Number(v) as KindNumber;
    setAttrs({
      function_type: v,
      ...(k === Kind.valueInput && !a.input_type ? { input_type: "number" } : {}),
      ...(k === Kind.downlink && !a.downlink_payload_type ? { downlink_payload_type: "hex" } : {}),
    });
  };
  return (
    <fieldset className="fh-dash-fieldset">
      <legend>{f(fb.kind)}</legend>
      <SelectField
        label={f(fb.kind)}
        value={kind === null ? "" : String(kind)}
        options={kinds.map((k) => ({ id: String(k), label: f(kindNames[k]) }))}
        onChange={chooseKind}
        error={errors.function_type}
      />
      {kind === Kind.script ? <ScriptField value={a.scriptid ?? ""} onChange={(v) => setAttrs({ scriptid: v })} error={errors.scriptid} companyId={companyId} /> : null}
      {kind === Kind.valueInput || kind === Kind.downlink ? nodeField : null}
      {kind === Kind.valueInput ? (
        <>
          <ComboField label={f(shared.key)} value={a.tagkey ?? ""} options={keys} onChange={(v) => setAttrs({ tagkey: v.trim() })} error={errors.tagkey} allowsCustomValue emptyText={f(shared.noNodes)} />
          <SelectField label={f(fb.inputType)} value={inputTypeOf(d)} options={inputTypes.map((t) => ({ id: t, label: f(inputNames[t]) }))}
            onChange={(v) => setAttrs({ input_type: v })} hint={f(fb.inputHint)} />
          {inputTypeOf(d) === "number" ? (
            <div className="fh-dash-form__row">
              <TextInput label={f(shared.min)} value={a.min_value ?? ""} onChange={(v) => setAttrs({ min_value: v.trim() })} inputMode="decimal" error={errors.min_value} />
              <TextInput label={f(shared.max)} value={a.max_value ?? ""} onChange={(v) => setAttrs({ max_value: v.trim() })} inputMode="decimal" error={errors.max_value} />
            </div>
          ) : null}
        </>
      ) : null}
      {kind === Kind.dashboard ? <DashboardField value={a.dashboard_id ?? ""} onChange={(v) => setAttrs({ dashboard_id: v })} error={errors.dashboard_id} companyId={companyId} current={d.dashboardId} /> : null}
      {kind === Kind.downlink ? <DownlinkFields draft={d} setAttrs={setAttrs} errors={errors} /> : null}
      <div className="fh-dash-form__row">
        <TextInput label={f(fb.label)} value={d.content} onChange={(v) => setDraft({ ...d, content: v })} hint={f(fb.labelHint)} />
        <TextInput label={f(fb.icon)} value={a.icon ?? ""} onChange={(v) => setAttrs({ icon: v.trim() })} hint={f(fb.iconHint)} error={errors.icon} placeholder="mdi-play" />
      </div>
    </fieldset>
  );
}

function ScriptField({ value, onChange, error, companyId }: { value: string; onChange: (v: string) => void; error?: string; companyId: number }): ReactNode {
  const intl = useIntl();
  const f = intl.formatMessage;
  const { list, failed } = useOptions<ScriptOption>(() => loadScripts(companyId), [companyId]);
  const options = withChosen((list ?? []).map((s) => ({ id: String(s.id), label: s.name || `#${s.id}` })), value);
  const why = failed || (list && list.length === 0 ? f(fb.scriptsNone) : "");
  return <SelectField label={f(fb.script)} value={value} options={options} onChange={onChange} hint={why || f(fb.scriptHint)} error={error ?? (failed ? f(fb.scriptsFailed) : null)} />;
}

function DashboardField(props: { value: string; onChange: (v: string) => void; error?: string; companyId: number; current: number }): ReactNode {
  const { value, onChange, error, companyId, current } = props;
  const intl = useIntl();
  const { list } = useOptions<DashboardOption>(() => loadDashboards(companyId), [companyId]);
  const options = withChosen((list ?? []).filter((x) => x.id !== current).map((x) => ({ id: String(x.id), label: x.name })), value);
  return <SelectField label={intl.formatMessage(fb.dashboard)} value={value} options={options} onChange={onChange} error={error} />;
}

function DownlinkFields({ draft: d, setAttrs, errors }: { draft: DashModule; setAttrs: (p: Record<string, string>) => void; errors: Errors }): ReactNode {
  const intl = useIntl();
  const f = intl.formatMessage;
  const a = d.attributes;
  return (
    <>
      <div className="fh-dash-form__row">
        <TextInput label={f(fb.port)} value={a.downlink_port ?? ""} onChange={(v) => setAttrs({ downlink_port: v.trim() })} inputMode="numeric" error={errors.downlink_port} />
        <SelectField label={f(fb.payloadType)} value={a.downlink_payload_type ?? "hex"} options={payloadTypes.map((t) => ({ id: t, label: t === "hex" ? "Hex" : "JSON" }))}
          onChange={(v) => setAttrs({ downlink_payload_type: v })} />
      </div>
      <TextInput label={f(fb.payload)} value={a.downlink_payload ?? ""} onChange={(v) => setAttrs({ downlink_payload: v })} hint={f(fb.payloadHint)} error={errors.downlink_payload}
        multiline={a.downlink_payload_type === "json"} />
      <SwitchField label={f(fb.confirmed)} value={a.downlink_confirmed === "true"} onChange={(on) => setAttrs({ downlink_confirmed: on ? "true" : "" })} />
    </>
  );
}
