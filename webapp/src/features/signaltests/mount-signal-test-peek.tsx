// mount renders a test's live view into its island element on
// /signaltest/peek/{id}; see PeekProps (utils/props.ts) for the props:
// {testId, tileUrl}.
import { createRoot } from "react-dom/client";
import { Intl } from "@/lib/i18n";
import { TestPeek } from "@/features/signaltests/components/test-peek";
import { readPeekProps } from "@/features/signaltests/utils/props";

export function mount(el: HTMLElement, props: unknown): void {
  const p = readPeekProps(props);
  if (!p) {
    console.error("signal-test-peek: props need a positive integer testId", props);
    return;
  }
  try {
    createRoot(el).render(
      <Intl>
        <TestPeek testId={p.testId} tileUrl={p.tileUrl} />
      </Intl>,
    );
  } catch (err) {
    console.error("signal-test-peek: mount failed", err);
  }
}
