// Form is a form whose fields React Aria validates.
import type { ReactNode } from "react";
import { Form as AriaForm, type FormProps } from "react-aria-components";

export function Form(props: FormProps): ReactNode {
  return <AriaForm {...props} />;
}
