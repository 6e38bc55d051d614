// The colour controls: ColorPicker holds a colour that its ColorArea (with a
// ColorThumb), ColorSlider (a SliderTrack with a ColorThumb), ColorField and
// ColorSwatchPicker (ColorSwatchPickerItems showing ColorSwatches) edit.
import type { ReactNode } from "react";
import {
  ColorArea as AriaColorArea,
  ColorField as AriaColorField,
  ColorPicker as AriaColorPicker,
  ColorSlider as AriaColorSlider,
  ColorSwatch as AriaColorSwatch,
  ColorSwatchPicker as AriaColorSwatchPicker,
  ColorSwatchPickerItem as AriaColorSwatchPickerItem,
  ColorThumb as AriaColorThumb,
  SliderTrack as AriaSliderTrack,
  type ColorAreaProps,
  type ColorFieldProps,
  type ColorPickerProps,
  type ColorSliderProps,
  type ColorSwatchPickerItemProps,
  type ColorSwatchPickerProps,
  type ColorSwatchProps,
  type ColorThumbProps,
  type SliderTrackProps,
} from "react-aria-components";

export function ColorPicker(props: ColorPickerProps): ReactNode {
  return <AriaColorPicker {...props} />;
}

export function ColorArea(props: ColorAreaProps): ReactNode {
  return <AriaColorArea {...props} />;
}

export function ColorSlider(props: ColorSliderProps): ReactNode {
  return <AriaColorSlider {...props} />;
}

export function SliderTrack(props: SliderTrackProps): ReactNode {
  return <AriaSliderTrack {...props} />;
}

export function ColorThumb(props: ColorThumbProps): ReactNode {
  return <AriaColorThumb {...props} />;
}

export function ColorField(props: ColorFieldProps): ReactNode {
  return <AriaColorField {...props} />;
}

export function ColorSwatchPicker(props: ColorSwatchPickerProps): ReactNode {
  return <AriaColorSwatchPicker {...props} />;
}

export function ColorSwatchPickerItem(props: ColorSwatchPickerItemProps): ReactNode {
  return <AriaColorSwatchPickerItem {...props} />;
}

export function ColorSwatch(props: ColorSwatchProps): ReactNode {
  return <AriaColorSwatch {...props} />;
}
