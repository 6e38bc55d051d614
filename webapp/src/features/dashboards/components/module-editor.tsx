// ModuleEditor is the module settings dialog: when adding, first the type
// picker, then the fields that type
// uses: its node and keys, texts, limits, chart options, colours and
// sizes. Saving creates or updates the module, then uploads a chosen
// picture (image and image map modules).
import { useEffect, useMemo, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Checkbox, CheckboxGroup } from "@/components/ui/checkbox-group";
import { Dialog, DialogActions, DialogHeading } from "@/components/ui/dialog";
import { Modal } from "@/components/ui/modal";
import { Label, Text } from "@/components/ui/field";
import { FileTrigger } from "@/components/ui/file-trigger";
import { Radio, RadioGroup } from "@/components/ui/radio-group";
import { useIntl } from "react-intl";
import { serverMessage, translator } from "@/lib/api-error";
import { parseValueMatch, safeHttpUrl } from "@/features/dashboards/utils/format";
import { ColorInput, ComboField, SelectField, SwitchField, TextInput, type Option } from "@/features/dashboards/components/fields";
import { defineMessages, msg, sizeNames, typeHints, typeNames } from "@/features/dashboards/utils/messages";
import {
  alarmTypes,
  attr,
  chartKinds,
  defaultSettings,
  editableTypes,
  keysOf,
  mapTypes,
  parsePositions,
  parseRefs,
  resolutions,
  sizes,
  T,
  type DashModule,
  type Position,
  type SeriesRef,
  type Size,
} from "@/features/dashboards/utils/dashboard-model";
import { dashboardErrorIds, loadAlarms, loadKeys, loadNodes, type AlarmOption, type KeyOption, type NodeOption, type Source } from "@/features/dashboards/api/source";
import { withPositions } from "@/features/dashboards/components/widgets/image-map";
import { FunctionFields, functionErrors } from "@/features/dashboards/components/function-fields";

