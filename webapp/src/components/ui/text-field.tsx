// TextField is a text input with its label and error; its children are the
// parts (Label, Input or TextArea, FieldError from field.tsx) in the order
// the island draws them.
import type { ReactNode } from "react";
import { TextField as AriaTextField, type TextFieldProps } from "react-aria-components";

export function TextField(props: TextFieldProps): ReactNode {
  return <AriaTextField {...props} />;
}
