// mount renders the tag chart into its island element; see TagChartProps
// (data.ts) for the props: {tagId, keys: [{key, label, unit}], defaultKey?}.
import { createRoot } from "react-dom/client";
import { Intl } from "@/lib/i18n";
import { TagChart } from "@/features/nodes/components/tag-chart";
import { readProps } from "@/features/nodes/utils/tag-data";

export function mount(el: HTMLElement, props: unknown): void {
  const p = readProps(props);
  if (!p) {
    console.error("tag-chart: props need a positive integer tagId", props);
    return;
  }
  try {
    createRoot(el).render(
      <Intl>
        <TagChart {...p} />
      </Intl>,
    );
  } catch (err) {
    console.error("tag-chart: mount failed", err);
  }
}