const ed = defineMessages({
  addTitle: { id: "dashboards.edit.addTitle", defaultMessage: "Add a module" },
  editTitle: { id: "dashboards.edit.editTitle", defaultMessage: "Settings of {type}" },
  chooseType: { id: "dashboards.edit.chooseType", defaultMessage: "Module type" },
  next: { id: "dashboards.edit.next", defaultMessage: "Next" },
  back: { id: "dashboards.edit.back", defaultMessage: "Back" },
  save: { id: "dashboards.edit.save", defaultMessage: "Save" },
  saving: { id: "dashboards.edit.saving", defaultMessage: "Saving…" },
  general: { id: "dashboards.edit.general", defaultMessage: "General" },
  data: { id: "dashboards.edit.data", defaultMessage: "Data" },
  display: { id: "dashboards.edit.display", defaultMessage: "Display" },
  colours: { id: "dashboards.edit.colours", defaultMessage: "Colours" },
  title: { id: "dashboards.edit.title", defaultMessage: "Title" },
  node: { id: "dashboards.edit.node", defaultMessage: "Node" },
  key: { id: "dashboards.edit.key", defaultMessage: "Key" },
  keys: { id: "dashboards.edit.keys", defaultMessage: "Keys" },
  noNodes: { id: "dashboards.edit.noNodes", defaultMessage: "No node matches" },
  nodesFailed: { id: "dashboards.edit.nodesFailed", defaultMessage: "The nodes could not be loaded" },
  chooseNodeFirst: { id: "dashboards.edit.chooseNodeFirst", defaultMessage: "Choose a node first" },
  chartType: { id: "dashboards.edit.chartType", defaultMessage: "Chart type" },
  min: { id: "dashboards.edit.min", defaultMessage: "Minimum" },
  max: { id: "dashboards.edit.max", defaultMessage: "Maximum" },
  minMaxHint: { id: "dashboards.edit.minMaxHint", defaultMessage: "Drawn as dashed lines; leave empty for none" },
  gaugeHint: { id: "dashboards.edit.gaugeHint", defaultMessage: "The ends of the dial; 0 and 100 when empty" },
  syncChart: { id: "dashboards.edit.syncChart", defaultMessage: "Follow the pointer of the other synced charts" },
  syncY: { id: "dashboards.edit.syncY", defaultMessage: "Share the value scale with the other synced charts" },
  zoomSlider: { id: "dashboards.edit.zoomSlider", defaultMessage: "Zoom slider" },
  axisLabel: { id: "dashboards.edit.axisLabel", defaultMessage: "Axis label" },
  decimals: { id: "dashboards.edit.decimals", defaultMessage: "Decimals" },
  prefix: { id: "dashboards.edit.prefix", defaultMessage: "Prefix" },
  sufix: { id: "dashboards.edit.sufix", defaultMessage: "Suffix" },
  sufixHint: { id: "dashboards.edit.sufixHint", defaultMessage: "The key's unit when empty" },
  valueMatch: { id: "dashboards.edit.valueMatch", defaultMessage: "Colours by value" },
  valueMatchHint: {
    id: "dashboards.edit.valueMatchHint",
    defaultMessage: "Rules separated by ;, first match wins: 0:#4caf50:Closed;1:#f44336:Open or ..18:#2196f3;18..25:#4caf50;>25:#f44336",
  },
  hideTrend: { id: "dashboards.edit.hideTrend", defaultMessage: "Hide the trend icon" },
  horizontalTitle: { id: "dashboards.edit.horizontalTitle", defaultMessage: "Value beside the node name" },
  hideNodeInfo: { id: "dashboards.edit.hideNodeInfo", defaultMessage: "Hide the node's name" },
  alarm: { id: "dashboards.edit.alarm", defaultMessage: "Alarm" },
  alarmNone: { id: "dashboards.edit.alarmNone", defaultMessage: "No alarm" },
  alarmHint: { id: "dashboards.edit.alarmHint", defaultMessage: "The module shows whether this alarm is triggered" },
  sparkline: { id: "dashboards.edit.sparkline", defaultMessage: "Sparkline of the range below the value" },
  fontSize: { id: "dashboards.edit.fontSize", defaultMessage: "Font size (px)" },
  fontType: { id: "dashboards.edit.fontType", defaultMessage: "Font" },
  fontWeight: { id: "dashboards.edit.fontWeight", defaultMessage: "Weight" },
  fontDefault: { id: "dashboards.edit.fontDefault", defaultMessage: "As the theme" },
  fontSerif: { id: "dashboards.edit.fontSerif", defaultMessage: "Serif" },
  fontSans: { id: "dashboards.edit.fontSans", defaultMessage: "Sans-serif" },
  fontMono: { id: "dashboards.edit.fontMono", defaultMessage: "Monospace" },
  fontItalic: { id: "dashboards.edit.fontItalic", defaultMessage: "Italic" },
  fontBold: { id: "dashboards.edit.fontBold", defaultMessage: "Bold" },
  fontNormal: { id: "dashboards.edit.fontNormal", defaultMessage: "Normal" },
  content: { id: "dashboards.edit.content", defaultMessage: "Text" },
  contentHint: { id: "dashboards.edit.contentHint", defaultMessage: "Plain text; a blank line starts a new paragraph" },
  url: { id: "dashboards.edit.url", defaultMessage: "Address" },
  maxHeight: { id: "dashboards.edit.maxHeight", defaultMessage: "Height (px)" },
  image: { id: "dashboards.edit.image", defaultMessage: "Picture" },
  chooseImage: { id: "dashboards.edit.chooseImage", defaultMessage: "Choose a picture…" },
  imageChosen: { id: "dashboards.edit.imageChosen", defaultMessage: "{name} will be uploaded when you save" },
  removeImage: { id: "dashboards.edit.removeImage", defaultMessage: "Remove the picture" },
  imageHint: { id: "dashboards.edit.imageHint", defaultMessage: "PNG, JPEG, GIF or WebP" },
  series: { id: "dashboards.edit.series", defaultMessage: "Series" },
  addSeries: { id: "dashboards.edit.addSeries", defaultMessage: "Add a series" },
  removeSeries: { id: "dashboards.edit.removeSeries", defaultMessage: "Remove series {n}" },
  sensors: { id: "dashboards.edit.sensors", defaultMessage: "Sensors on the plan" },
  addSensor: { id: "dashboards.edit.addSensor", defaultMessage: "Add a sensor" },
  removeSensor: { id: "dashboards.edit.removeSensor", defaultMessage: "Remove sensor {n}" },
  sensorsHint: { id: "dashboards.edit.sensorsHint", defaultMessage: "New sensors start in the middle; drag them into place on the dashboard in edit mode" },
  mapNodes: { id: "dashboards.edit.mapNodes", defaultMessage: "Nodes on the map" },
  mapNodesHint: { id: "dashboards.edit.mapNodesHint", defaultMessage: "None chosen shows every node of the company" },
  markers: { id: "dashboards.edit.markers", defaultMessage: "Markers" },
  markerPins: { id: "dashboards.edit.markerPins", defaultMessage: "Node pins" },
  markerLabels: { id: "dashboards.edit.markerLabels", defaultMessage: "Sensor text labels with values" },
  pinIcon: { id: "dashboards.edit.pinIcon", defaultMessage: "Pin icon" },
  pinIconHint: { id: "dashboards.edit.pinIconHint", defaultMessage: "A Material Design icon name, e.g. mdi-thermometer" },
  labelKey: { id: "dashboards.edit.labelKey", defaultMessage: "Key shown on the labels" },
  mapType: { id: "dashboards.edit.mapType", defaultMessage: "Map type" },
  mapZoom: { id: "dashboards.edit.mapZoom", defaultMessage: "Zoom level" },
  mapViewHint: { id: "dashboards.edit.mapViewHint", defaultMessage: "In edit mode, panning and zooming the map stores its view" },
  resolution: { id: "dashboards.edit.resolution", defaultMessage: "Resolution" },
  tiltX: { id: "dashboards.edit.tiltX", defaultMessage: "Key of the X tilt" },
  tiltY: { id: "dashboards.edit.tiltY", defaultMessage: "Key of the Y tilt" },
  tiltXMax: { id: "dashboards.edit.tiltXMax", defaultMessage: "Largest allowed X tilt (°)" },
  tiltYMax: { id: "dashboards.edit.tiltYMax", defaultMessage: "Largest allowed Y tilt (°)" },
  minValue: { id: "dashboards.edit.minValue", defaultMessage: "Value when empty" },
  maxValue: { id: "dashboards.edit.maxValue", defaultMessage: "Value when full" },
  weatherLat: { id: "dashboards.edit.weatherLat", defaultMessage: "Latitude" },
  weatherLon: { id: "dashboards.edit.weatherLon", defaultMessage: "Longitude" },
  weatherHint: { id: "dashboards.edit.weatherHint", defaultMessage: "Leave both empty to use the node's position" },
  weatherNodeHint: { id: "dashboards.edit.weatherNodeHint", defaultMessage: "The forecast is for this node's position" },
  cardColor: { id: "dashboards.edit.cardColor", defaultMessage: "Card colour" },
  titleColor: { id: "dashboards.edit.titleColor", defaultMessage: "Title colour" },
  valueColor: { id: "dashboards.edit.valueColor", defaultMessage: "Value colour" },
  colorHint: { id: "dashboards.edit.colorHint", defaultMessage: "#rrggbb; empty follows the theme" },
  pickColor: { id: "dashboards.edit.pickColor", defaultMessage: "Pick {name}" },
  required: { id: "dashboards.edit.required", defaultMessage: "This field must be filled in" },
  tooLong: { id: "dashboards.edit.tooLong", defaultMessage: "Max characters is 255" },
  badNumber: { id: "dashboards.edit.badNumber", defaultMessage: "Enter a number" },
  badDecimals: { id: "dashboards.edit.badDecimals", defaultMessage: "Enter a whole number from 0 to 10" },
  badColor: { id: "dashboards.edit.badColor", defaultMessage: "Enter a colour as #rrggbb" },
  badUrl: { id: "dashboards.edit.badUrl", defaultMessage: "Enter an address that starts with http:// or https://" },
  badRange: { id: "dashboards.edit.badRange", defaultMessage: "The minimum must be less than the maximum" },
  badRules: { id: "dashboards.edit.badRules", defaultMessage: "A rule could not be read: {rule}" },
  badIcon: { id: "dashboards.edit.badIcon", defaultMessage: "Icon names look like mdi-map-marker" },
  fixErrors: { id: "dashboards.edit.fixErrors", defaultMessage: "Check the marked fields" },
});

const kindNames = defineMessages({
  line: { id: "dashboards.chartKind.line", defaultMessage: "Line" },
  area: { id: "dashboards.chartKind.area", defaultMessage: "Area" },
  bar: { id: "dashboards.chartKind.bar", defaultMessage: "Bar" },
  scatter: { id: "dashboards.chartKind.scatter", defaultMessage: "Scatter" },
  vertical: { id: "dashboards.chartKind.vertical", defaultMessage: "Vertical (time downwards)" },
});

