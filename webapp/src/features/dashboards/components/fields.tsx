// Form fields of the module settings dialog: thin React Aria wrappers with
// the dashboard's look, each with its label, hint and error.
import { useEffect, useId, useState, type ReactNode } from "react";
import { type Key } from "react-aria-components";
import { Button } from "@/components/ui/button";
import { ComboBox } from "@/components/ui/combo-box";
import { FieldError, Input, Label, Text, TextArea } from "@/components/ui/field";
import { ListBox, ListBoxItem } from "@/components/ui/list-box";
import { Popover } from "@/components/ui/popover";
import { Select, SelectValue } from "@/components/ui/select";
import { Switch } from "@/components/ui/switch";
import { TextField } from "@/components/ui/text-field";

export interface Option {
  id: string;
  label: string;
  hint?: string;
}

export function TextInput(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  hint?: string;
  error?: string | null;
  multiline?: boolean;
  inputMode?: "text" | "decimal" | "numeric" | "url";
  placeholder?: string;
  name?: string;
  isRequired?: boolean;
}): ReactNode {
  const { label, value, onChange, hint, error, multiline, inputMode, placeholder, name, isRequired } = props;
  return (
    <TextField
      className="fh-dash-field"
      value={value}
      onChange={onChange}
      isInvalid={!!error}
      isRequired={isRequired}
      name={name}
      validationBehavior="aria"
    >
      <Label className="fh-dash-field__label">{label}</Label>
      {multiline ? (
        <TextArea className="fh-dash-field__input fh-dash-field__input--area" rows={5} placeholder={placeholder} />
      ) : (
        <Input className="fh-dash-field__input" inputMode={inputMode} placeholder={placeholder} />
      )}
      {hint ? (
        <Text slot="description" className="fh-dash-field__hint">
          {hint}
        </Text>
      ) : null}
      <FieldError className="fh-dash-field__error">{error}</FieldError>
    </TextField>
  );
}

export function ColorInput(props: { label: string; value: string; onChange: (v: string) => void; hint: string; error?: string | null; pick: string }): ReactNode {
  const { label, value, onChange, hint, error, pick } = props;
  const id = useId();
  const hex = /^#[0-9a-f]{6}$/i.test(value) ? value : "#2196f3";
  return (
    <div className="fh-dash-color">
      <TextInput label={label} value={value} onChange={onChange} hint={hint} error={error} placeholder="#rrggbb" />
      <span className="fh-dash-color__swatch" style={{ background: value || "transparent" }} aria-hidden="true" />
      <label className="sr-only" htmlFor={id}>
        {pick}
      </label>
      <input id={id} type="color" className="fh-dash-color__pick" value={hex} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

export function SelectField(props: { label: string; value: string; options: Option[]; onChange: (v: string) => void; hint?: string; error?: string | null }): ReactNode {
  const { label, value, options, onChange, hint, error } = props;
  return (
    <Select className="fh-dash-field" value={value || null} onChange={(k) => onChange(k === null ? "" : String(k))} isInvalid={!!error} validationBehavior="aria">
      <Label className="fh-dash-field__label">{label}</Label>
      <Button className="fh-dash-field__input fh-dash-field__select">
        <SelectValue />
        <span className="mdi mdi-menu-down" aria-hidden="true" />
      </Button>
      {hint ? (
        <Text slot="description" className="fh-dash-field__hint">
          {hint}
        </Text>
      ) : null}
      <FieldError className="fh-dash-field__error">{error}</FieldError>
      <Popover className="fh-dash-popover" placement="bottom start">
        <ListBox className="fh-dash-listbox" items={options}>
          {(o) => (
            <ListBoxItem id={o.id} className="fh-dash-option" textValue={o.label}>
              {o.label}
              {o.hint ? <span className="fh-dash-option__hint">{o.hint}</span> : null}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
}

// ComboField is a searchable choice (nodes, keys): typing filters the list.
// With allowsCustomValue (keys) the typed text is the value, and choosing
// an option types its id: a key may be named before its first value.
export function ComboField(props: {
  label: string;
  value: string;
  options: Option[];
  onChange: (v: string) => void;
  hint?: string;
  error?: string | null;
  allowsCustomValue?: boolean;
  emptyText: string;
}): ReactNode {
  const { label, value, options, onChange, hint, error, allowsCustomValue, emptyText } = props;
  const [text, setText] = useState(value);
  useEffect(() => {
    if (allowsCustomValue) setText((t) => (t.trim() === value ? t : value));
  }, [value, allowsCustomValue]);
  const selection = allowsCustomValue
    ? {
        inputValue: text,
        onInputChange: (t: string) => {
          setText(t);
          onChange(t.trim());
        },
        onSelectionChange: (k: Key | null) => {
          if (k === null) return;
          setText(String(k));
          onChange(String(k));
        },
      }
    : {
        selectedKey: value || null,
        onSelectionChange: (k: Key | null) => {
          if (k !== null) onChange(String(k));
        },
      };
  return (
    <ComboBox
      className="fh-dash-field"
      defaultItems={options}
      {...selection}
      allowsCustomValue={allowsCustomValue}
      isInvalid={!!error}
      validationBehavior="aria"
      menuTrigger="focus"
    >
      <Label className="fh-dash-field__label">{label}</Label>
      <div className="fh-dash-combo">
        <Input className="fh-dash-field__input" />
        <Button className="fh-dash-combo__button">
          <span className="mdi mdi-menu-down" aria-hidden="true" />
        </Button>
      </div>
      {hint ? (
        <Text slot="description" className="fh-dash-field__hint">
          {hint}
        </Text>
      ) : null}
      <FieldError className="fh-dash-field__error">{error}</FieldError>
      <Popover className="fh-dash-popover" placement="bottom start">
        <ListBox className="fh-dash-listbox" renderEmptyState={() => <div className="fh-dash-option">{emptyText}</div>}>
          {(o: Option) => (
            <ListBoxItem id={o.id} className="fh-dash-option" textValue={allowsCustomValue ? o.id : o.label}>
              {o.label}
              {o.hint ? <span className="fh-dash-option__hint">{o.hint}</span> : null}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}

export function SwitchField({ label, value, onChange }: { label: string; value: boolean; onChange: (v: boolean) => void }): ReactNode {
  return (
    <Switch className="fh-dash-switch" isSelected={value} onChange={onChange}>
      <span className="fh-dash-switch__track" aria-hidden="true">
        <span className="fh-dash-switch__thumb" />
      </span>
      {label}
    </Switch>
  );
}
