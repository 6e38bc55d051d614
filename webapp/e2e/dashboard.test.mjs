// The dashboard island (/dashboard/{id}, /public/{id};
// docs/api/dashboards.md) over the demo's data (`serve --demo`): the demo
// company's CompanyAdmin builds a dashboard with one module of every type but
// the function button (function-buttons.test.mjs) through the editor, and every module draws; the layout
// moves by keyboard and by drag and drop and stays after a reload; a value
// changes live after an uplink; the dashboard is shared with a public link
// that works logged out (polling its values) and stops working once the link
// is deleted. Screenshots of the finished dashboard in light and dark go to
// artifacts/, and axe-core finds nothing serious.
import assert from "node:assert/strict";
import { deflateSync } from "node:zlib";
import { after, before, test } from "node:test";
import { checkA11y } from "./lib/axe.mjs";
import { launchBrowser, newContext, pageLang, readSnackbar, watchPage } from "./lib/browser.mjs";
import { artifactPath, t as msg, tf } from "./lib/env.mjs";
import { startOutside } from "./lib/outside.mjs";
import { startFieldhub } from "./lib/server.mjs";

let browser, server, outside, admin, adminToken, companyId, ingestToken, dashboardId;

// The test's own node in the demo's application: its values come only from
// this test, so a live change is the test's uplink and nothing else.
const probe = { name: "E2E probe", deveui: "70B3D57ED0E2E001" };
// The demo's nodes (modules/demo catalog) the modules read.
const demoNode = (n) => `F1E1D0DE${n.toString(16).toUpperCase().padStart(8, "0")}`;
const meetingRoom = { name: "Meeting room climate", deveui: demoNode(1) };
const office = { name: "Office climate", deveui: demoNode(2) };
const frontDoor = { name: "Front door", deveui: demoNode(5) };
const weatherStation = { name: "Roof weather station", deveui: demoNode(11) };