const resolutionNames = defineMessages({
  auto: { id: "dashboards.resolution.auto", defaultMessage: "Automatic (from the range)" },
  week: { id: "dashboards.resolution.week", defaultMessage: "Week" },
  day: { id: "dashboards.resolution.day", defaultMessage: "Day" },
  hour: { id: "dashboards.resolution.hour", defaultMessage: "Hour" },
  "5hours": { id: "dashboards.resolution.5hours", defaultMessage: "5 hours" },
});

const mapTypeNames = defineMessages({
  roadmap: { id: "dashboards.mapType.roadmap", defaultMessage: "Road map" },
  satellite: { id: "dashboards.mapType.satellite", defaultMessage: "Satellite" },
  terrain: { id: "dashboards.mapType.terrain", defaultMessage: "Terrain" },
});

// Types that read one node, and those among them that read one key.
const nodeTypes: ReadonlySet<number> = new Set([T.chart, T.gauge, T.latest, T.table, T.nodeInfo, T.trend, T.tilt, T.fillLevel, T.weather]);
const oneKeyTypes: ReadonlySet<number> = new Set([T.gauge, T.latest, T.trend, T.fillLevel]);
const manyKeyTypes: ReadonlySet<number> = new Set([T.chart, T.table]);
const chartTypes: ReadonlySet<number> = new Set([T.chart, T.multiChart]);

// defaultSizes are the sizes a new module starts with.
function defaultSizes(type: number): { sizeSmall: Size; sizeMid: Size } {
  if ([T.gauge, T.latest, T.fillLevel, T.tilt, T.nodeInfo, T.functionButton].includes(type as 1)) return { sizeSmall: "sm", sizeMid: "xs" };
  if ([T.map, T.table, T.nodeOverview, T.multiChart, T.imageMap].includes(type as 4)) return { sizeSmall: "lg", sizeMid: "md" };
  return { sizeSmall: "md", sizeMid: "md" };
}

export function newModule(type: number, index: number, dashboardId: number, title: string): DashModule {
  return {
    dashboardModuleId: 0,
    dashboardId,
    title,
    type,
    index,
    tag: "",
    ...defaultSizes(type),
    content: "",
    url: "",
    image: "",
    min: null,
    max: null,
    sync_chart: false,
    cardColor: "",
    titleColor: "",
    valueColor: "",
    attributes:
      type === T.trend
        ? { resolution: "auto" }
        : type === T.chart || type === T.multiChart
          ? { so_chart_type: "line" }
          : type === T.functionButton
            ? { function_type: "0" }
            : {},
    settings: { ...defaultSettings },
  };
}

export interface ModuleEditorProps {
  // module is the module to edit, or null to add one.
  module: DashModule | null;
  nextIndex: number;
  dashboardId: number;
  companyId: number;
  source: Source;
  onClose: () => void;
  onSaved: (m: DashModule, created: boolean) => void;
}

type Errors = Record<string, string>;

export function ModuleEditor(props: ModuleEditorProps): ReactNode {
  const { module: editing, nextIndex, dashboardId, companyId, source, onClose, onSaved } = props;
  const intl = useIntl();
  const [type, setType] = useState<number | null>(editing ? editing.type : null);
  const [chosen, setChosen] = useState<string>("0");
  const [draft, setDraft] = useState<DashModule | null>(editing ? { ...editing, attributes: { ...editing.attributes } } : null);
  const [file, setFile] = useState<File | null>(null);
  const [dropImage, setDropImage] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState("");
  const [saving, setSaving] = useState(false);
  const [nodes, setNodes] = useState<NodeOption[] | null>(null);
  const [nodesFailed, setNodesFailed] = useState(false);
  const [alarms, setAlarms] = useState<AlarmOption[] | null>(null);

  useEffect(() => {
    loadNodes(companyId).then(setNodes, () => setNodesFailed(true));
    loadAlarms(companyId).then(setAlarms, () => setAlarms(null));
  }, [companyId]);

  function start(): void {
    const t = Number(chosen);
    setType(t);
    setDraft(newModule(t, nextIndex, dashboardId, intl.formatMessage(typeNames[t as keyof typeof typeNames])));
  }

  const title =
    type === null || !draft
      ? intl.formatMessage(ed.addTitle)
      : editing
        ? intl.formatMessage(ed.editTitle, { type: intl.formatMessage(typeNames[type as keyof typeof typeNames]) })
        : `${intl.formatMessage(ed.addTitle)}: ${intl.formatMessage(typeNames[type as keyof typeof typeNames])}`;

  async function submit(close: () => void): Promise<void> {
    if (!draft) return;
    const found = validate(draft, intl.formatMessage, nodes);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setFormError(intl.formatMessage(ed.fixErrors));
      return;
    }
    setFormError("");
    setSaving(true);
    try {
      const ready = labelSeries(draft, nodes);
      let saved = ready.dashboardModuleId ? await source.update(ready) : await source.create(ready);
      if (dropImage && saved.image) {
        await source.removeImage(saved);
        saved = { ...saved, image: "" };
      }
      if (file) saved = await source.uploadImage(saved, file);
      onSaved(saved, !draft.dashboardModuleId);
      close();
    } catch (err) {
      setFormError(serverMessage(err, translator(intl, dashboardErrorIds), () => true) ?? intl.formatMessage(msg.saveFailed));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal overlayClassName="fh-dash-overlay" className="fh-dash-modal" isOpen isDismissable={!saving} onOpenChange={(open) => !open && onClose()}>
      <Dialog className="fh-dash-dialog" aria-label={title}>
        {({ close }) => (
          <>
            <DialogHeading className="fh-dash-dialog__title">
              {title}
            </DialogHeading>
            {type === null || !draft ? (
              <>
                <RadioGroup className="fh-dash-types" value={chosen} onChange={setChosen} aria-label={intl.formatMessage(ed.chooseType)}>
                  <Label className="fh-dash-field__label">{intl.formatMessage(ed.chooseType)}</Label>
                  <div className="fh-dash-types__list">
                    {editableTypes.map((t) => (
                      <Radio key={t} value={String(t)} className="fh-dash-type">
                        <span className={`mdi ${typeIcons[t] ?? "mdi-view-dashboard"} fh-dash-type__icon`} aria-hidden="true" />
                        <span className="fh-dash-type__text">
                          <strong>{intl.formatMessage(typeNames[t as keyof typeof typeNames])}</strong>
                          <span className="fh-dash-type__hint">{intl.formatMessage(typeHints[t as keyof typeof typeHints])}</span>
                        </span>
                      </Radio>
                    ))}
                  </div>
                </RadioGroup>
                <DialogActions className="fh-dash-dialog__actions">
                  <Button className="fh-dash-button fh-dash-button--quiet" onPress={close}>
                    {intl.formatMessage(msg.cancel)}
                  </Button>
                  <Button className="fh-dash-button" onPress={start}>
                    {intl.formatMessage(ed.next)}
                  </Button>
                </DialogActions>
              </>
            ) : (
              <form
                className="fh-dash-form"
                noValidate
                onSubmit={(e) => {
                  e.preventDefault();
                  void submit(close);
                }}
              >
                <Fields
                  companyId={companyId}
                  draft={draft}
                  setDraft={setDraft}
                  errors={errors}
                  nodes={nodes}
                  nodesFailed={nodesFailed}
                  alarms={alarms}
                  file={file}
                  setFile={setFile}
                  dropImage={dropImage}
                  setDropImage={setDropImage}
                  imageUrl={draft.dashboardModuleId ? source.imageUrl(draft) : ""}
                />
                {formError ? (
                  <p className="fh-dash-form__error" role="alert">
                    {formError}
                  </p>
                ) : null}
                <DialogActions className="fh-dash-dialog__actions">
                  {!editing ? (
                    <Button className="fh-dash-button fh-dash-button--quiet" onPress={() => setType(null)} isDisabled={saving}>
                      {intl.formatMessage(ed.back)}
                    </Button>
                  ) : null}
                  <Button className="fh-dash-button fh-dash-button--quiet" onPress={close} isDisabled={saving}>
                    {intl.formatMessage(msg.cancel)}
                  </Button>
                  <Button className="fh-dash-button" type="submit" isDisabled={saving}>
                    {intl.formatMessage(saving ? ed.saving : ed.save)}
                  </Button>
                </DialogActions>
              </form>
            )}
          </>
        )}
      </Dialog>
    </Modal>
  );
}

