// Widget draws a module by its type.
import type { ReactNode } from "react";
import { T } from "@/islands/dashboard/model";
import { msg } from "@/islands/dashboard/messages";
import { ChartWidget, TableWidget } from "@/islands/dashboard/widgets/charts";
import { ImageMapWidget } from "@/islands/dashboard/widgets/image-map";
import { MapWidget } from "@/islands/dashboard/widgets/map";
import {
  CompanyWidget,
  IframeWidget,
  ImageWidget,
  NodeInfoWidget,
  NodeOverviewWidget,
  TextWidget,
  WeatherWidget,
} from "@/islands/dashboard/widgets/misc";
import { Empty, type WidgetProps } from "@/islands/dashboard/widgets/states";
import { FillLevelWidget, GaugeWidget, LatestWidget, TiltWidget } from "@/islands/dashboard/widgets/values";

const byType: Record<number, (p: WidgetProps) => ReactNode> = {
  [T.chart]: ChartWidget,
  [T.gauge]: GaugeWidget,
  [T.text]: TextWidget,
  [T.image]: ImageWidget,
  [T.map]: MapWidget,
  [T.companyInfo]: CompanyWidget,
  [T.iframe]: IframeWidget,
  [T.weather]: WeatherWidget,
  [T.latest]: LatestWidget,
  [T.table]: TableWidget,
  [T.multiChart]: ChartWidget,
  [T.imageMap]: ImageMapWidget,
  [T.nodeInfo]: NodeInfoWidget,
  [T.trend]: ChartWidget,
  [T.nodeOverview]: NodeOverviewWidget,
  [T.tilt]: TiltWidget,
  [T.fillLevel]: FillLevelWidget,
};

export function Widget(props: WidgetProps): ReactNode {
  const Draw = byType[props.module.type];
  if (!Draw) return <Empty message={msg.wNotSet} />;
  return <Draw {...props} />;
}
