// mount renders the script editor into its island element; props:
// {companyId, scriptId?, nodes: [{id, name}]} (ScriptEditorProps).
import { createRoot } from "react-dom/client";
import { Intl } from "@/lib/i18n";
import { ScriptEditor, type NodeChoice, type ScriptEditorProps } from "@/features/scripts/components/script-editor";

const positive = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v > 0;

function readNodes(raw: unknown): NodeChoice[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((n: unknown) => {
    const o = (typeof n === "object" && n !== null ? n : {}) as Record<string, unknown>;
    return positive(o.id) && typeof o.name === "string" ? [{ id: o.id, name: o.name }] : [];
  });
}

export function mount(el: HTMLElement, props: unknown): void {
  const p = (typeof props === "object" && props !== null ? props : {}) as Record<string, unknown>;
  if (!positive(p.companyId)) {
    console.error("script-editor: props need a positive integer companyId", props);
    return;
  }
  const out: ScriptEditorProps = { companyId: p.companyId, nodes: readNodes(p.nodes) };
  if (positive(p.scriptId)) out.scriptId = p.scriptId;
  createRoot(el).render(
    <Intl>
      <ScriptEditor {...out} />
    </Intl>,
  );
}