export const typeIcons: Record<number, string> = {
  0: "mdi-chart-line",
  1: "mdi-gauge",
  2: "mdi-text",
  3: "mdi-image-outline",
  4: "mdi-map-outline",
  5: "mdi-domain",
  6: "mdi-web",
  7: "mdi-weather-partly-cloudy",
  8: "mdi-numeric",
  9: "mdi-table",
  10: "mdi-chart-multiline",
  11: "mdi-floor-plan",
  12: "mdi-gesture-tap-button",
  13: "mdi-card-account-details-outline",
  14: "mdi-chart-bell-curve-cumulative",
  15: "mdi-view-list-outline",
  16: "mdi-rotate-3d-variant",
  17: "mdi-cup-water",
};

// labelSeries gives a label map without chosen nodes the nodes that have
// its label key as series: the latest-values route reads series, and every
// label needs its node's value.
function labelSeries(d: DashModule, nodes: NodeOption[] | null): DashModule {
  const key = keysOf(d.attributes.tagkey ?? "")[0];
  if (d.type !== T.map || d.attributes.target !== "labels" || !key || parseRefs(d.attributes.series ?? "").length > 0 || !nodes) return d;
  const refs = nodes.filter((n) => n.keys.includes(key)).map((n) => ({ deveui: n.deveui, key }));
  return refs.length ? { ...d, attributes: { ...d.attributes, series: JSON.stringify(refs) } } : d;
}

type Format = ReturnType<typeof useIntl>["formatMessage"];

const isNum = (s: string): boolean => s.trim() === "" || Number.isFinite(Number(s));

