// Widget draws a module by its type.
import type { ReactNode } from "react";
import { T } from "@/features/dashboards/utils/dashboard-model";
import { msg } from "@/features/dashboards/utils/messages";
import { ChartWidget, TableWidget } from "@/features/dashboards/components/widgets/charts";
import { ImageMapWidget } from "@/features/dashboards/components/widgets/image-map";
import { MapWidget } from "@/features/dashboards/components/widgets/map";
import {
  CompanyWidget,
  IframeWidget,
  ImageWidget,
  NodeInfoWidget,
  NodeOverviewWidget,
  TextWidget,
  WeatherWidget,
} from "@/features/dashboards/components/widgets/misc";
import { Empty, type WidgetProps } from "@/features/dashboards/components/widgets/states";
import { FunctionButtonWidget } from "@/features/dashboards/components/widgets/function-button";
import { FillLevelWidget, GaugeWidget, LatestWidget, TiltWidget } from "@/features/dashboards/components/widgets/values";

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
  [T.functionButton]: FunctionButtonWidget,
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
