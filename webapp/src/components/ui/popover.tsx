// Popover is React Aria's popover: what a trigger opens beside itself.
import type { ReactNode } from "react";
import { Popover as AriaPopover, type PopoverProps } from "react-aria-components";

export function Popover(props: PopoverProps): ReactNode {
  return <AriaPopover {...props} />;
}
