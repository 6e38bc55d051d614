// The dashboard island's messages. Every id is written out literally: the
// build keeps only the catalog entries the islands' sources name.
import type { MessageDescriptor } from "react-intl";

// defineMessages names the messages; unlike react-intl's it leaves them
// untyped, so that formatMessage takes any values (react-intl's typed
// descriptors refuse values unless each message declares them).
export function defineMessages<K extends string | number>(m: Record<K, { id: string; defaultMessage: string }>): Record<K, MessageDescriptor> {
  return m;
}

export const msg = defineMessages({
  loading: { id: "dashboards.board.loading", defaultMessage: "Loading the dashboard…" },
  loadFailed: { id: "dashboards.board.loadFailed", defaultMessage: "The dashboard could not be loaded" },
  gone: { id: "dashboards.board.gone", defaultMessage: "This dashboard link has expired or does not exist" },
  retry: { id: "dashboards.board.retry", defaultMessage: "Try again" },
  empty: { id: "dashboards.board.empty", defaultMessage: "This dashboard has no modules yet." },
  emptyEdit: { id: "dashboards.board.emptyEdit", defaultMessage: "Add a module to start." },
  editMode: { id: "dashboards.board.editMode", defaultMessage: "Edit dashboard" },
  add: { id: "dashboards.board.add", defaultMessage: "Add module" },
  modules: { id: "dashboards.board.modules", defaultMessage: "Modules of {name}" },
  saveFailed: { id: "dashboards.board.saveFailed", defaultMessage: "The changes could not be saved" },
  moved: { id: "dashboards.board.moved", defaultMessage: "{title} is now at position {position} of {count}" },
  publicNote: { id: "dashboards.board.publicNote", defaultMessage: "Shared by {company}, read-only, valid until {date}" },
  statusLive: { id: "dashboards.board.statusLive", defaultMessage: "Values update live" },
  statusPolling: { id: "dashboards.board.statusPolling", defaultMessage: "Values update every 30 seconds" },
  created: { id: "dashboards.board.created", defaultMessage: "The module {title} has been added" },
  copied: { id: "dashboards.board.copied", defaultMessage: "The module {title} has been copied" },
  deleted: { id: "dashboards.board.deleted", defaultMessage: "The module {title} has been deleted" },
  updated: { id: "dashboards.board.updated", defaultMessage: "The module {title} has been saved" },

  untitled: { id: "dashboards.module.untitled", defaultMessage: "Untitled module" },
  actions: { id: "dashboards.module.actions", defaultMessage: "Actions for {title}" },
  configure: { id: "dashboards.module.configure", defaultMessage: "Configure" },
  copy: { id: "dashboards.module.copy", defaultMessage: "Copy" },
  remove: { id: "dashboards.module.remove", defaultMessage: "Delete" },
  moveEarlier: { id: "dashboards.module.moveEarlier", defaultMessage: "Move earlier" },
  moveLater: { id: "dashboards.module.moveLater", defaultMessage: "Move later" },
  drag: { id: "dashboards.module.drag", defaultMessage: "Move {title}: drag it, or press the arrow keys" },
  sizeSmall: { id: "dashboards.module.sizeSmall", defaultMessage: "Width on small screens" },
  sizeMid: { id: "dashboards.module.sizeMid", defaultMessage: "Width on larger screens" },
  removeTitle: { id: "dashboards.module.removeTitle", defaultMessage: "Delete the module?" },
  removeText: { id: "dashboards.module.removeText", defaultMessage: "The module {title} and its settings will be deleted. This cannot be undone." },
  cancel: { id: "dashboards.module.cancel", defaultMessage: "Cancel" },
  range: { id: "dashboards.module.range", defaultMessage: "Range of {title}" },

  sizeXs: { id: "dashboards.size.xs", defaultMessage: "Extra small" },
  sizeSm: { id: "dashboards.size.sm", defaultMessage: "Small" },
  sizeMd: { id: "dashboards.size.md", defaultMessage: "Medium" },
  sizeLg: { id: "dashboards.size.lg", defaultMessage: "Large" },

  wLoading: { id: "dashboards.widget.loading", defaultMessage: "Loading…" },
  wNoData: { id: "dashboards.widget.noData", defaultMessage: "No data in this range" },
  wNoValue: { id: "dashboards.widget.noValue", defaultMessage: "No value yet" },
  wError: { id: "dashboards.widget.error", defaultMessage: "The data could not be loaded" },
  wNotSet: { id: "dashboards.widget.notSet", defaultMessage: "Choose what to show in the module's settings" },
  wNoImage: { id: "dashboards.widget.noImage", defaultMessage: "No image has been uploaded" },
  wUpdated: { id: "dashboards.widget.updated", defaultMessage: "Updated {time}" },
  wNever: { id: "dashboards.widget.never", defaultMessage: "Never" },
  wTextOnly: { id: "dashboards.widget.textOnly", defaultMessage: "The values of this key are texts and cannot be drawn" },

  chartLabel: { id: "dashboards.chart.label", defaultMessage: "Chart of {series}" },
  chartHint: { id: "dashboards.chart.hint", defaultMessage: "Arrow keys step through the values, Escape hides them." },
  chartMin: { id: "dashboards.chart.min", defaultMessage: "Min {value}" },
  chartMax: { id: "dashboards.chart.max", defaultMessage: "Max {value}" },
  chartZoom: { id: "dashboards.chart.zoom", defaultMessage: "Overview of the whole range: drag over it to zoom in" },
  chartResetZoom: { id: "dashboards.chart.resetZoom", defaultMessage: "Show the whole range" },
  chartZoomIn: { id: "dashboards.chart.zoomIn", defaultMessage: "Zoom in" },
  chartZoomOut: { id: "dashboards.chart.zoomOut", defaultMessage: "Zoom out" },
  trendMean: { id: "dashboards.trend.mean", defaultMessage: "Mean" },
  trendBand: { id: "dashboards.trend.band", defaultMessage: "Lowest to highest" },

  gaugeLabel: { id: "dashboards.gauge.label", defaultMessage: "{value} on a scale from {min} to {max}" },
  trendUp: { id: "dashboards.latest.up", defaultMessage: "Rising" },
  trendDown: { id: "dashboards.latest.down", defaultMessage: "Falling" },
  trendFlat: { id: "dashboards.latest.flat", defaultMessage: "Unchanged" },
  tableTime: { id: "dashboards.table.time", defaultMessage: "Time" },
  tableCaption: { id: "dashboards.table.caption", defaultMessage: "Values of {series}, newest first" },

  mapLabel: { id: "dashboards.map.label", defaultMessage: "Map of {count, plural, one {# node} other {# nodes}}" },
  mapNoPosition: { id: "dashboards.map.noPosition", defaultMessage: "Without a position: {names}" },
  mapNoNodes: { id: "dashboards.map.noNodes", defaultMessage: "No node of this module has a position" },

  companyOrg: { id: "dashboards.company.orgNumber", defaultMessage: "Organisation number" },
  companyAddress: { id: "dashboards.company.address", defaultMessage: "Postal address" },
  companyPhone: { id: "dashboards.company.phone", defaultMessage: "Phone" },
  companyEmail: { id: "dashboards.company.email", defaultMessage: "Email" },
  companyLogo: { id: "dashboards.company.logo", defaultMessage: "Logo of {name}" },

  iframeNoUrl: { id: "dashboards.iframe.noUrl", defaultMessage: "Set an http or https address in the module's settings" },

  weatherSource: { id: "dashboards.weather.source", defaultMessage: "Forecast from {source}, updated {time}" },
  weatherWind: { id: "dashboards.weather.wind", defaultMessage: "Wind {speed} m/s from {direction}" },
  weatherRain: { id: "dashboards.weather.rain", defaultMessage: "Precipitation {amount} mm" },
  weatherHour: { id: "dashboards.weather.hour", defaultMessage: "{time}: {temperature}, {rain}, {wind}" },
  weatherNoHours: { id: "dashboards.weather.noHours", defaultMessage: "No forecast for this place" },

  imageMapHint: { id: "dashboards.imageMap.hint", defaultMessage: "Drag the sensors onto the plan, or focus one and use the arrow keys" },
  imageMapSensor: { id: "dashboards.imageMap.sensor", defaultMessage: "{name}: {value}" },
  imageMapFit: { id: "dashboards.imageMap.fit", defaultMessage: "Fit the plan" },

  nodeBattery: { id: "dashboards.node.battery", defaultMessage: "Battery" },
  nodeSignal: { id: "dashboards.node.signal", defaultMessage: "Signal" },
  nodeLastSeen: { id: "dashboards.node.lastSeen", defaultMessage: "Last seen" },
  nodeDataPoints: { id: "dashboards.node.dataPoints", defaultMessage: "Data points (24 h)" },
  nodeLatest: { id: "dashboards.node.latest", defaultMessage: "Latest value" },
  nodePosition: { id: "dashboards.node.position", defaultMessage: "Position" },
  nodeName: { id: "dashboards.node.name", defaultMessage: "Node" },
  nodeActive: { id: "dashboards.node.active", defaultMessage: "Sending" },
  nodeInactive: { id: "dashboards.node.inactive", defaultMessage: "Silent" },
  nodeNone: { id: "dashboards.node.none", defaultMessage: "The company has no nodes" },
  nodeCount: { id: "dashboards.node.count", defaultMessage: "{active} of {count} nodes sending" },

  tiltLabel: { id: "dashboards.tilt.label", defaultMessage: "Tilted {x} around the X axis and {y} around the Y axis" },
  tiltOver: { id: "dashboards.tilt.over", defaultMessage: "Over the limit" },

  fillLabel: { id: "dashboards.fill.label", defaultMessage: "{percent} full ({value})" },
});