// Tiles go to a port where nothing listens: the test network has no tile
// server, and the map must draw its markers all the same.
const tileUrl = "http://127.0.0.1:9/tiles/{z}/{x}/{y}.png";
const allowed = [/\/tiles\//, /\/api\/dashboards\/(public\/[^/]+\/)?modules\/\d+\/weather/];

before(async () => {
  outside = await startOutside();
  [server, browser] = await Promise.all([
    startFieldhub({ seed: false, serveArgs: ["--demo"], env: { FIELDHUB_MAP_TILE_URL: tileUrl } }),
    launchBrowser(),
  ]);
  const login = /CompanyAdmin\s+(\S+@\S+)\s+(\S+)/.exec(server.startup);
  assert.ok(login, `serve --demo printed the CompanyAdmin's login:\n${server.startup}`);
  admin = { email: login[1], password: login[2] };
  adminToken = await server.token(admin);
  const call = (method, path, body) => server.api(method, path, { token: adminToken, body });
  // The demo sets up its nodes once the portal listens.
  let tags = [];
  for (let i = 0; i < 100 && tags.filter((t) => t.keys?.length).length < 12; i++) {
    tags = await call("GET", "/api/tag");
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.ok(tags.length >= 12, `the demo's nodes exist (${tags.length})`);
  companyId = tags[0].companyId;
  const app = tags[0].applicationId;
  await call("POST", `/api/applications/${app}/tag`, { name: probe.name, deveui: probe.deveui });
  ({ token: ingestToken } = await call("POST", `/api/integration/tokens/${companyId}`, { label: "dashboard e2e", isCompany: true }));
  await uplink({ temperature: 21.5, level: 40, tiltX: 5, tiltY: -3 });
  ({ dashboardId } = await call("POST", "/api/dashboards", { name: "E2E overview" }));
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await outside?.close();
});

async function uplink(values) {
  const res = await fetch(`${server.baseURL}/api/ingest/generic`, {
    method: "POST",
    headers: { Authorization: `Bearer ${ingestToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ devEui: probe.deveui, values }),
  });
  assert.equal(res.status, 200, `uplink: ${res.status} ${await res.text()}`);
}

async function signedIn() {
  const context = await newContext(browser, server, { viewport: { width: 1400, height: 900 } });
  const res = await context.request.post("/login", { form: { email: admin.email, password: admin.password, next: "/" }, maxRedirects: 0 });
  assert.equal(res.status(), 303, "the demo CompanyAdmin signs in");
  await context.clearCookies({ name: "fieldhub_toast" });
  return context;
}

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// tick toggles a checkbox, radio or switch from the keyboard: React Aria
// hides the input under its own drawing, which takes the pointer.
async function tick(page, locator) {
  await locator.focus();
  await page.keyboard.press("Space");
}

// png is a plain PNG floor plan of w × h pixels with a light grid.
function png(w, h) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, "ascii");
    data.copy(out, 8);
    out.writeUInt32BE(crc(out.subarray(4, 8 + data.length)), 8 + data.length);
    return out;
  };
  const rows = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const line = x % 40 === 0 || y % 40 === 0;
      rows.set(line ? [150, 170, 190] : [240, 244, 248], y * (w * 3 + 1) + 1 + x * 3);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]);
}

// The editor, driven as a person would: open "Add module", pick the type,
// fill what the type needs, save.
function editor(page, lang) {
  const t = (id) => msg(lang, id);
  const dialog = page.getByRole("dialog");
  const combo = async (label, text, option) => {
    const box = dialog.getByRole("combobox", { name: label, exact: true });
    await box.fill(text);
    await page.getByRole("option", { name: option }).first().click();
  };
  return {
    dialog,
    async add(type, title, fill = async () => {}) {
      await page.getByRole("button", { name: t("dashboards.board.add"), exact: true }).click();
      const name = new RegExp(`^${esc(t(`dashboards.type.${type}`))}\\s*${esc(t(`dashboards.typeHint.${type}`))}`);
      await tick(page, dialog.getByRole("radio", { name }));
      await dialog.getByRole("button", { name: t("dashboards.edit.next"), exact: true }).click();
      const titleBox = dialog.getByRole("textbox", { name: t("dashboards.edit.title"), exact: true });
      await titleBox.fill(title);
      await fill();
      const created = page.waitForResponse((r) => /\/api\/dashboards\/\d+\/modules$/.test(new URL(r.url()).pathname) && r.request().method() === "POST");
      await dialog.getByRole("button", { name: t("dashboards.edit.save"), exact: true }).click();
      const res = await created;
      assert.equal(res.status(), 201, `module ${type} (${title}) is created: ${await res.text()}`);
      await dialog.waitFor({ state: "hidden" });
      await page.locator(`li.fh-dash-card[data-type="${type}"]`, { hasText: title }).waitFor();
    },
    node: (node) => combo(t("dashboards.edit.node"), node.name, new RegExp(esc(node.deveui))),
    key: (key) => combo(t("dashboards.edit.key"), key, new RegExp(`\\b${esc(key)}\\b`)),
    combo,
    check: (name) => tick(page, dialog.getByRole("checkbox", { name: new RegExp(`\\b${esc(name)}\\b`) }).first()),
    async select(label, option) {
      await dialog.getByRole("button", { name: new RegExp(esc(label)) }).first().click();
      await page.getByRole("option", { name: option, exact: true }).click();
    },
    fill: (label, value) => dialog.getByRole("textbox", { name: label, exact: true }).fill(value),
    async upload(file) {
      const chooser = page.waitForEvent("filechooser");
      await dialog.getByRole("button", { name: t("dashboards.edit.chooseImage") }).click();
      await (await chooser).setFiles({ name: "plan.png", mimeType: "image/png", buffer: file });
    },
  };
}

// drawn waits until every module has left its loading state and drawn what
// its type draws.
async function allDrawn(page) {
  await page.waitForFunction(
    () => {
      const cards = [...document.querySelectorAll("li.fh-dash-card")];
      if (cards.length === 0) return false;
      return cards.every((c) => {
        if (c.querySelector('[data-state="loading"], .mdi-loading')) return false;
        switch (c.dataset.type) {
          case "0":
          case "10":
          case "14":
            return !!c.querySelector("svg .fh-dash-chart__line") || !!c.querySelector('[data-state="empty"]');
          case "3":
            return c.querySelector("img")?.complete === true;
          case "4":
            return !!c.querySelector(".leaflet-marker-icon");
          case "11":
            return c.querySelector("img")?.complete === true && !!c.querySelector(".fh-dash-sensor");
          default:
            return true;
        }
      });
    },
    null,
    { timeout: 20000 },
  );
}

const cardOf = (page, type) => page.locator(`li.fh-dash-card[data-type="${type}"]`);

test("a CompanyAdmin builds a dashboard with one module of every type and every module draws", async (t) => {
  const context = await signedIn();
  t.after(() => context.close());
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto(`/dashboard/${dashboardId}`);
  const lang = await pageLang(page);
  const tx = (id) => msg(lang, id);
  await page.getByText(tx("dashboards.board.empty")).waitFor();

  // Edit mode by keyboard.
  await tick(page, page.getByRole("switch", { name: tx("dashboards.board.editMode") }));
  const ed = editor(page, lang);
  const plan = png(480, 300);

  await ed.add(0, "Meeting room temperature", async () => {
    await ed.node(meetingRoom);
    await ed.check("temperature");
    await ed.select(tx("dashboards.edit.chartType"), tx("dashboards.chartKind.area"));
    await ed.fill(tx("dashboards.edit.min"), "18");
    await ed.fill(tx("dashboards.edit.max"), "26");
    await tick(page, ed.dialog.getByRole("switch", { name: tx("dashboards.edit.syncChart") }));
    await tick(page, ed.dialog.getByRole("switch", { name: tx("dashboards.edit.zoomSlider") }));
  });
  await ed.add(1, "Probe gauge", async () => {
    await ed.node(probe);
    await ed.key("temperature");
    await ed.fill(tx("dashboards.edit.min"), "0");
    await ed.fill(tx("dashboards.edit.max"), "40");
  });
  await ed.add(2, "Notes", async () => {
    await ed.dialog.getByRole("textbox", { name: tx("dashboards.edit.content") }).fill("Check the <b>tank</b> weekly.\n<script>window.injected = true</script>");
  });
  await ed.add(3, "Site photo", () => ed.upload(plan));
  await ed.add(4, "Site map", async () => {
    await ed.select(tx("dashboards.edit.markers"), tx("dashboards.edit.markerLabels"));
    await ed.combo(tx("dashboards.edit.labelKey"), "temperature", /^temperature$/);
  });
  await ed.add(5, "About us");
  // A page of another site (lib/outside.mjs): the test network reaches no
  // other, and the portal's own pages may not be framed.
  const framed = `${outside.otherSite}/page`;
  await ed.add(6, "Start page", () => ed.fill(tx("dashboards.edit.url"), framed));
  await ed.add(7, "Roof forecast", () => ed.node(weatherStation));
  await ed.add(8, "Probe temperature", async () => {
    await ed.node(probe);
    await ed.key("temperature");
    await ed.fill(tx("dashboards.edit.decimals"), "1");
    await ed.fill(tx("dashboards.edit.sufix"), "°C");
    await ed.fill(tx("dashboards.edit.valueMatch"), "..25:#2e7d32;>25:#c62828");
  });
  await ed.add(9, "Office values", async () => {
    await ed.node(office);
    await ed.check("temperature");
    await ed.check("humidity");
  });
  await ed.add(10, "Both rooms", async () => {
    await ed.combo(`${tx("dashboards.edit.node")} 1`, meetingRoom.name, new RegExp(meetingRoom.deveui));
    await ed.combo(`${tx("dashboards.edit.key")} 1`, "temperature", /\btemperature\b/);
    await ed.dialog.getByRole("button", { name: tx("dashboards.edit.addSeries") }).click();
    await ed.combo(`${tx("dashboards.edit.node")} 2`, office.name, new RegExp(office.deveui));
    await ed.combo(`${tx("dashboards.edit.key")} 2`, "temperature", /\btemperature\b/);
    await tick(page, ed.dialog.getByRole("switch", { name: tx("dashboards.edit.syncChart") }));
  });
  await ed.add(11, "Floor plan", async () => {
    await ed.upload(plan);
    await ed.dialog.getByRole("button", { name: tx("dashboards.edit.addSensor") }).click();
    await ed.combo(`${tx("dashboards.edit.node")} 1`, probe.name, new RegExp(probe.deveui));
    await ed.combo(`${tx("dashboards.edit.key")} 1`, "temperature", /\btemperature\b/);
    await ed.dialog.getByRole("button", { name: tx("dashboards.edit.addSensor") }).click();
    await ed.combo(`${tx("dashboards.edit.node")} 2`, meetingRoom.name, new RegExp(meetingRoom.deveui));
    await ed.combo(`${tx("dashboards.edit.key")} 2`, "humidity", /\bhumidity\b/);
  });
  await ed.add(13, "Door node", () => ed.node(frontDoor));
  await ed.add(14, "Temperature trend", async () => {
    await ed.node(meetingRoom);
    await ed.key("temperature");
    await ed.select(tx("dashboards.edit.resolution"), tx("dashboards.resolution.hour"));
  });
  await ed.add(15, "All nodes");
  await ed.add(16, "Probe tilt", async () => {
    await ed.node(probe);
    await ed.combo(tx("dashboards.edit.tiltX"), "tiltX", /\btiltX\b/);
    await ed.combo(tx("dashboards.edit.tiltY"), "tiltY", /\btiltY\b/);
    await ed.fill(tx("dashboards.edit.tiltXMax"), "30");
  });
  await ed.add(17, "Probe tank", async () => {
    await ed.node(probe);
    await ed.key("level");
    await ed.fill(tx("dashboards.edit.minValue"), "0");
    await ed.fill(tx("dashboards.edit.maxValue"), "80");
  });

  // The editor offers every type, the function button too (whose kinds
  // function-buttons.test.mjs covers).
  await page.getByRole("button", { name: tx("dashboards.board.add"), exact: true }).click();
  const radios = await ed.dialog.getByRole("radio").count();
  assert.equal(radios, 18, "18 types to choose from");
  assert.equal(await ed.dialog.getByRole("radio", { name: new RegExp(`^${esc(tx("dashboards.type.12"))}`) }).count(), 1, "the function button");
  await page.keyboard.press("Escape");
  await ed.dialog.waitFor({ state: "hidden" });

  // Saved: a reload draws the same 17 modules, in the order they were added.
  await tick(page, page.getByRole("switch", { name: tx("dashboards.board.editMode") }));
  await page.reload();
  await allDrawn(page);
  const types = await page.locator("li.fh-dash-card").evaluateAll((cs) => cs.map((c) => Number(c.dataset.type)));
  assert.deepEqual(types, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17]);

  // What each widget draws.
  assert.ok((await cardOf(page, 0).locator("svg .fh-dash-chart__line").count()) > 0, "the chart draws its line");
  assert.equal(await cardOf(page, 0).locator(".fh-dash-chart__limit").count(), 2, "the chart draws its min and max lines");
  assert.equal(await cardOf(page, 0).locator(".fh-dash-chart__overview").count(), 1, "the chart has its zoom slider");
  assert.equal(await cardOf(page, 1).getByRole("meter").getAttribute("aria-valuenow"), "21.5", "the gauge shows the probe's value");
  const notes = await cardOf(page, 2).locator(".fh-dash-text").innerText();
  assert.match(notes, /<b>tank<\/b>/, "markup in a text module is shown as text");
  assert.equal(await page.evaluate(() => window.injected), undefined, "a script in a text module never runs");
  assert.equal(await cardOf(page, 2).locator(".fh-dash-text b, .fh-dash-text script").count(), 0);
  assert.ok(await cardOf(page, 3).locator("img").evaluate((img) => img.naturalWidth === 480), "the uploaded picture is shown");
  const labels = await cardOf(page, 4).locator(".fh-dash-maplabel").count();
  assert.ok(labels >= 5, `the map labels the nodes with a temperature (${labels})`);
  assert.match(await cardOf(page, 4).locator(".fh-dash-maplabel").first().innerText(), /\d/, "a map label shows a value");
  assert.match(await cardOf(page, 5).innerText(), /Demo/, "company info names the company");
  const frame = cardOf(page, 6).locator("iframe");
  assert.equal(await frame.getAttribute("src"), framed);
  const sandbox = (await frame.getAttribute("sandbox")).split(" ");
  assert.ok(sandbox.includes("allow-scripts") && !sandbox.some((s) => s.startsWith("allow-top-navigation")), `the page is sandboxed: ${sandbox}`);
  // No weather service is reachable from the test network: the forecast
  // module says so with the server's message and offers a retry, or shows
  // hours when a service answers.
  const weather = cardOf(page, 7);
  assert.ok(
    (await weather.locator(".fh-dash-weather__hours li").count()) > 0 || (await weather.getByRole("alert").count()) === 1,
    "the forecast shows hours or the error state",
  );
  assert.equal(await cardOf(page, 8).locator("output").getAttribute("data-value"), "21.5");
  assert.equal(await cardOf(page, 9).locator("thead th").count(), 3, "the table has a time column and one per key");
  assert.ok((await cardOf(page, 9).locator("tbody tr").count()) > 0, "the table has rows");
  assert.equal(await cardOf(page, 10).locator("svg .fh-dash-chart__line").count(), 2, "the multi-chart draws both series");
  assert.equal(await cardOf(page, 11).locator(".fh-dash-sensor").count(), 2, "the image map places both sensors");
  assert.match(await cardOf(page, 13).innerText(), new RegExp(frontDoor.deveui), "the node card names its node");
  assert.ok(
    (await cardOf(page, 14).locator(".fh-dash-chart__band, [data-state=empty]").count()) > 0,
    "the trend chart draws its min-max band (or says there is no data yet)",
  );
  assert.ok((await cardOf(page, 15).locator("tbody tr").count()) >= 13, "the overview lists the company's nodes");
  assert.equal(await cardOf(page, 16).locator(".fh-dash-tilt__cube").getAttribute("data-x"), "5");
  assert.equal(await cardOf(page, 17).getByRole("meter").getAttribute("aria-valuenow"), "40");

  for (const theme of ["light", "dark"]) {
    await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
    const { other } = await checkA11y(page, `the dashboard (${theme})`, { exclude: [".leaflet-container", ".fh-dash-iframe"] });
    for (const v of other) t.diagnostic(`axe ${v.impact} (${theme}): ${v.id} – ${v.help} (${v.nodes.length} node(s))`);
    await page.screenshot({ path: artifactPath(`dashboard-${theme}.png`), fullPage: true, animations: "disabled" });
  }
  await page.evaluate(() => (document.documentElement.dataset.theme = "light"));
  watch.check(allowed);
});

test("modules move by keyboard and by drag and drop, and the layout is saved", async (t) => {
  const context = await signedIn();
  t.after(() => context.close());
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto(`/dashboard/${dashboardId}`);
  const lang = await pageLang(page);
  const tx = (id) => msg(lang, id);
  await allDrawn(page);
  await tick(page, page.getByRole("switch", { name: tx("dashboards.board.editMode") }));
  const order = () => page.locator("li.fh-dash-card").evaluateAll((cs) => cs.map((c) => Number(c.dataset.type)));
  const saved = () =>
    page.waitForResponse((r) => new URL(r.url()).pathname === "/api/dashboards/modules/multiple" && r.request().method() === "PUT");

  // Keyboard: the chart's handle, arrow right: it changes place with the gauge.
  const chartHandle = cardOf(page, 0).locator(".fh-dash-card__handle");
  await chartHandle.focus();
  let put = saved();
  await page.keyboard.press("ArrowRight");
  assert.equal((await put).status(), 200);
  assert.deepEqual((await order()).slice(0, 3), [1, 0, 2]);
  assert.ok(await chartHandle.evaluate((el) => el === document.activeElement), "the focus stays on the moved module's handle");
  assert.match(await page.locator(".fh-dash [aria-live=polite]").last().innerText(), /2/, "the move is announced");

  // The size pickers: the text module becomes large on larger screens.
  await cardOf(page, 2).getByRole("button", { name: new RegExp(esc(tx("dashboards.module.sizeMid"))) }).click();
  put = saved();
  await page.getByRole("option", { name: tx("dashboards.size.lg"), exact: true }).click();
  assert.equal((await put).status(), 200);

  // Drag and drop: the text module onto the first place.
  put = saved();
  await cardOf(page, 2).locator(".fh-dash-card__handle").dragTo(page.locator("li.fh-dash-card").first());
  assert.equal((await put).status(), 200);
  assert.deepEqual((await order()).slice(0, 3), [2, 1, 0]);

  await page.reload();
  await page.locator("li.fh-dash-card").first().waitFor();
  assert.deepEqual((await order()).slice(0, 4), [2, 1, 0, 3], "the layout is there after a reload");
  const [card, grid] = await cardOf(page, 2).evaluate((el) => [el.getBoundingClientRect().width, el.parentElement.getBoundingClientRect().width]);
  assert.ok(Math.abs(card - grid) < 1, `the large text module spans the whole row (${card} of ${grid} px)`);
  watch.check(allowed);
});

test("a value changes live after an uplink, without reloading", async (t) => {
  const context = await signedIn();
  t.after(() => context.close());
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto(`/dashboard/${dashboardId}`);
  await allDrawn(page);
  await page.evaluate(() => (window.notReloaded = true));
  const latest = cardOf(page, 8).locator("output");
  const before = await latest.getAttribute("data-value");
  let value = 27.3;
  // An uplink sent before the socket is up would be missed; send until one
  // arrives (the first normally does).
  for (let i = 0; i < 10; i++) {
    value = 27.3 + i / 10;
    await uplink({ temperature: value, level: 60, tiltX: 12, tiltY: 4 });
    try {
      await page.waitForFunction((v) => document.querySelector('li[data-type="8"] output')?.dataset.value === String(v), Math.round(value * 10) / 10, { timeout: 3000 });
      break;
    } catch {
      // not yet connected; try again
    }
  }
  const shown = Math.round(value * 10) / 10;
  assert.notEqual(before, String(shown));
  assert.equal(await latest.getAttribute("data-value"), String(shown), "the latest value shows the uplink's");
  assert.match(await latest.innerText(), /°C/);
  // value_match colours a value above 25 red.
  assert.equal(await latest.evaluate((el) => getComputedStyle(el).color), "rgb(198, 40, 40)");
  assert.ok(await cardOf(page, 8).locator(".mdi-trending-up").isVisible(), "the trend icon points up");
  await page.waitForFunction(() => document.querySelector('li[data-type="1"] [role=meter]')?.getAttribute("aria-valuenow") !== "21.5");
  await page.waitForFunction(() => document.querySelector('li[data-type="17"] [role=meter]')?.getAttribute("aria-valuenow") === "60");
  await page.waitForFunction(() => document.querySelector('li[data-type="16"] .fh-dash-tilt__cube')?.dataset.x === "12");
  assert.equal(await page.evaluate(() => window.notReloaded), true, "the page was not reloaded");
  watch.check(allowed);
});

test("a public link shows the dashboard logged out, read-only, until it is deleted", async (t) => {
  const context = await signedIn();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.baseURL });
  t.after(() => context.close());
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto(`/dashboard/${dashboardId}`);
  const lang = await pageLang(page);
  const tx = (id) => msg(lang, id);
  await allDrawn(page);

  await page.getByRole("button", { name: tx("dashboards.share.open") }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByText(tx("dashboards.share.none")).waitFor();
  await dialog.getByRole("button", { name: tx("dashboards.share.create") }).click();
  const linkBox = dialog.getByRole("textbox", { name: tf(lang, "dashboards.share.link", { n: 1 }) });
  await linkBox.waitFor();
  const link = await linkBox.inputValue();
  assert.match(link, new RegExp(`^${esc(server.baseURL)}/public/\\S+$`));
  await dialog.getByRole("button", { name: tx("dashboards.share.copy") }).click();
  const said = await readSnackbar(page);
  assert.equal(said, tx("dashboards.share.copied"));
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link, "the link is on the clipboard");
  await page.keyboard.press("Escape");

  // Logged out, in a context of its own.
  const visitor = await newContext(browser, server, { viewport: { width: 1400, height: 900 } });
  t.after(() => visitor.close());
  const pub = await visitor.newPage();
  const pubWatch = watchPage(pub);
  await pub.goto(link);
  await allDrawn(pub);
  assert.equal(await pub.locator("li.fh-dash-card").count(), 17, "every module is there");
  assert.equal(await pub.getByRole("switch").count(), 0, "no edit switch");
  assert.equal(await pub.getByRole("button", { name: tx("dashboards.share.open") }).count(), 0, "no share button");
  assert.ok(await pub.locator("li.fh-dash-card[data-type='3'] img").evaluate((img) => img.naturalWidth === 480), "pictures come through the public route");
  const publicLang = await pageLang(pub);
  await pub.getByText(msg(publicLang, "dashboards.board.statusPolling")).waitFor();
  // The public page polls every 30 s.
  await uplink({ temperature: 19.2, level: 20, tiltX: 1, tiltY: 1 });
  await pub.waitForFunction(() => document.querySelector('li[data-type="8"] output')?.dataset.value === "19.2", null, { timeout: 45000 });
  await pub.screenshot({ path: artifactPath("dashboard-public.png"), fullPage: true, animations: "disabled" });
  // A module route of another dashboard is not reachable with the token.
  const token = link.split("/public/")[1];
  const other = await fetch(`${server.baseURL}/api/dashboards/public/${token}/modules/999999/tagdata/latest`);
  assert.equal(other.status, 404);

  // Deleted, the link no longer works.
  await page.getByRole("button", { name: tx("dashboards.share.open") }).click();
  await dialog.getByRole("button", { name: `${tx("dashboards.share.remove")} 1` }).click();
  await dialog.getByText(tx("dashboards.share.none")).waitFor();
  const gone = await pub.goto(link);
  assert.equal(gone.status(), 404);
  assert.equal(await pub.locator("li.fh-dash-card").count(), 0);
  watch.check(allowed);
  pubWatch.check([...allowed, /HTTP 404: GET \/public\//]);
});
