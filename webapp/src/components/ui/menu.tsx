// Menu is a list of actions: MenuTrigger opens it from a button in a
// Popover; MenuItem is one action, Separator a line between groups.
import type { ReactNode } from "react";
import {
  Menu as AriaMenu,
  MenuItem as AriaMenuItem,
  MenuTrigger as AriaMenuTrigger,
  Separator as AriaSeparator,
  type MenuItemProps,
  type MenuProps,
  type MenuTriggerProps,
  type SeparatorProps,
} from "react-aria-components";

export function MenuTrigger(props: MenuTriggerProps): ReactNode {
  return <AriaMenuTrigger {...props} />;
}

export function Menu<T extends object>(props: MenuProps<T>): ReactNode {
  return <AriaMenu<T> {...props} />;
}

export function MenuItem<T extends object>(props: MenuItemProps<T>): ReactNode {
  return <AriaMenuItem<T> {...props} />;
}

export function Separator(props: SeparatorProps): ReactNode {
  return <AriaSeparator {...props} />;
}
