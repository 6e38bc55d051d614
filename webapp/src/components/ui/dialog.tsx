// The parts of a dialog: Dialog, its DialogHeading (the title React Aria
// labels it by) and DialogActions (the row of buttons at its foot). A modal
// dialog sits in a Modal (modal.tsx); DialogTrigger opens one in a Popover.
import type { ReactNode } from "react";
import {
  Dialog as AriaDialog,
  DialogTrigger as AriaDialogTrigger,
  Heading,
  type DialogProps,
  type DialogTriggerProps,
  type HeadingProps,
} from "react-aria-components";

export function Dialog(props: DialogProps): ReactNode {
  return <AriaDialog {...props} />;
}

export function DialogHeading(props: Omit<HeadingProps, "slot">): ReactNode {
  return <Heading slot="title" {...props} />;
}

export function DialogActions({ className, children }: { className: string; children: ReactNode }): ReactNode {
  return <div className={className}>{children}</div>;
}

export function DialogTrigger(props: DialogTriggerProps): ReactNode {
  return <AriaDialogTrigger {...props} />;
}
