// SearchField is a text input for a query; Autocomplete filters the
// collection beside it (a ListBox) by what is typed there.
import type { ReactNode } from "react";
import {
  Autocomplete as AriaAutocomplete,
  SearchField as AriaSearchField,
  type AutocompleteProps,
  type SearchFieldProps,
} from "react-aria-components";

export function SearchField(props: SearchFieldProps): ReactNode {
  return <AriaSearchField {...props} />;
}

export function Autocomplete<T extends object>(props: AutocompleteProps<T>): ReactNode {
  return <AriaAutocomplete<T> {...props} />;
}
