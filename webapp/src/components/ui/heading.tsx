// Heading is a heading that React Aria components label themselves by (a
// calendar's month); a dialog's title is DialogHeading (dialog.tsx).
import type { ReactNode } from "react";
import { Heading as AriaHeading, type HeadingProps } from "react-aria-components";

export function Heading(props: HeadingProps): ReactNode {
  return <AriaHeading {...props} />;
}
