// RadioGroup holds Radio buttons, one of which is chosen.
import type { ReactNode } from "react";
import { Radio as AriaRadio, RadioGroup as AriaRadioGroup, type RadioGroupProps, type RadioProps } from "react-aria-components";

export function RadioGroup(props: RadioGroupProps): ReactNode {
  return <AriaRadioGroup {...props} />;
}

export function Radio(props: RadioProps): ReactNode {
  return <AriaRadio {...props} />;
}