// typeNames are the module types' names, by type number.
export const typeNames = defineMessages({
  0: { id: "dashboards.type.0", defaultMessage: "Chart" },
  1: { id: "dashboards.type.1", defaultMessage: "Gauge" },
  2: { id: "dashboards.type.2", defaultMessage: "Text" },
  3: { id: "dashboards.type.3", defaultMessage: "Image" },
  4: { id: "dashboards.type.4", defaultMessage: "Map" },
  5: { id: "dashboards.type.5", defaultMessage: "Company info" },
  6: { id: "dashboards.type.6", defaultMessage: "Web page (iframe)" },
  7: { id: "dashboards.type.7", defaultMessage: "Weather forecast" },
  8: { id: "dashboards.type.8", defaultMessage: "Latest value" },
  9: { id: "dashboards.type.9", defaultMessage: "Raw table" },
  10: { id: "dashboards.type.10", defaultMessage: "Multi-chart" },
  11: { id: "dashboards.type.11", defaultMessage: "Image map" },
  12: { id: "dashboards.type.12", defaultMessage: "Function button" },
  13: { id: "dashboards.type.13", defaultMessage: "Node info card" },
  14: { id: "dashboards.type.14", defaultMessage: "Trend chart" },
  15: { id: "dashboards.type.15", defaultMessage: "Node overview" },
  16: { id: "dashboards.type.16", defaultMessage: "Tilt visualizer (360°)" },
  17: { id: "dashboards.type.17", defaultMessage: "Fill level indicator" },
});

