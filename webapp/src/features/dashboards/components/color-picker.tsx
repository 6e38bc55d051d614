// CategoryColorPicker chooses a category's colour: a row of suggested
// colours, a saturation/brightness area with a hue slider, and the hex code,
// all kept in step by React Aria's ColorPicker. Every part works with the
// keyboard (arrow keys move the thumbs).
import { useId, type ReactNode } from "react";
import { parseColor, type Color } from "react-aria-components";
import { ColorArea, ColorField, ColorPicker, ColorSlider, ColorSwatch, ColorSwatchPicker, ColorSwatchPickerItem, ColorThumb, SliderTrack } from "@/components/ui/color-picker";
import { Input, Label } from "@/components/ui/field";
import { defineMessages, useIntl, type NoMessageValues } from "react-intl";

const messages = defineMessages<{
  label: NoMessageValues;
  suggested: NoMessageValues;
  hex: NoMessageValues;
  hue: NoMessageValues;
}>({
  label: { id: "tree.color.label", defaultMessage: "Colour" },
  suggested: { id: "tree.color.suggested", defaultMessage: "Suggested colours" },
  hex: { id: "tree.color.hex", defaultMessage: "Hex code" },
  hue: { id: "tree.color.hue", defaultMessage: "Hue" },
});

// The Material Design 500 shades, the default blue first.
const palette = [
  "#2196F3",
  "#F44336",
  "#E91E63",
  "#9C27B0",
  "#673AB7",
  "#3F51B5",
  "#03A9F4",
  "#00BCD4",
  "#009688",
  "#4CAF50",
  "#8BC34A",
  "#CDDC39",
  "#FFEB3B",
  "#FFC107",
  "#FF9800",
  "#FF5722",
  "#795548",
  "#607D8B",
];

// toHex is the #RRGGBB form the API stores.
export const toHex = (c: Color): string => c.toString("hex").toUpperCase();

export function CategoryColorPicker({ value, onChange }: { value: Color; onChange: (c: Color) => void }): ReactNode {
  const intl = useIntl();
  const labelId = useId();
  return (
    <ColorPicker value={value} onChange={onChange}>
      <div className="fh-color" role="group" aria-labelledby={labelId}>
        <div className="fh-color__header">
          <span className="fh-color__label" id={labelId}>
            {intl.formatMessage(messages.label)}
          </span>
          <ColorSwatch className="fh-color__preview" />
          <ColorField className="fh-color__field">
            <Label className="fh-color__field-label">{intl.formatMessage(messages.hex)}</Label>
            <Input className="fh-color__input" />
          </ColorField>
        </div>
        <ColorSwatchPicker className="fh-color__swatches" aria-label={intl.formatMessage(messages.suggested)}>
          {palette.map((c) => (
            <ColorSwatchPickerItem key={c} color={c} className="fh-color__swatch-item">
              <ColorSwatch className="fh-color__swatch" />
            </ColorSwatchPickerItem>
          ))}
        </ColorSwatchPicker>
        <ColorArea className="fh-color__area" colorSpace="hsb" xChannel="saturation" yChannel="brightness">
          <ColorThumb className="fh-color__thumb" />
        </ColorArea>
        <ColorSlider className="fh-color__slider" colorSpace="hsb" channel="hue" aria-label={intl.formatMessage(messages.hue)}>
          <SliderTrack className="fh-color__track">
            <ColorThumb className="fh-color__thumb" />
          </SliderTrack>
        </ColorSlider>
      </div>
    </ColorPicker>
  );
}

// parseOr reads a stored colour, falling back to fallback when it is not one.
export function parseOr(value: string, fallback: string): Color {
  try {
    return parseColor(value);
  } catch {
    return parseColor(fallback);
  }
}
