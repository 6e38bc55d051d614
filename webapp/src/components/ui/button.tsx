// Button is React Aria's button; the islands style it by their own classes.
import type { ReactNode, Ref } from "react";
import { Button as AriaButton, type ButtonProps as AriaButtonProps } from "react-aria-components";

export interface ButtonProps extends AriaButtonProps {
  ref?: Ref<HTMLButtonElement>;
}

export function Button(props: ButtonProps): ReactNode {
  return <AriaButton {...props} />;
}
