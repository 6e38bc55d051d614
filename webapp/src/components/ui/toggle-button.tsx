// ToggleButton is a button that stays pressed; ToggleButtonGroup holds a row
// of them with single or multiple selection.
import type { ReactNode } from "react";
import {
  ToggleButton as AriaToggleButton,
  ToggleButtonGroup as AriaToggleButtonGroup,
  type ToggleButtonGroupProps,
  type ToggleButtonProps,
} from "react-aria-components";

export function ToggleButton(props: ToggleButtonProps): ReactNode {
  return <AriaToggleButton {...props} />;
}

export function ToggleButtonGroup(props: ToggleButtonGroupProps): ReactNode {
  return <AriaToggleButtonGroup {...props} />;
}
