// FileTrigger opens the browser's file chooser from the button it holds.
import type { ReactNode } from "react";
import { FileTrigger as AriaFileTrigger, type FileTriggerProps } from "react-aria-components";

export function FileTrigger(props: FileTriggerProps): ReactNode {
  return <AriaFileTrigger {...props} />;
}
