// mount renders /signaltest's start form and list of tests into its island
// element; see ListProps (utils/props.ts) for the props: {companyId}.
import { createRoot } from "react-dom/client";
import { Intl } from "@/lib/i18n";
import { TestList } from "@/features/signaltests/components/test-list";
import { readListProps } from "@/features/signaltests/utils/props";

export function mount(el: HTMLElement, props: unknown): void {
  const p = readListProps(props);
  if (!p) {
    console.error("signal-tests: props need a positive integer companyId", props);
    return;
  }
  try {
    createRoot(el).render(
      <Intl>
        <TestList companyId={p.companyId} />
      </Intl>,
    );
  } catch (err) {
    console.error("signal-tests: mount failed", err);
  }
}
