// ListBox is a list of options; ListBoxItem one of them.
import type { ReactNode } from "react";
import {
  ListBox as AriaListBox,
  ListBoxItem as AriaListBoxItem,
  type ListBoxItemProps,
  type ListBoxProps,
} from "react-aria-components";

export function ListBox<T extends object>(props: ListBoxProps<T>): ReactNode {
  return <AriaListBox<T> {...props} />;
}

export function ListBoxItem<T extends object>(props: ListBoxItemProps<T>): ReactNode {
  return <AriaListBoxItem<T> {...props} />;
}
