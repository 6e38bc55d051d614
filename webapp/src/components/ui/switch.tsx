// Switch turns a setting on or off.
import type { ReactNode } from "react";
import { Switch as AriaSwitch, type SwitchProps } from "react-aria-components";

export function Switch(props: SwitchProps): ReactNode {
  return <AriaSwitch {...props} />;
}