// validate checks a draft and returns the errors by field.
function validate(d: DashModule, f: Format, nodes: NodeOption[] | null): Errors {
  const e: Errors = {};
  const a = d.attributes;
  if (d.title.trim() === "") e.title = f(ed.required);
  else if (d.title.length > 255) e.title = f(ed.tooLong);
  if (nodeTypes.has(d.type) && d.type !== T.weather && !d.tag) e.tag = f(ed.required);
  if (d.type === T.weather && !d.tag && ((a.weather_lat ?? "") === "" || (a.weather_lon ?? "") === "")) e.tag = f(ed.required);
  if (nodes && d.tag && !nodes.some((n) => n.deveui === d.tag)) e.tag = f(ed.required);
  if ((oneKeyTypes.has(d.type) || manyKeyTypes.has(d.type)) && keysOf(a.tagkey ?? "").length === 0) e.tagkey = f(ed.required);
  if (d.type === T.tilt) {
    if (!a.tagkey_x) e.tagkey_x = f(ed.required);
    if (!a.tagkey_y) e.tagkey_y = f(ed.required);
  }
  if (d.type === T.multiChart && parseRefs(a.series ?? "").filter((r) => r.deveui && r.key).length === 0) e.series = f(ed.required);
  if (d.type === T.iframe && !safeHttpUrl(d.url)) e.url = f(ed.badUrl);
  for (const k of ["decimal_rounding"]) {
    const v = a[k] ?? "";
    if (v !== "" && !/^(10|\d)$/.test(v)) e[k] = f(ed.badDecimals);
  }
  for (const k of ["min_value", "max_value", "tagkey_x_max", "tagkey_y_max", "font_size", "maxheight", "weather_lat", "weather_lon"]) {
    if (!isNum(a[k] ?? "")) e[k] = f(ed.badNumber);
  }
  if (d.min !== null && d.max !== null && d.min >= d.max) e.max = f(ed.badRange);
  const lo = a.min_value ?? "";
  const hi = a.max_value ?? "";
  if (lo !== "" && hi !== "" && Number(lo) >= Number(hi)) e.max_value = f(ed.badRange);
  for (const k of ["cardColor", "titleColor", "valueColor"] as const) {
    if (d[k] !== "" && !/^#[0-9a-f]{6}$/i.test(d[k])) e[k] = f(ed.badColor);
  }
  const rules = (a.value_match ?? "").split(";").filter((r) => r.trim() !== "");
  const bad = rules.find((r) => parseValueMatch(r).length === 0);
  if (bad) e.value_match = f(ed.badRules, { rule: bad });
  const icon = a.icon ?? "";
  if (d.type === T.map && icon !== "" && !/^mdi-[a-z0-9-]+$/.test(icon)) e.icon = f(ed.badIcon);
  if (d.type === T.functionButton) Object.assign(e, functionErrors(d, f, f(ed.required)));
  return e;
}

interface FieldsProps {
  companyId: number;
  draft: DashModule;
  setDraft: (d: DashModule) => void;
  errors: Errors;
  nodes: NodeOption[] | null;
  nodesFailed: boolean;
  alarms: AlarmOption[] | null;
  file: File | null;
  setFile: (f: File | null) => void;
  dropImage: boolean;
  setDropImage: (b: boolean) => void;
  imageUrl: string;
}

// useKeys loads the keys of the node with DevEUI deveui.
function useKeys(nodes: NodeOption[] | null, deveui: string): KeyOption[] {
  const node = nodes?.find((n) => n.deveui === deveui);
  const [keys, setKeys] = useState<KeyOption[]>([]);
  useEffect(() => {
    if (!node) {
      setKeys([]);
      return;
    }
    let live = true;
    const fallback = node.keys.map((key) => ({ key, label: "", unit: "" }));
    setKeys(fallback);
    loadKeys(node.id).then(
      (ks) => {
        if (live && ks.length > 0) setKeys(ks);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [node]);
  return keys;
}

const keyOptions = (keys: KeyOption[]): Option[] =>
  keys.map((k) => ({ id: k.key, label: k.label ? `${k.label} (${k.key})` : k.key, hint: k.unit || undefined }));

function Fields(props: FieldsProps): ReactNode {
  const { draft: d, setDraft, errors, nodes, nodesFailed } = props;
  const intl = useIntl();
  const f = intl.formatMessage;
  const a = d.attributes;
  const set = (patch: Partial<DashModule>): void => setDraft({ ...d, ...patch });
  const setAttr = (k: string, v: string): void => {
    const attributes = { ...d.attributes };
    if (v === "") delete attributes[k];
    else attributes[k] = v;
    setDraft({ ...d, attributes });
  };
  const flag = (k: string, label: string): ReactNode => (
    <SwitchField label={label} value={a[k] === "true"} onChange={(on) => setAttr(k, on ? "true" : "")} />
  );
  const text = (k: string, label: string, hint?: string, inputMode?: "decimal" | "numeric"): ReactNode => (
    <TextInput label={label} value={a[k] ?? ""} onChange={(v) => setAttr(k, v.trim() === "" ? "" : v)} hint={hint} error={errors[k]} inputMode={inputMode} />
  );
  const nodeOptions: Option[] = useMemo(() => (nodes ?? []).map((n) => ({ id: n.deveui, label: n.name ? `${n.name} (${n.deveui})` : n.deveui })), [nodes]);
  const keys = useKeys(nodes, d.tag);
  const sizeOptions = sizes.map((s) => ({ id: s, label: f(sizeNames[s]) }));
  const numOrNull = (v: string): number | null => (v.trim() === "" || !Number.isFinite(Number(v)) ? null : Number(v));
  const [minText, setMinText] = useState(d.min === null ? "" : String(d.min));
  const [maxText, setMaxText] = useState(d.max === null ? "" : String(d.max));
  const t = d.type;

  const nodeField = nodeTypes.has(t) ? (
    <ComboField
      label={f(ed.node)}
      value={d.tag}
      options={nodeOptions}
      onChange={(v) => set({ tag: v.toUpperCase() })}
      error={errors.tag ?? (nodesFailed ? f(ed.nodesFailed) : null)}
      hint={t === T.weather ? f(ed.weatherNodeHint) : undefined}
      emptyText={f(ed.noNodes)}
    />
  ) : null;

  return (
    <div className="fh-dash-form__body">
      <fieldset className="fh-dash-fieldset">
        <legend>{f(ed.general)}</legend>
        <TextInput label={f(ed.title)} value={d.title} onChange={(v) => set({ title: v })} error={errors.title} isRequired />
        <div className="fh-dash-form__row">
          <SelectField label={f(msg.sizeSmall)} value={d.sizeSmall} options={sizeOptions} onChange={(v) => set({ sizeSmall: v as Size })} />
          <SelectField label={f(msg.sizeMid)} value={d.sizeMid} options={sizeOptions} onChange={(v) => set({ sizeMid: v as Size })} />
        </div>
      </fieldset>

      {t === T.functionButton ? (
        <FunctionFields draft={d} setDraft={setDraft} errors={errors} nodes={nodes} keys={keyOptions(keys)} companyId={props.companyId} />
      ) : null}
      {t !== T.companyInfo && t !== T.nodeOverview && t !== T.functionButton ? (
        <fieldset className="fh-dash-fieldset">
          <legend>{f(ed.data)}</legend>
          {nodeField}
          {oneKeyTypes.has(t) ? (
            <ComboField
              label={f(ed.key)}
              value={keysOf(a.tagkey ?? "")[0] ?? ""}
              options={keyOptions(keys)}
              onChange={(v) => setAttr("tagkey", v)}
              error={errors.tagkey}
              hint={d.tag ? undefined : f(ed.chooseNodeFirst)}
              allowsCustomValue
              emptyText={f(ed.noNodes)}
            />
          ) : null}
          {t === T.nodeInfo ? (
            <ComboField
              label={f(ed.key)}
              value={keysOf(a.tagkey ?? "")[0] ?? ""}
              options={keyOptions(keys)}
              onChange={(v) => setAttr("tagkey", v)}
              allowsCustomValue
              emptyText={f(ed.noNodes)}
            />
          ) : null}
          {manyKeyTypes.has(t) ? (
            <CheckboxGroup
              className="fh-dash-checks"
              value={keysOf(a.tagkey ?? "")}
              onChange={(v) => setAttr("tagkey", v.join(","))}
              isInvalid={!!errors.tagkey}
            >
              <Label className="fh-dash-field__label">{f(ed.keys)}</Label>
              {keys.length === 0 ? <span className="fh-dash-field__hint">{f(ed.chooseNodeFirst)}</span> : null}
              {keys.map((k) => (
                <Checkbox key={k.key} value={k.key} className="fh-dash-check">
                  <span className="fh-dash-check__box" aria-hidden="true" />
                  {k.label ? `${k.label} (${k.key})` : k.key}
                  {k.unit ? <span className="fh-dash-option__hint">{k.unit}</span> : null}
                </Checkbox>
              ))}
              {errors.tagkey ? <span className="fh-dash-field__error">{errors.tagkey}</span> : null}
            </CheckboxGroup>
          ) : null}
          {t === T.tilt ? (
            <div className="fh-dash-form__row">
              <ComboField label={f(ed.tiltX)} value={a.tagkey_x ?? ""} options={keyOptions(keys)} onChange={(v) => setAttr("tagkey_x", v)} error={errors.tagkey_x} allowsCustomValue emptyText={f(ed.noNodes)} />
              <ComboField label={f(ed.tiltY)} value={a.tagkey_y ?? ""} options={keyOptions(keys)} onChange={(v) => setAttr("tagkey_y", v)} error={errors.tagkey_y} allowsCustomValue emptyText={f(ed.noNodes)} />
            </div>
          ) : null}
          {t === T.tilt ? (
            <div className="fh-dash-form__row">
              {text("tagkey_x_max", f(ed.tiltXMax), undefined, "decimal")}
              {text("tagkey_y_max", f(ed.tiltYMax), undefined, "decimal")}
            </div>
          ) : null}
          {t === T.multiChart ? <SeriesList draft={d} setDraft={setDraft} nodes={nodes} error={errors.series} /> : null}
          {t === T.map ? <MapFields draft={d} setDraft={setDraft} nodes={nodes} errors={errors} /> : null}
          {t === T.imageMap ? <SensorList draft={d} setDraft={setDraft} nodes={nodes} /> : null}
          {t === T.trend ? (
            <SelectField
              label={f(ed.resolution)}
              value={a.resolution ?? "auto"}
              options={resolutions.map((r) => ({ id: r, label: f(resolutionNames[r]) }))}
              onChange={(v) => setAttr("resolution", v)}
            />
          ) : null}
          {t === T.weather ? (
            <div className="fh-dash-form__row">
              {text("weather_lat", f(ed.weatherLat), f(ed.weatherHint), "decimal")}
              {text("weather_lon", f(ed.weatherLon), undefined, "decimal")}
            </div>
          ) : null}
          {t === T.text ? (
            <TextInput label={f(ed.content)} value={d.content} onChange={(v) => set({ content: v })} hint={f(ed.contentHint)} multiline />
          ) : null}
          {t === T.iframe ? (
            <TextInput label={f(ed.url)} value={d.url} onChange={(v) => set({ url: v.trim() })} error={errors.url} inputMode="url" placeholder="https://" isRequired />
          ) : null}
          {t === T.image || t === T.imageMap ? <ImageField {...props} /> : null}
        </fieldset>
      ) : null}

      {t !== T.companyInfo && t !== T.image && t !== T.iframe && t !== T.nodeOverview && t !== T.weather && t !== T.functionButton ? (
        <fieldset className="fh-dash-fieldset">
          <legend>{f(ed.display)}</legend>
          {chartTypes.has(t) ? (
            <>
              <SelectField
                label={f(ed.chartType)}
                value={a.so_chart_type ?? "line"}
                options={chartKinds.map((k) => ({ id: k, label: f(kindNames[k]) }))}
                onChange={(v) => setAttr("so_chart_type", v)}
              />
              {text("axis_label", f(ed.axisLabel))}
            </>
          ) : null}
          {chartTypes.has(t) || t === T.gauge ? (
            <div className="fh-dash-form__row">
              <TextInput
                label={f(ed.min)}
                value={minText}
                onChange={(v) => {
                  setMinText(v);
                  set({ min: numOrNull(v) });
                }}
                hint={f(t === T.gauge ? ed.gaugeHint : ed.minMaxHint)}
                error={minText.trim() !== "" && numOrNull(minText) === null ? f(ed.badNumber) : null}
                inputMode="decimal"
              />
              <TextInput
                label={f(ed.max)}
                value={maxText}
                onChange={(v) => {
                  setMaxText(v);
                  set({ max: numOrNull(v) });
                }}
                error={maxText.trim() !== "" && numOrNull(maxText) === null ? f(ed.badNumber) : errors.max}
                inputMode="decimal"
              />
            </div>
          ) : null}
          {chartTypes.has(t) ? (
            <>
              <SwitchField label={f(ed.syncChart)} value={d.sync_chart} onChange={(v) => set({ sync_chart: v })} />
              {flag("sync_y", f(ed.syncY))}
              {flag("zoom_slider", f(ed.zoomSlider))}
            </>
          ) : null}
          {t === T.fillLevel ? (
            <div className="fh-dash-form__row">
              {text("min_value", f(ed.minValue), undefined, "decimal")}
              {text("max_value", f(ed.maxValue), undefined, "decimal")}
            </div>
          ) : null}
          {[T.chart, T.multiChart, T.gauge, T.latest, T.table, T.imageMap, T.tilt, T.fillLevel, T.trend, T.map].includes(t as 0) ? (
            text("decimal_rounding", f(ed.decimals), undefined, "numeric")
          ) : null}
          {[T.gauge, T.latest, T.imageMap, T.fillLevel, T.map].includes(t as 1) ? (
            <div className="fh-dash-form__row">
              {text("prefix", f(ed.prefix))}
              {text("sufix", f(ed.sufix), f(ed.sufixHint))}
            </div>
          ) : null}
          {[T.gauge, T.latest, T.imageMap, T.fillLevel].includes(t as 1) ? text("value_match", f(ed.valueMatch), f(ed.valueMatchHint)) : null}
          {t === T.latest ? (
            <>
              {flag("hide_trend_icon", f(ed.hideTrend))}
              {flag("horizontel_single_title", f(ed.horizontalTitle))}
              {flag("so_hide_node_info", f(ed.hideNodeInfo))}
              {flag("so_single_sparkline", f(ed.sparkline))}
            </>
          ) : null}
          {t === T.nodeInfo ? flag("so_hide_node_info", f(ed.hideNodeInfo)) : null}
          {alarmTypes.has(t) ? (
            <SelectField
              label={f(ed.alarm)}
              value={a.alarm_id ?? "none"}
              options={[
                { id: "none", label: f(ed.alarmNone) },
                ...(props.alarms ?? []).map((al) => ({ id: String(al.id), label: al.name })),
                // An alarm no longer listed (deleted) stays choosable until changed.
                ...(a.alarm_id && props.alarms && !props.alarms.some((al) => String(al.id) === a.alarm_id) ? [{ id: a.alarm_id, label: `#${a.alarm_id}` }] : []),
              ]}
              onChange={(v) => setAttr("alarm_id", v === "none" ? "" : v)}
              hint={f(ed.alarmHint)}
              error={errors.alarm_id}
            />
          ) : null}
          {t === T.latest || t === T.text ? <FontFields draft={d} setAttr={setAttr} errors={errors} /> : null}
          {[T.chart, T.multiChart, T.trend, T.table, T.text].includes(t as 0) ? text("maxheight", f(ed.maxHeight), undefined, "numeric") : null}
        </fieldset>
      ) : null}
      {t === T.image || t === T.iframe || t === T.nodeOverview ? (
        <fieldset className="fh-dash-fieldset">
          <legend>{f(ed.display)}</legend>
          {text("maxheight", f(ed.maxHeight), undefined, "numeric")}
        </fieldset>
      ) : null}

      <fieldset className="fh-dash-fieldset">
        <legend>{f(ed.colours)}</legend>
        <div className="fh-dash-form__row fh-dash-form__row--three">
          {(["cardColor", "titleColor", "valueColor"] as const).map((k) => (
            <ColorInput
              key={k}
              label={f(ed[k])}
              value={d[k]}
              onChange={(v) => set({ [k]: v.trim() } as Partial<DashModule>)}
              hint={f(ed.colorHint)}
              error={errors[k]}
              pick={f(ed.pickColor, { name: f(ed[k]) })}
            />
          ))}
        </div>
      </fieldset>
    </div>
  );
}

function FontFields({ draft: d, setAttr, errors }: { draft: DashModule; setAttr: (k: string, v: string) => void; errors: Errors }): ReactNode {
  const intl = useIntl();
  const f = intl.formatMessage;
  let style: { type?: string; size?: unknown; weight?: unknown } = {};
  try {
    const v: unknown = JSON.parse(attr(d, "font_style_large") || "{}");
    if (typeof v === "object" && v !== null) style = v as typeof style;
  } catch {
    style = {};
  }
  const setStyle = (patch: Partial<typeof style>): void => {
    const next = { ...style, ...patch };
    const clean = Object.fromEntries(Object.entries(next).filter(([, v]) => v !== "" && v !== undefined));
    setAttr("font_style_large", Object.keys(clean).length ? JSON.stringify(clean) : "");
  };
  return (
    <div className="fh-dash-form__row fh-dash-form__row--three">
      <TextInput label={f(ed.fontSize)} value={attr(d, "font_size")} onChange={(v) => setAttr("font_size", v.trim())} error={errors.font_size} inputMode="numeric" />
      <SelectField
        label={f(ed.fontType)}
        value={typeof style.type === "string" && style.type ? style.type : "default"}
        options={[
          { id: "default", label: f(ed.fontDefault) },
          { id: "sans-serif", label: f(ed.fontSans) },
          { id: "serif", label: f(ed.fontSerif) },
          { id: "monospace", label: f(ed.fontMono) },
          { id: "italic", label: f(ed.fontItalic) },
        ]}
        onChange={(v) => setStyle({ type: v === "default" ? "" : v })}
      />
      <SelectField
        label={f(ed.fontWeight)}
        value={String(style.weight ?? "normal")}
        options={[
          { id: "normal", label: f(ed.fontNormal) },
          { id: "bold", label: f(ed.fontBold) },
        ]}
        onChange={(v) => setStyle({ weight: v === "normal" ? "" : v })}
      />
    </div>
  );
}

function ImageField(props: FieldsProps): ReactNode {
  const { file, setFile, dropImage, setDropImage, imageUrl } = props;
  const intl = useIntl();
  const f = intl.formatMessage;
  const [preview, setPreview] = useState("");
  useEffect(() => {
    if (!file) {
      setPreview("");
      return;
    }
    const u = URL.createObjectURL(file);
    setPreview(u);
    return () => URL.revokeObjectURL(u);
  }, [file]);
  const shown = preview || (dropImage ? "" : imageUrl);
  return (
    <div className="fh-dash-field">
      <span className="fh-dash-field__label">{f(ed.image)}</span>
      {shown ? <img className="fh-dash-form__preview" src={shown} alt="" /> : null}
      <div className="fh-dash-form__row">
        <FileTrigger
          acceptedFileTypes={["image/png", "image/jpeg", "image/gif", "image/webp"]}
          onSelect={(files) => {
            const chosen = files?.[0];
            if (chosen) {
              setFile(chosen);
              setDropImage(false);
            }
          }}
        >
          <Button className="fh-dash-button fh-dash-button--quiet">
            <span className="mdi mdi-upload" aria-hidden="true" /> {f(ed.chooseImage)}
          </Button>
        </FileTrigger>
        {imageUrl && !dropImage ? (
          <Button
            className="fh-dash-button fh-dash-button--quiet"
            onPress={() => {
              setDropImage(true);
              setFile(null);
            }}
          >
            {f(ed.removeImage)}
          </Button>
        ) : null}
      </div>
      <span className="fh-dash-field__hint">{file ? f(ed.imageChosen, { name: file.name }) : f(ed.imageHint)}</span>
    </div>
  );
}

// RefRow is one node and key chosen in a list.
function RefRow(props: {
  n: number;
  value: SeriesRef;
  nodes: NodeOption[] | null;
  onChange: (r: SeriesRef) => void;
  onRemove: () => void;
  removeLabel: string;
}): ReactNode {
  const { n, value, nodes, onChange, onRemove, removeLabel } = props;
  const intl = useIntl();
  const f = intl.formatMessage;
  const keys = useKeys(nodes, value.deveui);
  const nodeOptions = (nodes ?? []).map((x) => ({ id: x.deveui, label: x.name ? `${x.name} (${x.deveui})` : x.deveui }));
  return (
    <li className="fh-dash-refrow" data-row={n}>
      <ComboField label={`${f(ed.node)} ${n}`} value={value.deveui} options={nodeOptions} onChange={(v) => onChange({ deveui: v.toUpperCase(), key: "" })} emptyText={f(ed.noNodes)} />
      <ComboField label={`${f(ed.key)} ${n}`} value={value.key} options={keyOptions(keys)} onChange={(v) => onChange({ ...value, key: v })} allowsCustomValue emptyText={f(ed.noNodes)} />
      <Button className="fh-dash-icon-button" aria-label={removeLabel} onPress={onRemove}>
        <span className="mdi mdi-close" aria-hidden="true" />
      </Button>
    </li>
  );
}

function SeriesList({ draft: d, setDraft, nodes, error }: { draft: DashModule; setDraft: (d: DashModule) => void; nodes: NodeOption[] | null; error?: string }): ReactNode {
  const intl = useIntl();
  const f = intl.formatMessage;
  const [rows, setRows] = useState<SeriesRef[]>(() => {
    const r = parseRefs(attr(d, "series"));
    return r.length > 0 ? r : [{ deveui: "", key: "" }];
  });
  const commit = (next: SeriesRef[]): void => {
    setRows(next);
    const attributes = { ...d.attributes, series: JSON.stringify(next.filter((r) => r.deveui && r.key)) };
    setDraft({ ...d, attributes });
  };
  return (
    <div className="fh-dash-field" role="group" aria-label={f(ed.series)}>
      <span className="fh-dash-field__label">{f(ed.series)}</span>
      <ol className="fh-dash-reflist">
        {rows.map((r, i) => (
          <RefRow
            key={i}
            n={i + 1}
            value={r}
            nodes={nodes}
            onChange={(v) => commit(rows.map((x, j) => (j === i ? v : x)))}
            onRemove={() => commit(rows.filter((_, j) => j !== i))}
            removeLabel={f(ed.removeSeries, { n: i + 1 })}
          />
        ))}
      </ol>
      <Button className="fh-dash-button fh-dash-button--quiet" onPress={() => setRows([...rows, { deveui: "", key: "" }])}>
        <span className="mdi mdi-plus" aria-hidden="true" /> {f(ed.addSeries)}
      </Button>
      {error ? <span className="fh-dash-field__error">{error}</span> : null}
    </div>
  );
}

function SensorList({ draft: d, setDraft, nodes }: { draft: DashModule; setDraft: (d: DashModule) => void; nodes: NodeOption[] | null }): ReactNode {
  const intl = useIntl();
  const f = intl.formatMessage;
  const [rows, setRows] = useState<Position[]>(() => parsePositions(attr(d, "positions")));
  const commit = (next: Position[]): void => {
    setRows(next);
    setDraft(withPositions(d, next.filter((p) => p.deveui && p.key)));
  };
  return (
    <div className="fh-dash-field" role="group" aria-label={f(ed.sensors)}>
      <span className="fh-dash-field__label">{f(ed.sensors)}</span>
      <ol className="fh-dash-reflist">
        {rows.map((r, i) => (
          <RefRow
            key={i}
            n={i + 1}
            value={r}
            nodes={nodes}
            onChange={(v) => commit(rows.map((x, j) => (j === i ? { ...x, ...v } : x)))}
            onRemove={() => commit(rows.filter((_, j) => j !== i))}
            removeLabel={f(ed.removeSensor, { n: i + 1 })}
          />
        ))}
      </ol>
      <Button
        className="fh-dash-button fh-dash-button--quiet"
        onPress={() => {
          // New sensors start near the middle, a little apart.
          const off = (rows.length % 5) * 0.06;
          setRows([...rows, { deveui: "", key: "", x: 0.35 + off, y: 0.4 + off }]);
        }}
      >
        <span className="mdi mdi-plus" aria-hidden="true" /> {f(ed.addSensor)}
      </Button>
      <span className="fh-dash-field__hint">{f(ed.sensorsHint)}</span>
    </div>
  );
}

function MapFields({ draft: d, setDraft, nodes, errors }: { draft: DashModule; setDraft: (d: DashModule) => void; nodes: NodeOption[] | null; errors: Errors }): ReactNode {
  const intl = useIntl();
  const f = intl.formatMessage;
  const a = d.attributes;
  const chosen = parseRefs(a.series ?? "").map((r) => r.deveui);
  const labelKey = keysOf(a.tagkey ?? "")[0] ?? "";
  const setAttrs = (patch: Record<string, string>): void => {
    const attributes = { ...d.attributes };
    for (const [k, v] of Object.entries(patch)) {
      if (v === "") delete attributes[k];
      else attributes[k] = v;
    }
    setDraft({ ...d, attributes });
  };
  // Each chosen node is stored with the label key, or its first key for
  // pins, so that every series names a key.
  const refs = (deveuis: string[], key: string): string =>
    deveuis.length
      ? JSON.stringify(deveuis.map((deveui) => ({ deveui, key: key || nodes?.find((n) => n.deveui === deveui)?.keys[0] || "" })))
      : "";
  const allKeys = [...new Set((nodes ?? []).filter((n) => chosen.length === 0 || chosen.includes(n.deveui)).flatMap((n) => n.keys))].sort();
  const labels = a.target === "labels";
  return (
    <>
      <CheckboxGroup className="fh-dash-checks fh-dash-checks--scroll" value={chosen} onChange={(v) => setAttrs({ series: refs(v, labelKey) })}>
        <Label className="fh-dash-field__label">{f(ed.mapNodes)}</Label>
        <Text slot="description" className="fh-dash-field__hint">
          {f(ed.mapNodesHint)}
        </Text>
        {(nodes ?? []).map((n) => (
          <Checkbox key={n.deveui} value={n.deveui} className="fh-dash-check">
            <span className="fh-dash-check__box" aria-hidden="true" />
            {n.name || n.deveui}
            <span className="fh-dash-option__hint">{n.deveui}</span>
          </Checkbox>
        ))}
      </CheckboxGroup>
      <SelectField
        label={f(ed.markers)}
        value={labels ? "label" : "pin"}
        options={[
          { id: "pin", label: f(ed.markerPins) },
          { id: "label", label: f(ed.markerLabels) },
        ]}
        onChange={(v) => setAttrs({ target: v === "label" ? "labels" : "" })}
      />
      {labels ? (
        <ComboField
          label={f(ed.labelKey)}
          value={labelKey}
          options={allKeys.map((k) => ({ id: k, label: k }))}
          onChange={(v) => setAttrs({ tagkey: v, series: refs(chosen, v) })}
          allowsCustomValue
          emptyText={f(ed.noNodes)}
        />
      ) : (
        <TextInput label={f(ed.pinIcon)} value={a.icon ?? ""} onChange={(v) => setAttrs({ icon: v.trim() })} hint={f(ed.pinIconHint)} error={errors.icon} placeholder="mdi-map-marker" />
      )}
      <div className="fh-dash-form__row">
        <SelectField
          label={f(ed.mapType)}
          value={d.settings.mapType}
          options={mapTypes.map((m) => ({ id: m, label: f(mapTypeNames[m]) }))}
          onChange={(v) => setDraft({ ...d, settings: { ...d.settings, mapType: v as DashModule["settings"]["mapType"] } })}
        />
        <SelectField
          label={f(ed.mapZoom)}
          value={String(d.settings.mapZoom)}
          options={Array.from({ length: 19 }, (_, i) => ({ id: String(i + 1), label: String(i + 1) }))}
          onChange={(v) => setDraft({ ...d, settings: { ...d.settings, mapZoom: Number(v) } })}
          hint={f(ed.mapViewHint)}
        />
      </div>
    </>
  );
}
