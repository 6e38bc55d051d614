// GatewayCreate is /gateways/create: name, EUI, application and position,
// placed by a click on the map or by dragging the marker (or typed). With
// FIELDHUB_GEOCODE_URL set, the address of the position is looked up
// through the server (GET /api/gateway/geocode) a moment after it changes.
import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { useIntl } from "react-intl";
import { api, ApiError } from "@/lib/api";
import { toast, toastOnNextPage } from "@/lib/toast";
import { fieldErrors, type Application, type CreateProps } from "@/features/gateways/utils/model";
import { PositionMap } from "@/features/gateways/components/position-map";

type Apps = { state: "loading" } | { state: "error" } | { state: "ready"; list: Application[] };
type Addr = { state: "idle" } | { state: "looking" } | { state: "found"; text: string } | { state: "none" } | { state: "error"; text: string };

const parse = (s: string): number | null => {
  const t = s.trim().replace(",", ".");
  if (t === "") return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
};

export function GatewayCreate({ companyId, tileUrl, geocode, eui }: CreateProps): ReactNode {
  const intl = useIntl();
  const [apps, setApps] = useState<Apps>({ state: "loading" });
  const [name, setName] = useState("");
  const [mac, setMac] = useState(eui);
  const [appId, setAppId] = useState("");
  const [lat, setLat] = useState("");
  const [lng, setLng] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [addr, setAddr] = useState<Addr>({ state: "idle" });
  const t = (id: string): string => intl.formatMessage({ id });

  useEffect(() => {
    let live = true;
    api<Application[]>("GET", `/api/companies/${companyId}/applications`)
      .then((list) => {
        if (!live) return;
        setApps({ state: "ready", list });
        if (list[0]) setAppId(String(list[0].id));
      })
      .catch(() => live && setApps({ state: "error" }));
    return () => {
      live = false;
    };
  }, [companyId]);

  const latN = parse(lat);
  const lngN = parse(lng);

  // The address follows the position, a moment after it settles.
  useEffect(() => {
    if (!geocode || latN === null || lngN === null) return;
    const timer = setTimeout(() => {
      setAddr({ state: "looking" });
      api<{ displayName: string; found: boolean }>("GET", `/api/gateway/geocode?lat=${latN}&lon=${lngN}`)
        .then((a) => setAddr(a.found ? { state: "found", text: a.displayName } : { state: "none" }))
        .catch((e: unknown) => setAddr({ state: "error", text: e instanceof ApiError ? e.message : t("error.generic") }));
    }, 700);
    return () => clearTimeout(timer);
    // t is stable enough; the lookup follows the position only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [geocode, latN, lngN]);

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setSaving(true);
    setErrors({});
    const body: Record<string, unknown> = { name, macAddress: mac };
    if (latN !== null) body.latitude = latN;
    if (lngN !== null) body.longitude = lngN;
    try {
      await api("POST", `/api/gateway/${appId}`, body);
      toastOnNextPage("success", t("gateways.created"));
      window.location.assign("/gateways");
    } catch (err) {
      const fe = err instanceof ApiError ? fieldErrors(err.body) : {};
      if (lat.trim() !== "" && latN === null) fe.latitude = t("gateways.error.badLatitude");
      if (lng.trim() !== "" && lngN === null) fe.longitude = t("gateways.error.badLongitude");
      setErrors(fe);
      toast("error", t("error.generic"));
      setSaving(false);
    }
  };

  if (apps.state === "loading") {
    return (
      <p className="muted" role="status">
        {t("gateways.page.loading")}
      </p>
    );
  }
  if (apps.state === "error") {
    return (
      <p role="alert" className="error">
        {t("error.generic")}
      </p>
    );
  }
  if (apps.list.length === 0) {
    return (
      <p className="empty">
        {t("gateways.form.noApplications")} <a href="/application/create">{t("menu.application")}</a>
      </p>
    );
  }

  const field = (id: string, key: string, label: string, value: string, set: (v: string) => void, extra: Record<string, string> = {}): ReactNode => (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={key} value={value} onChange={(e) => set(e.target.value)} aria-invalid={errors[key] ? "true" : undefined}
        aria-describedby={errors[key] ? `${id}-error` : undefined} {...extra} />
      {errors[key] ? (
        <span id={`${id}-error`} className="error">
          {errors[key]}
        </span>
      ) : null}
    </div>
  );

  return (
    <form className="fh-gw-form" onSubmit={(e) => void submit(e)} noValidate data-ready="true">
      <div className="fh-gw-form__fields">
        {field("gw-name", "name", t("gateways.form.name"), name, setName, { maxLength: "255", required: "", autoComplete: "off" })}
        {field("gw-eui", "macAddress", t("gateways.form.eui"), mac, setMac, { required: "", autoComplete: "off", spellCheck: "false", className: "mono" })}
        <div className="field">
          <label htmlFor="gw-app">{t("gateways.form.application")}</label>
          <select id="gw-app" value={appId} onChange={(e) => setAppId(e.target.value)}>
            {apps.list.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </div>
        {field("gw-lat", "latitude", t("gateways.form.latitude"), lat, setLat, { inputMode: "decimal", required: "" })}
        {field("gw-lng", "longitude", t("gateways.form.longitude"), lng, setLng, { inputMode: "decimal", required: "" })}
        {geocode ? (
          <div className="field" aria-live="polite">
            <span className="label">{t("gateways.form.address")}</span>
            <span className="fh-gw-address" data-state={addr.state}>
              {addr.state === "looking" ? t("gateways.page.loading") : null}
              {addr.state === "found" ? addr.text : null}
              {addr.state === "none" ? t("gateways.form.noAddress") : null}
              {addr.state === "error" ? addr.text : null}
              {addr.state === "idle" ? "–" : null}
            </span>
          </div>
        ) : null}
        <button type="submit" className="button" disabled={saving}>
          {saving ? t("gateways.form.saving") : t("gateways.form.save")}
        </button>
      </div>
      <div className="fh-gw-form__map">
        <p className="hint muted">{t("gateways.form.mapHelp")}</p>
        <PositionMap
          lat={latN}
          lng={lngN}
          tileUrl={tileUrl}
          onPlace={(a, b) => {
            setLat(String(a));
            setLng(String(b));
          }}
        />
      </div>
    </form>
  );
}
