// ComboBox is a text input that suggests items from a list in a popover.
import type { ReactNode } from "react";
import { ComboBox as AriaComboBox, type ComboBoxProps } from "react-aria-components";

export function ComboBox<T extends object>(props: ComboBoxProps<T>): ReactNode {
  return <AriaComboBox<T> {...props} />;
}
