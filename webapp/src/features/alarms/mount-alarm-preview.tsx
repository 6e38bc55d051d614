// mount renders the alarm preview into its island element, inside the
// rule's form: the props name the node, key and limits the page was drawn
// with, and the preview follows the form's fields as they are edited.
import { useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { Intl } from "@/lib/i18n";
import { AlarmPreview } from "@/features/alarms/components/alarm-preview";
import "@/features/alarms/components/alarm-preview.css";
import { readForm, readProps, sameRule, type PreviewRule } from "@/features/alarms/utils/preview";

function Live({ form, initial }: { form: HTMLFormElement | null; initial: PreviewRule }) {
  const [rule, setRule] = useState(initial);
  useEffect(() => {
    if (!form) return;
    const update = (): void => {
      const next = readForm(form);
      setRule((cur) => (sameRule(cur, next) ? cur : next));
    };
    form.addEventListener("change", update);
    return () => form.removeEventListener("change", update);
  }, [form]);
  return <AlarmPreview rule={rule} />;
}

export function mount(el: HTMLElement, props: unknown): void {
  try {
    createRoot(el).render(
      <Intl>
        <Live form={el.closest("form")} initial={readProps(props)} />
      </Intl>,
    );
  } catch (err) {
    console.error("alarm-preview: mount failed", err);
  }
}
