// IconSelector is a searchable list of the Material Design icon names with a
// substring filter. The search field keeps the focus while the arrow keys
// move through the list and Enter chooses; the list panel is at most 200px
// high.
import { useEffect, useId, useMemo, useState, type ReactNode } from "react";
import { I18nProvider, type Selection } from "react-aria-components";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/field";
import { ListBox, ListBoxItem } from "@/components/ui/list-box";
import { Autocomplete, SearchField } from "@/components/ui/search-field";
import { defineMessages, useIntl, type NoMessageValues } from "react-intl";
import { defaultCategoryIcon } from "@/features/dashboards/utils/category-tree";
import { filterIcons, loadIconNames, maxShown } from "@/features/dashboards/utils/icon-names";
import "@/features/dashboards/components/icon-selector.css";

// IconSelectorProps are the island's props after validation.
export interface IconSelectorProps {
  name?: string;
  value?: string;
  label?: string;
  onIconChange?: (icon: string) => void;
}

const messages = defineMessages<{
  label: NoMessageValues;
  placeholder: NoMessageValues;
  loading: NoMessageValues;
  loadFailed: NoMessageValues;
  noMatch: { query: string };
  more: { shown: number; total: number };
}>({
  label: { id: "icons.label", defaultMessage: "Icon" },
  placeholder: { id: "icons.placeholder", defaultMessage: "Search icons" },
  loading: { id: "icons.loading", defaultMessage: "Loading icons…" },
  loadFailed: { id: "icons.loadFailed", defaultMessage: "The icon list could not be loaded" },
  noMatch: { id: "icons.noMatch", defaultMessage: "No icon name contains “{query}”" },
  more: {
    id: "icons.more",
    defaultMessage: "Showing {shown, number} of {total, number} icons; keep typing to narrow the list",
  },
});

interface Item {
  id: string;
}

export function IconSelector(props: IconSelectorProps): ReactNode {
  const { name, onIconChange } = props;
  const intl = useIntl();
  const label = props.label ?? intl.formatMessage(messages.label);
  const [value, setValue] = useState(props.value ?? defaultCategoryIcon);
  const [query, setQuery] = useState("");
  const [names, setNames] = useState<readonly string[] | null>(null);
  const [failed, setFailed] = useState(false);
  const currentId = useId();
  const moreId = useId();

  useEffect(() => {
    let live = true;
    loadIconNames().then(
      (list) => {
        if (live) setNames(list);
      },
      () => {
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, []);

  const matches = useMemo(() => filterIcons(names ?? [], query, maxShown), [names, query]);
  const items = useMemo<Item[]>(() => matches.shown.map((id) => ({ id })), [matches]);
  const capped = matches.total > matches.shown.length;

  function onSelectionChange(keys: Selection): void {
    if (keys === "all") return;
    const [key] = keys;
    if (key === undefined) return;
    const icon = String(key);
    if (icon !== value) {
      setValue(icon);
      onIconChange?.(icon);
    }
  }

  function emptyState(): string {
    if (failed) return intl.formatMessage(messages.loadFailed);
    if (!names) return intl.formatMessage(messages.loading);
    return intl.formatMessage(messages.noMatch, { query: query.trim() });
  }

  return (
    <I18nProvider locale={intl.locale}>
      <div className="fh-icon-selector">
        <Autocomplete inputValue={query} onInputChange={setQuery}>
          <SearchField
            className="fh-icon-selector__search"
            aria-describedby={capped ? `${currentId} ${moreId}` : currentId}
          >
            <div className="fh-icon-selector__header">
              <Label className="fh-icon-selector__label">{label}</Label>
              <span className="fh-icon-selector__current" id={currentId}>
                <span className={`mdi ${value}`} aria-hidden="true" />
                {value}
              </span>
            </div>
            <div className="fh-icon-selector__field">
              <span className="mdi mdi-magnify" aria-hidden="true" />
              <Input className="fh-icon-selector__input" placeholder={intl.formatMessage(messages.placeholder)} />
              <Button className="fh-icon-selector__clear">
                <span className="mdi mdi-close" aria-hidden="true" />
              </Button>
            </div>
          </SearchField>
          <ListBox<Item>
            className="fh-icon-selector__list"
            aria-label={label}
            items={items}
            selectionMode="single"
            disallowEmptySelection
            selectedKeys={[value]}
            onSelectionChange={onSelectionChange}
            renderEmptyState={() => <div className="fh-icon-selector__empty">{emptyState()}</div>}
          >
            {(item) => (
              <ListBoxItem id={item.id} textValue={item.id} className="fh-icon-selector__option">
                <span className={`mdi ${item.id}`} aria-hidden="true" />
                <span className="fh-icon-selector__name">{item.id}</span>
              </ListBoxItem>
            )}
          </ListBox>
        </Autocomplete>
        {capped ? (
          <div className="fh-icon-selector__more" id={moreId}>
            {intl.formatMessage(messages.more, { shown: matches.shown.length, total: matches.total })}
          </div>
        ) : null}
        {name ? <input type="hidden" name={name} value={value} /> : null}
      </div>
    </I18nProvider>
  );
}
