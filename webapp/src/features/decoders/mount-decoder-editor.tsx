// mount renders the decoder editor into its island element; see
// DecoderEditorProps for the props: {companyId, decoderId?, maxSource,
// maxModule}.
import { createRoot } from "react-dom/client";
import { Intl } from "@/lib/i18n";
import { DecoderEditor, type DecoderEditorProps } from "@/features/decoders/components/decoder-editor";

export function mount(el: HTMLElement, props: unknown): void {
  const p = readProps(props);
  if (!p) {
    console.error("decoder-editor: props need a positive integer companyId", props);
    return;
  }
  try {
    createRoot(el).render(
      <Intl>
        <DecoderEditor {...p} />
      </Intl>,
    );
  } catch (err) {
    console.error("decoder-editor: mount failed", err);
  }
}

const positive = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v > 0;

function readProps(raw: unknown): DecoderEditorProps | null {
  if (typeof raw !== "object" || raw === null) return null;
  const p = raw as Record<string, unknown>;
  if (!positive(p.companyId)) return null;
  const out: DecoderEditorProps = {
    companyId: p.companyId,
    maxSource: positive(p.maxSource) ? p.maxSource : 1 << 20,
    maxModule: positive(p.maxModule) ? p.maxModule : 8 << 20,
  };
  if (positive(p.decoderId)) out.decoderId = p.decoderId;
  return out;
}
