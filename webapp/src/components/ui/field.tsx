// The parts of a form field that the field components put together: Label,
// Input, TextArea, Text (a description) and FieldError.
import type { ReactNode } from "react";
import {
  FieldError as AriaFieldError,
  Input as AriaInput,
  Label as AriaLabel,
  Text as AriaText,
  TextArea as AriaTextArea,
  type FieldErrorProps,
  type InputProps,
  type LabelProps,
  type TextAreaProps,
  type TextProps,
} from "react-aria-components";

export function Label(props: LabelProps): ReactNode {
  return <AriaLabel {...props} />;
}

export function Input(props: InputProps): ReactNode {
  return <AriaInput {...props} />;
}

export function TextArea(props: TextAreaProps): ReactNode {
  return <AriaTextArea {...props} />;
}

export function Text(props: TextProps): ReactNode {
  return <AriaText {...props} />;
}

export function FieldError(props: FieldErrorProps): ReactNode {
  return <AriaFieldError {...props} />;
}
