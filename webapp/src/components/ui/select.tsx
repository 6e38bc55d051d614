// Select picks one item (or several) from a list in a popover: Select holds
// a Label, a Button with the SelectValue, and a Popover with a ListBox.
import type { ReactNode } from "react";
import {
  Select as AriaSelect,
  SelectValue as AriaSelectValue,
  type SelectProps,
  type SelectValueProps,
} from "react-aria-components";

type SelectionMode = "single" | "multiple";

export function Select<T extends object = object, M extends SelectionMode = "single">(props: SelectProps<T, M>): ReactNode {
  return <AriaSelect<T, M> {...props} />;
}

export function SelectValue<T extends object = object>(props: SelectValueProps<T>): ReactNode {
  return <AriaSelectValue<T> {...props} />;
}
