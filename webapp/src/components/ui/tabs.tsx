// Tabs: a TabList of Tabs and a TabPanel for each.
import type { ReactNode } from "react";
import {
  Tab as AriaTab,
  TabList as AriaTabList,
  TabPanel as AriaTabPanel,
  Tabs as AriaTabs,
  type TabListProps,
  type TabPanelProps,
  type TabProps,
  type TabsProps,
} from "react-aria-components";

export function Tabs(props: TabsProps): ReactNode {
  return <AriaTabs {...props} />;
}

export function TabList<T extends object>(props: TabListProps<T>): ReactNode {
  return <AriaTabList<T> {...props} />;
}

export function Tab(props: TabProps): ReactNode {
  return <AriaTab {...props} />;
}

export function TabPanel(props: TabPanelProps): ReactNode {
  return <AriaTabPanel {...props} />;
}