// typeHints describe each type in the type picker.
export const typeHints = defineMessages({
  0: { id: "dashboards.typeHint.0", defaultMessage: "One node's keys over time: line, area, bar, scatter or vertical" },
  1: { id: "dashboards.typeHint.1", defaultMessage: "The latest value on a dial between a minimum and a maximum" },
  2: { id: "dashboards.typeHint.2", defaultMessage: "A text of your own" },
  3: { id: "dashboards.typeHint.3", defaultMessage: "A picture you upload" },
  4: { id: "dashboards.typeHint.4", defaultMessage: "Nodes on a map, as pins or as labels with their values" },
  5: { id: "dashboards.typeHint.5", defaultMessage: "The company's name, address and logo" },
  6: { id: "dashboards.typeHint.6", defaultMessage: "Another web page inside the dashboard" },
  7: { id: "dashboards.typeHint.7", defaultMessage: "Hourly temperature, precipitation and wind for a place" },
  8: { id: "dashboards.typeHint.8", defaultMessage: "One value, large, with its trend" },
  9: { id: "dashboards.typeHint.9", defaultMessage: "The stored values as a table" },
  10: { id: "dashboards.typeHint.10", defaultMessage: "Keys of several nodes in one chart" },
  11: { id: "dashboards.typeHint.11", defaultMessage: "Sensors placed on a floor plan with their values" },
  12: { id: "dashboards.typeHint.12", defaultMessage: "Runs a script, sets a value, opens a dashboard or sends a downlink" },
  13: { id: "dashboards.typeHint.13", defaultMessage: "One node's battery, signal and last contact" },
  14: { id: "dashboards.typeHint.14", defaultMessage: "Lowest, mean and highest value per week, day, hour or 5 hours" },
  15: { id: "dashboards.typeHint.15", defaultMessage: "All the company's nodes with battery, signal and last contact" },
  16: { id: "dashboards.typeHint.16", defaultMessage: "Two tilt angles drawn as a turning object" },
  17: { id: "dashboards.typeHint.17", defaultMessage: "A level drawn as a tank with its percentage" },
});

export const sizeNames = {
  xs: msg.sizeXs,
  sm: msg.sizeSm,
  md: msg.sizeMd,
  lg: msg.sizeLg,
} as const;
