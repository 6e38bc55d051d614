// mount renders the script editor into its island element; props:
// {companyId, scriptId?, nodes: [{id, name}], limits?} (ScriptEditorProps).
import { createRoot } from "react-dom/client";
import { Intl } from "@/lib/i18n";
import { ScriptEditor, type Limits, type NodeChoice, type ScriptEditorProps } from "@/features/scripts/components/script-editor";

const positive = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v > 0;

function readNodes(raw: unknown): NodeChoice[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((n: unknown) => {
    const o = (typeof n === "object" && n !== null ? n : {}) as Record<string, unknown>;
    return positive(o.id) && typeof o.name === "string" ? [{ id: o.id, name: o.name }] : [];
  });
}

const limitKeys = ["runWrites", "runSends", "scriptWrites", "scriptSends", "companyWrites", "companySends", "failures", "maxModule"] as const;

// readLimits takes the limits only when every one is a positive integer.
function readLimits(raw: unknown): Limits | undefined {
  const o = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const out: Partial<Record<(typeof limitKeys)[number], number>> = {};
  for (const k of limitKeys) {
    const v = o[k];
    if (!positive(v)) return undefined;
    out[k] = v;
  }
  return out as Limits;
}

export function mount(el: HTMLElement, props: unknown): void {
  const p = (typeof props === "object" && props !== null ? props : {}) as Record<string, unknown>;
  if (!positive(p.companyId)) {
    console.error("script-editor: props need a positive integer companyId", props);
    return;
  }
  const out: ScriptEditorProps = { companyId: p.companyId, nodes: readNodes(p.nodes) };
  if (positive(p.scriptId)) out.scriptId = p.scriptId;
  const limits = readLimits(p.limits);
  if (limits) out.limits = limits;
  createRoot(el).render(
    <Intl>
      <ScriptEditor {...out} />
    </Intl>,
  );
}
