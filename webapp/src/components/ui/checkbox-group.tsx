// CheckboxGroup holds Checkboxes, any of which may be ticked.
import type { ReactNode } from "react";
import {
  Checkbox as AriaCheckbox,
  CheckboxGroup as AriaCheckboxGroup,
  type CheckboxGroupProps,
  type CheckboxProps,
} from "react-aria-components";

export function CheckboxGroup(props: CheckboxGroupProps): ReactNode {
  return <AriaCheckboxGroup {...props} />;
}

export function Checkbox(props: CheckboxProps): ReactNode {
  return <AriaCheckbox {...props} />;
}
